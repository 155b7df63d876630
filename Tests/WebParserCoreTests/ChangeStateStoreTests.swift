import Foundation
import Testing
import WebParser
@testable import WebParserCore

/// What a result changes is decided once (`ChangeStateStore.track`), whichever store keeps the state: a store whose
/// state another writer replaced meanwhile is read again, and the result tracked against what that writer left.
@Suite struct ChangeStateStoreTests {
    /// A store in memory that another writer beats `races` times: each of those replacements finds `other` written
    /// in between.
    struct RacedStore: ChangeStateStore {
        typealias Failure = Never
        var jobs: [String: StateFile.Job] = [:]
        let other: StateFile.Job
        var races: Int
        var reads = 0

        mutating func state(of key: String) -> StateFile.Job? {
            reads += 1
            return jobs[key]
        }

        mutating func replace(_ key: String, with changes: Changes) -> Bool {
            guard races == 0 else {
                races -= 1
                jobs[key] = other
                return false
            }
            jobs[key] = changes.updated
            return true
        }
    }

    @Test func aStateReplacedMeanwhileIsReadAgainAndTheResultTrackedAgainstIt() async throws {
        let other = try ChangeTracker.changes(in: Data(#"["a"]"#.utf8), since: nil, tracking: Tracking(), at: Date()).updated
        var store = RacedStore(other: other, races: 1)
        let changes = try await store.track(Data(#"["a", "b"]"#.utf8), of: "list", tracking: Tracking(), at: Date())
        #expect(store.reads == 2, "read again after the other writer")
        #expect(!changes.isFirstRun, "tracked against what the other writer left, not against nothing")
        #expect(changes.fresh.map { String(decoding: $0, as: UTF8.self) } == [#""b""#])
        #expect(store.jobs["list"]?.seen.count == 2)
    }

    @Test func aResultThatCannotBeTrackedLeavesTheStateAsItWas() async throws {
        var tracking = Tracking()
        tracking.when = "price <"
        var store = RacedStore(other: StateFile.Job(), races: 0)
        do {
            _ = try await store.track(Data(#"[{"price": 1}]"#.utf8), of: "list", tracking: tracking, at: Date())
            Issue.record("a `when` that is not valid fails the job")
        } catch {
            guard case .untrackable(.invalidJob(let message)) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(message.hasPrefix("when: "), "\(message)")
        }
        #expect(store.jobs.isEmpty)
    }
}
