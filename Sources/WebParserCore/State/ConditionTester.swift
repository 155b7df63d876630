import FoundationEssentials
import WebParser

/// A job's `when` over one result, against the state: which items it holds for now, and whether it came to hold for
/// each (reported) or already held at the last run (not reported again). An item it cannot be tested on keeps what
/// it had: neither reported nor forgotten.
struct ConditionTester {
    /// Where an item stands, by its condition, against the last run.
    enum Outcome {
        /// The condition holds and did not at the last run (or the item is new): the item is reported.
        case entered
        /// The condition holds and held at the last run.
        case held
        /// The condition does not hold (or could not be tested, or this is its first run, which reports nothing).
        case out
    }

    /// The job's condition; nil when it has none, and every item counts.
    let condition: ItemCondition?
    /// The items it held for at the last run; nil at its first.
    private let before: Set<String>?
    /// The items it holds for now.
    private(set) var holding = Set<String>()
    /// The items it could not be tested on, and why.
    private(set) var failures: [(item: String, message: String)] = []
    /// How many tests were stopped past their time or memory.
    private var stops = 0

    /// A tester of `condition`, which held for `before` at the last run (nil: it did not run then).
    init(condition: ItemCondition?, before: [String]?) {
        self.condition = condition
        self.before = before.map(Set.init)
    }

    /// Tests the item `json`, known by `identity` and named `label` when it fails; nil when there is no condition.
    /// Once `ChangeTracker.conditionStops` tests were stopped, the others are not made.
    mutating func test(_ json: Data, identity: String, label: String) -> Outcome? {
        guard let condition else { return nil }
        let verdict =
            stops >= ChangeTracker.conditionStops
            ? .threw("not tested: the condition was stopped for \(stops) items") : condition.test(json)
        switch verdict {
        case .holds:
            holding.insert(identity)
            guard let before else { return .out }
            return before.contains(identity) ? .held : .entered
        case .fails:
            return .out
        case .threw(let message):
            failures.append((label, message))
        case .stopped(let message):
            stops += 1
            failures.append((label, message))
        }
        if before?.contains(identity) == true { holding.insert(identity) }
        return .out
    }

    /// Whether the removal of `identity`, an item the result lacks, counts: any item's without a condition; with one,
    /// an item it held for, taken to hold still until its removal is confirmed.
    mutating func misses(_ identity: String) -> Bool {
        guard condition != nil else { return true }
        guard before?.contains(identity) == true else { return false }
        holding.insert(identity)
        return true
    }

    /// Forgets `identity`, an item whose removal is confirmed.
    mutating func forget(_ identity: String) {
        holding.remove(identity)
    }
}
