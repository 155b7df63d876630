import Foundation
import Testing
import WebParser
@testable import WebParserCore

/// Item identities, what counts as new, and the bounded memory of seen items.
@Suite struct ChangeTrackerTests {
    func changes(_ json: String, since previous: StateFile.Job?, key: String? = nil, remember: Int = 5000) throws -> Changes {
        try ChangeTracker.changes(
            in: Data(json.utf8), since: previous, tracking: Tracking(key: key, remember: remember),
            at: Date(timeIntervalSince1970: 0))
    }

    func texts(_ items: [Data]) -> [String] { items.map { String(decoding: $0, as: UTF8.self) } }

    @Test func sha256MatchesTheStandardVectors() {
        #expect(SHA256.hex("".utf8) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc".utf8) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex([UInt8](repeating: 0x61, count: 1_000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    @Test func canonicalJSONIgnoresKeyOrderAndSpelling() throws {
        let a = try JSONNode.parse(Array(#"{"b": [1.0, 2e0], "a": {"y": null, "x": "é"}}"#.utf8))
        let b = try JSONNode.parse(Array(#"{"a":{"x":"\u00e9","y":null},"b":[1,2]}"#.utf8))
        #expect(CanonicalJSON.text(a) == CanonicalJSON.text(b))
        #expect(CanonicalJSON.text(a) == #"{"a":{"x":"é","y":null},"b":[1,2]}"#)
    }

    @Test func resultsAreReadWithLoneSurrogatesAndRepeatedKeys() throws {
        let text = #"["\ud83d", "\ud83d\u0041", "x\udc00", "\ud83d\ude00", {"a": 1, "a": 2}]"#
        let node = try JSONNode.parse(Array(text.utf8), rules: ChangeTracker.rules)
        #expect(CanonicalJSON.text(node) == #"["\#u{F003D}","\#u{F003D}A","x\#u{F0400}","😀",{"a":1,"a":2}]"#)
        let other = try JSONNode.parse(Array(#""\ud83e""#.utf8), rules: ChangeTracker.rules)
        #expect(
            CanonicalJSON.text(other) != CanonicalJSON.text(try JSONNode.parse(Array(#""\ud83d""#.utf8), rules: ChangeTracker.rules)),
            "different lone surrogates, different identities")
        #expect(throws: JSONSyntaxError.self) { try JSONNode.parse(Array(#""\ud83d""#.utf8)) }
    }

    @Test func newItemsAreThoseNotSeenAndPrintedAsThePageWroteThem() throws {
        let first = try changes(#"[{"id": 1, "t": "a"}, {"id": 2, "t": "b"}]"#, since: nil, key: "id")
        #expect(first.isFirstRun)
        #expect(texts(first.fresh) == [#"{"id": 1, "t": "a"}"#, #"{"id": 2, "t": "b"}"#])
        #expect(first.updated.seen == ["k:1", "k:2"])
        let second = try changes(#"[{"id": 3, "t": "c"}, {"t": "B", "id": 2}, {"id": 1, "t": "a"}]"#, since: first.updated, key: "id")
        #expect(!second.isFirstRun)
        #expect(texts(second.fresh) == [#"{"id": 3, "t": "c"}"#], "a changed title with the same id is not new")
        #expect(second.updated.seen == ["k:3", "k:2", "k:1"])
    }

    @Test func withoutAKeyTheWholeItemIsItsIdentity() throws {
        let first = try changes(#"[{"a": 1, "b": 2}, "x"]"#, since: nil)
        let second = try changes(#"[{"b": 2, "a": 1}, "x", "y", "y"]"#, since: first.updated)
        #expect(texts(second.fresh) == [#""y""#], "key order does not matter; a repeated item is new once")
        #expect(second.updated.seen.allSatisfy { $0.hasPrefix("h:") && $0.count == 66 })
    }

    @Test func aKeyPathReachesIntoItemsAndMissingKeysAreCounted() throws {
        let json = #"[{"link": {"href": "/c/1"}}, {"link": {"href": "/c/2"}}, {"title": "no link"}, {"link": {"href": null}}]"#
        let result = try changes(json, since: nil, key: "link.href")
        #expect(result.updated.seen.prefix(2) == [#"k:"/c/1""#, #"k:"/c/2""#])
        #expect(result.itemsWithoutKey == 2)
    }

    @Test func memoryIsBoundedAndItemsStillShownAreKept() throws {
        let first = try changes("[1, 2, 3]", since: nil, remember: 4)
        let second = try changes("[4, 5]", since: first.updated, remember: 4)
        let identities = try (2...5).map { ChangeTracker.identity(of: try JSONNode.parse(Array("\($0)".utf8)), key: nil).0 }
        #expect(second.updated.seen == identities, "the oldest, 1, is forgotten")
        let third = try changes("[1, 5]", since: second.updated, remember: 4)
        #expect(texts(third.fresh) == ["1"], "1 was forgotten, the oldest")
        let fourth = try changes("[5, 6]", since: third.updated, remember: 2)
        #expect(texts(fourth.fresh) == ["6"])
        #expect(fourth.updated.seen.count == 2)
    }

    @Test func aResultThatIsNotAListIsNewWhenItChanges() throws {
        let first = try changes(#"{"chapter": 112}"#, since: nil)
        #expect(!first.isList && first.isFirstRun)
        let same = try changes(#"{ "chapter" : 112 }"#, since: first.updated)
        #expect(same.fresh.isEmpty)
        let changed = try changes(#"{"chapter": 113}"#, since: same.updated)
        #expect(texts(changed.fresh) == [#"{"chapter": 113}"#])
    }

    /// The diff of a changed value reads as `diff -u` writes it: these hunks are what diff -u printed.
    @Test func diffsAreUnifiedAsDiffWritesThem() {
        let before = (1...15).map { "\($0)"[...] }
        let now = ["1", "2", "three", "4", "5", "6", "7", "8", "9", "10", "11", "12", "14", "15", "16"].map { $0[...] }
        #expect(
            UnifiedDiff.make(before, now) == """
                --- before
                +++ now
                @@ -1,6 +1,6 @@
                 1
                 2
                -3
                +three
                 4
                 5
                 6
                @@ -10,6 +10,6 @@
                 10
                 11
                 12
                -13
                 14
                 15
                +16

                """)
        #expect(UnifiedDiff.make(before, before).isEmpty)
    }
}
