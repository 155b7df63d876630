import Foundation
import Testing
import WebParser
import WebParserCore

/// The follow engine without WebKit: `Follower` and `FollowTargets` on a fake archive whose pages answer at once.
@Suite struct FollowerTests {
    static let base = URL(string: "https://comics.example/archive")!

    func follow(_ pages: FakePages, _ list: String, _ follow: Follow, chosen: Set<Data>? = nil) async -> Followed {
        await Follower(pages: pages).follow(follow, in: Data(list.utf8), base: Self.base, chosen: chosen, name: "archive")
    }

    static let detail = Follow(field: "url", job: WebParserJob(url: base, script: "document.title"))

    @Test func eachItemGetsItsPageEachPageLoadedOnce() async throws {
        let pages = FakePages([
            "/ch/1": .page(data: #"{"date":"d1"}"#, links: []),
            "/ch/2": .redirect(to: "/ch/2/"),
            "/ch/2/": .page(data: #"{"date":"d2"}"#, links: [])
        ])
        let list =
            #"[{"title":"one","url":"ch/1"},{"title":"two","url":"/ch/2"},{"title":"two again","url":"HTTPS://comics.example/ch/2#top"},"#
            + #"{"title":"gone","url":"/ch/3"},{"title":"none"},{"title":"mail","url":"mailto:x@y"},"plain"]"#
        let followed = await follow(pages, list, Self.detail)
        let text = String(decoding: followed.list, as: UTF8.self)
        #expect(text.contains(#"{"title":"one","url":"ch/1","detail":{"date":"d1"}}"#), "\(text)")
        #expect(text.contains(#"{"title":"two again","url":"HTTPS://comics.example/ch/2#top","detail":{"date":"d2"}}"#), "\(text)")
        #expect(text.contains(#""detail":{"error":"HTTP status 404 (https://comics.example/ch/3)","code":"http-status"}"#), "\(text)")
        #expect(text.contains(#"{"title":"none","detail":{"error":"the item has no field \"url\"","code":"noURL"}}"#), "\(text)")
        #expect(text.contains(#""detail":{"error":"the item's \"url\" is not an http(s) URL: mailto:x@y","code":"noURL"}"#), "\(text)")
        #expect(text.contains(#"{"item":"plain","detail":{"error":"#), "\(text)")
        #expect(pages.loads(of: "/ch/2") == 1, "the same page, however spelled, is loaded once")
        #expect(followed.failed == 4 && followed.loaded == 3)
        #expect(followed.items.count == 7)
    }

    @Test func onlyTheChosenItemsAreFollowed() async throws {
        let pages = FakePages(["/ch/1": .page(data: "1", links: []), "/ch/2": .page(data: "2", links: [])])
        let one = Data(#"{"url":"/ch/1"}"#.utf8)
        let followed = await follow(pages, #"[{"url":"/ch/1"},{"url":"/ch/2"}]"#, Self.detail, chosen: [one])
        #expect(String(decoding: followed.list, as: UTF8.self) == #"[{"url":"/ch/1","detail":1},{"url":"/ch/2"}]"#)
        #expect(pages.loads == ["https://comics.example/ch/1"])
    }

    /// A detail page's own list is followed in turn: its result when it is a list, or each list its object holds.
    @Test func followsNest() async throws {
        let pages = FakePages([
            "/ch/1": .page(data: #"{"date":"d1","pages":[{"url":"/p/1-1"},{"url":"/p/1-2"}],"note":"x"}"#, links: []),
            "/ch/2": .page(data: #"[{"url":"/p/2-1"}]"#, links: []),
            "/p/1-1": .page(data: #""s11""#, links: []), "/p/1-2": .page(data: #""s12""#, links: []), "/p/2-1": .page(data: #""s21""#, links: [])
        ])
        var outer = Self.detail
        outer.follow = Follow(field: "url", into: "scan", job: WebParserJob(url: Self.base, script: "1"))
        let followed = await follow(pages, #"[{"url":"/ch/1"},{"url":"/ch/2"}]"#, outer)
        #expect(
            String(decoding: followed.list, as: UTF8.self)
                == #"[{"url":"/ch/1","detail":{"date":"d1","pages":[{"url":"/p/1-1","scan":"s11"},{"url":"/p/1-2","scan":"s12"}],"note":"x"}},"#
                + #"{"url":"/ch/2","detail":[{"url":"/p/2-1","scan":"s21"}]}]"#)
        #expect(followed.loaded == 5 && followed.failed == 0)
    }

    @Test func aResultThatIsNoListIsLeftAsItIs() async throws {
        let pages = FakePages([:])
        let followed = await follow(pages, #"{"title":"x"}"#, Self.detail)
        #expect(String(decoding: followed.list, as: UTF8.self) == #"{"title":"x"}"#)
        #expect(pages.loads.isEmpty)
    }

    @Test func theListsOfAResultAreItsItemsOrThoseOfItsObjectsLists() {
        #expect(FollowTargets.items(of: Data("[1,2]".utf8)).count == 2)
        #expect(FollowTargets.items(of: Data(#"{"a":[1],"b":"x","c":[2,3]}"#.utf8)).map { String(decoding: $0, as: UTF8.self) } == ["1", "2", "3"])
        #expect(FollowTargets.items(of: Data(#""text""#.utf8)).isEmpty)
        let target = FollowTargets.target(
            of: Data(#"{"link":{"href":"../ch/1?p=2#x"}}"#.utf8), field: "link.href", base: URL(string: "https://Comics.Example:443/a/b")!)
        #expect((try? target.get())?.absoluteString == "https://comics.example/ch/1?p=2")
        let pages = FollowTargets.pages(
            of: Data(#"{"new":[{"u":"/ch/2"},{"u":"/ch/1#top"},{"x":1}],"old":[{"u":"https://comics.example/ch/1"}]}"#.utf8), field: "u",
            base: URL(string: "https://comics.example/")!)
        #expect(pages.map(\.url.absoluteString) == ["https://comics.example/ch/2", "https://comics.example/ch/1"], "each page once, in order")
        #expect(pages.map { String(decoding: $0.item, as: UTF8.self) } == [#"{"u":"/ch/2"}"#, #"{"u":"/ch/1#top"}"#], "with the first item naming it")
    }
}
