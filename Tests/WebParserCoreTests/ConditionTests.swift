import Foundation
import Testing
import WebParser
@testable import WebParserCore

/// A job's `when`, run by JavaScriptCore outside any page, and what `--state` reports with it: an item when its
/// condition comes to hold, once; items gone, once confirmed.
@Suite struct ConditionTests {
    func item(_ json: String) -> Data { Data(json.utf8) }

    @Test func aConditionReadsTheItemAndSaysWhetherItHolds() throws {
        let cheap = try ItemCondition("item.price < 300")
        #expect(cheap.test(item(#"{"price": 250}"#)) == .holds)
        #expect(cheap.test(item(#"{"price": 350}"#)) == .fails)
        let text = try ItemCondition("result.includes('Chapter 12')")
        #expect(text.test(item(#""Chapter 12 is out""#)) == .holds)
        #expect(text.test(item(#""Chapter 11""#)) == .fails)
        let truthy = try ItemCondition("item.stock !== 'Sold out' && item.tags.length")
        #expect(truthy.test(item(#"{"stock": "3 left", "tags": ["a"]}"#)) == .holds)
        #expect(truthy.test(item(#"{"stock": "3 left", "tags": []}"#)) == .fails, "0 is falsy")
    }

    @Test func aConditionThatThrowsSaysWhyAndTheNextItemIsTested() throws {
        let condition = try ItemCondition("item.price.amount < 3")
        guard case .threw(let message) = condition.test(item(#"{"name": "x"}"#)) else {
            Issue.record("expected a thrown error")
            return
        }
        #expect(message.contains("TypeError") && message.contains("item.price.amount"), "\(message)")
        #expect(condition.test(item(#"{"price": {"amount": 2}}"#)) == .holds)
        guard case .threw(let missing) = try ItemCondition("notThere > 1").test(item("{}")) else {
            Issue.record("a global that is not there throws")
            return
        }
        #expect(missing.contains("ReferenceError"), "\(missing)")
    }

    @Test func aConditionHasNoClockNoPageAndNoNetwork() throws {
        for expression in ["Date.now() > 0", "new Date() > 0", "Date().length > 0"] {
            guard case .threw(let message) = try ItemCondition(expression).test(item("{}")) else {
                Issue.record("\(expression) reads the clock")
                continue
            }
            #expect(message.contains("no clock"), "\(expression): \(message)")
        }
        #expect(try ItemCondition("new Date(item.date) < new Date('2026-01-01')").test(item(#"{"date": "2025-05-01"}"#)) == .holds)
        #expect(try ItemCondition("Date.parse(item.date) > 0 && new Date(item.date) instanceof Date").test(item(#"{"date": "2025-05-01"}"#)) == .holds)
        let world = try ItemCondition(
            "[typeof document, typeof window, typeof fetch, typeof XMLHttpRequest, typeof setTimeout, typeof performance].every(t => t === 'undefined')")
        #expect(world.test(item("{}")) == .holds)
        guard case .threw(let promise) = try ItemCondition("(async () => true)()").test(item("{}")) else {
            Issue.record("a Promise is not an answer")
            return
        }
        #expect(promise.contains("Promise"), "\(promise)")
    }

    @Test func aConditionThatLoopsOrAllocatesWithoutEndIsStoppedAndTheNextItemIsTested() throws {
        let condition = try ItemCondition(
            "item.loop ? (() => { for (;;); })() : item.grow ? (() => { const a = []; for (;;) a.push({n: a.length}); })() : true")
        guard case .stopped(let time) = condition.test(item(#"{"loop": true}"#)) else {
            Issue.record("an endless loop is stopped")
            return
        }
        #expect(time.contains("longer than 1 s"), "\(time)")
        #expect(condition.test(item("{}")) == .holds, "a fresh context tests the next item")
        guard case .stopped(let memory) = condition.test(item(#"{"grow": true}"#)) else {
            Issue.record("an endless allocation is stopped")
            return
        }
        #expect(memory.contains("MiB") || memory.contains("longer than"), "\(memory)")
        #expect(condition.test(item("{}")) == .holds)
        for huge in ["'x'.repeat(2 ** 30).length > 0", "new Uint8Array(2 ** 32 - 1).fill(1).length > 0", "''.padStart(2 ** 29, 'ab').length > 0"] {
            guard case .threw(let message) = try ItemCondition(huge).test(item("{}")) else {
                Issue.record("\(huge) is refused at once")
                continue
            }
            #expect(message.contains("no value larger than 64 MiB"), "\(huge): \(message)")
        }
        let small = try ItemCondition("'ab'.repeat(3) === 'ababab' && new Uint8Array([1, 2]).length === 2 && new Float64Array(4) instanceof Float64Array")
        #expect(small.test(item("{}")) == .holds)
    }

    @Test func aConditionThatDoesNotCompileIsAProblemWithItsLine() throws {
        #expect(ItemCondition.problem(in: "item.price < 300") == nil)
        #expect(ItemCondition.problem(in: "item.a &&\nitem.b ==\n") != nil)
        let problem = try #require(ItemCondition.problem(in: "item.a &&\nitem.b ==\n@x"))
        #expect(problem.line == 3 && problem.message.contains("Invalid character"), "\(problem)")
        #expect(ItemCondition.problem(in: "  ") != nil)
        #expect(throws: ItemCondition.Invalid.self) { try ItemCondition("item.price <") }
    }

    // MARK: - What --state reports with a condition

    func changes(_ json: String, since previous: StateFile.Job?, when: String? = nil, confirm: Int = 2) throws -> Changes {
        var tracking = Tracking(key: "id")
        tracking.when = when
        tracking.confirm = confirm
        let condition = try when.map { try ItemCondition($0) }
        return try ChangeTracker.changes(in: Data(json.utf8), since: previous, tracking: tracking, condition: condition, at: Date(timeIntervalSince1970: 0))
    }

    func texts(_ items: [Data]) -> [String] { items.map { String(decoding: $0, as: UTF8.self) } }

    @Test func anItemIsReportedWhenItsConditionComesToHoldOnceAndAgainAfterItStopped() throws {
        let when = "item.price < 300"
        let first = try changes(#"[{"id": "a", "price": 350}, {"id": "b", "price": 100}]"#, since: nil, when: when)
        #expect(first.isFirstRun && texts(first.fresh) == [#"{"id": "b", "price": 100}"#], "what --emit-initial reports")
        var state = first.updated
        #expect(state.holding == [#"k:"b""#])
        let unconditioned = try changes(#"[{"id": "a", "price": 350}, {"id": "b", "price": 100}]"#, since: nil).updated
        let learning = try changes(#"[{"id": "a", "price": 350}, {"id": "b", "price": 100}, {"id": "c", "price": 1}]"#, since: unconditioned, when: when)
        #expect(learning.fresh.isEmpty && learning.updated.holding == [#"k:"b""#, #"k:"c""#], "a job that just got its when learns what holds")
        var reported: [String] = []
        for price in [250, 240, 400, 200] {
            let run = try changes(#"[{"id": "a", "price": \#(price)}, {"id": "b", "price": 100}]"#, since: state, when: when)
            reported += texts(run.fresh)
            if price == 240 { #expect(texts(run.changed.map(\.item)) == [#"{"id": "a", "price": 240}"#], "it changed while it held") }
            state = run.updated
        }
        #expect(reported == [#"{"id": "a", "price": 250}"#, #"{"id": "a", "price": 200}"#], "true, still true, false, true again: twice")
        let new = try changes(
            #"[{"id": "a", "price": 200}, {"id": "b", "price": 100}, {"id": "c", "price": 1}, {"id": "d", "price": 900}]"#, since: state, when: when)
        #expect(texts(new.fresh) == [#"{"id": "c", "price": 1}"#], "a new item that holds is reported; one that does not is not")
    }

    @Test func anItemTheConditionCannotBeTestedOnKeepsWhatItHadAndIsNamed() throws {
        let when = "item.price.amount < 300"
        let first = try changes(#"[{"id": "a", "price": {"amount": 100}}]"#, since: nil, when: when)
        let broken = try changes(#"[{"id": "a", "price": null}]"#, since: first.updated, when: when)
        #expect(broken.fresh.isEmpty)
        #expect(broken.conditionFailures.map(\.item) == [#""a""#])
        #expect(broken.updated.holding == [#"k:"a""#], "it still counts as holding: no second report when it reads again")
        let back = try changes(#"[{"id": "a", "price": {"amount": 90}}]"#, since: broken.updated, when: when)
        #expect(back.fresh.isEmpty)
    }

    @Test func aConditionStoppedThreeTimesLeavesTheOtherItemsUntested() throws {
        let items = (1...6).map { #"{"id": \#($0)}"# }.joined(separator: ",")
        let first = try changes("[" + items + "]", since: nil, when: "(() => { for (;;); })()")
        #expect(first.conditionFailures.count == 6)
        #expect(first.conditionFailures.filter { $0.message.contains("longer than") }.count == ChangeTracker.conditionStops)
        #expect(first.conditionFailures.last?.message.contains("not tested") == true)
    }

    @Test func aResultThatIsNotAListIsReportedWhenTheConditionComesToHold() throws {
        var tracking = Tracking()
        tracking.when = "result.includes('Chapter 12')"
        let condition = try ItemCondition("result.includes('Chapter 12')")
        func run(_ text: String, _ previous: StateFile.Job?) throws -> Changes {
            try ChangeTracker.changes(in: Data(text.utf8), since: previous, tracking: tracking, condition: condition, at: Date())
        }
        let first = try run(#""Chapter 11""#, nil)
        let second = try run(#""Chapter 11, soon""#, first.updated)
        #expect(second.fresh.isEmpty, "it changed, but the condition does not hold")
        let third = try run(#""Chapter 12""#, second.updated)
        #expect(texts(third.fresh) == [#""Chapter 12""#])
        let fourth = try run(#""Chapter 12 is out""#, third.updated)
        #expect(fourth.fresh.isEmpty && fourth.changed.count == 1, "a change while it holds is a change, not news")
    }

    // MARK: - Removals

    @Test func anItemMissingOnceAndBackIsNotRemovedAndOneMissingTwiceIs() throws {
        var state = try changes(#"[{"id": "a"}, {"id": "b"}, {"id": "c"}]"#, since: nil).updated
        let halfServed = try changes(#"[{"id": "a"}]"#, since: state)
        #expect(halfServed.removed.isEmpty)
        #expect(halfServed.updated.absent == [#"k:"b""#: 1, #"k:"c""#: 1])
        state = halfServed.updated
        let whole = try changes(#"[{"id": "a"}, {"id": "b"}]"#, since: state)
        #expect(texts(whole.removed) == [#"{"id":"c"}"#], "c was missing twice in a row; b came back")
        #expect(whole.fresh.isEmpty, "b was seen: it is not new")
        #expect(whole.updated.absent == nil)
        let again = try changes(#"[{"id": "a"}, {"id": "b"}]"#, since: whole.updated)
        #expect(again.removed.isEmpty, "a removal is reported once")
    }

    @Test func confirmSaysHowManyRunsARemovalWaits() throws {
        var state = try changes(#"[{"id": "a"}, {"id": "b"}]"#, since: nil, confirm: 3).updated
        var removed: [[String]] = []
        for _ in 1...3 {
            let run = try changes(#"[{"id": "a"}]"#, since: state, confirm: 3)
            removed.append(texts(run.removed))
            state = run.updated
        }
        #expect(removed == [[], [], [#"{"id":"b"}"#]])
        let once = try changes(#"[{"id": "a"}]"#, since: try changes(#"[{"id": "a"}, {"id": "b"}]"#, since: nil, confirm: 1).updated, confirm: 1)
        #expect(texts(once.removed) == [#"{"id":"b"}"#])
    }

    @Test func withAConditionOnlyItemsItHeldForAreRemoved() throws {
        let when = "item.price < 300"
        var state = try changes(#"[{"id": "a", "price": 100}, {"id": "b", "price": 900}]"#, since: nil, when: when).updated
        for _ in 1...2 { state = try changes("[]", since: state, when: when).updated }
        let first = try changes(#"[{"id": "a", "price": 100}, {"id": "b", "price": 900}]"#, since: nil, when: when)
        let gone1 = try changes("[]", since: first.updated, when: when)
        let gone2 = try changes("[]", since: gone1.updated, when: when)
        #expect(texts(gone2.removed) == [#"{"id":"a","price":100}"#], "b never held: its going is not news")
        let back = try changes(#"[{"id": "a", "price": 100}]"#, since: gone2.updated, when: when)
        #expect(texts(back.fresh) == [#"{"id": "a", "price": 100}"#], "removed, then back and holding: reported again")
        #expect(state.holding == [])
    }

    @Test func aListCutShortAtSeenPagesReportsNoRemoval() throws {
        var tracking = Tracking(key: "id")
        tracking.stopsAtSeen = true
        let first = try ChangeTracker.changes(in: Data(#"[{"id": 1}, {"id": 2}]"#.utf8), since: nil, tracking: tracking, at: Date())
        var state = first.updated
        for _ in 1...3 {
            let run = try ChangeTracker.changes(in: Data(#"[{"id": 3}]"#.utf8), since: state, tracking: tracking, at: Date())
            #expect(run.removed.isEmpty)
            state = run.updated
        }
    }

    @Test func aVersion2StateIsReadAndCarriedOn() throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "webparse-v2-\(UUID().uuidString).state")
        defer { try? FileManager.default.removeItem(at: file) }
        try #"""
        {"version": 2, "jobs": {"shop": {"seen": ["k:\"a\"", "k:\"b\""], "contents": {"k:\"a\"": "{\"id\":\"a\"}", "k:\"b\"": "{\"id\":\"b\"}"},
          "lastResult": "x", "lastSuccess": "2026-11-01T00:00:00Z", "consecutiveFailures": 2}}}
        """#.write(to: file, atomically: true, encoding: .utf8)
        let state = try StateFile.load(path: file.path).state
        let job = try #require(state.jobs["shop"])
        #expect(job.consecutiveFailures == 2 && job.listed == nil && job.holding == nil && job.failing == nil)
        let run = try changes(#"[{"id": "a"}, {"id": "c"}]"#, since: job)
        #expect(texts(run.fresh) == [#"{"id": "c"}"#])
        #expect(run.removed.isEmpty && run.updated.absent == nil, "the old file did not say what it listed: nothing is missing yet")
        #expect(run.updated.listed == 2 && run.updated.consecutiveFailures == 0)
        #expect(String(decoding: state.encoded(), as: UTF8.self).contains(#""version" : 3"#))
    }

    @Test func aHandEditedListedOrAbsentOutOfRangeIsRefusedNamingTheField() throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "webparse-edited-\(UUID().uuidString).state")
        defer { try? FileManager.default.removeItem(at: file) }
        for (field, text) in [("listed", #""listed": -5"#), ("listed", #""listed": 3"#), ("absent", #""absent": {"k:1": 0}"#)] {
            try #"{"version": 3, "jobs": {"shop": {"seen": ["k:1", "k:2"], "consecutiveFailures": 0, \#(text)}}}"#.write(
                to: file, atomically: true, encoding: .utf8)
            do {
                _ = try StateFile.load(path: file.path)
                Issue.record("\(text) was read")
            } catch {
                #expect(error.reason.hasPrefix("jobs.shop.\(field)"), "\(error)")
            }
        }
    }
}
