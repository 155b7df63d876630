import FoundationEssentials
import WebParser

/// What a successful result holds that the state did not: the new items of an array result, or a changed
/// non-array result.
public struct Changes: Sendable {
    /// The new items, or the changed value, as the page wrote them.
    public var fresh: [Data]
    /// False when the result is not an array: `fresh` is then the whole value, if it changed.
    public var isList: Bool
    /// True when the state held no successful result of the job yet.
    public var isFirstRun: Bool
    /// The job's state after this result.
    public var updated: StateFile.Job
    /// Items that lack the tracking key (identified by all of their content instead).
    public var itemsWithoutKey: Int
    /// Items seen before, by their key, whose content changed: as the page wrote them now, and before (as
    /// canonical JSON).
    public var changed: [(item: Data, before: Data)] = []
    /// A result that is not a list, as canonical JSON, before and now, when it changed and the state knew it.
    public var changedValue: (before: String, now: String)?
    /// Items earlier results listed that the last `confirm` results lacked, as canonical JSON.
    public var removed: [Data] = []
    /// The items the job's `when` could not be tested on: each item's key (or the start of its JSON) and why.
    public var conditionFailures: [(item: String, message: String)] = []

    /// The condition's failures in words, a line per reason naming its items (the first five): "when: REASON, for
    /// the item "a"; it is not reported".
    public var conditionNotes: [String] {
        var reasons: [String] = []
        var items: [String: [String]] = [:]
        for failure in conditionFailures {
            if items[failure.message] == nil { reasons.append(failure.message) }
            items[failure.message, default: []].append(failure.item)
        }
        return reasons.map { reason in
            let named = items[reason] ?? []
            let shown = named.prefix(5).joined(separator: ", ") + (named.count > 5 ? " and \(named.count - 5) more" : "")
            return "when: \(reason), for \(named.count == 1 ? "the item" : "\(named.count) items") \(shown); "
                + "\(named.count == 1 ? "it is" : "they are") not reported"
        }
    }
}

/// How `--state` decides what is new in a job's result: items identified by their key or their whole content
/// in canonical JSON, compared with the identities a job's state remembers.
public enum ChangeTracker {
    /// How results are read: deep (no page nests data this far; the limit keeps the recursive reading within
    /// a thread's stack), any JSON text `JSON.stringify` writes, an escaped lone surrogate identified by a
    /// private-use character of its own.
    static let rules = JSONNode.Rules(maximumDepth: 50_000, replacesLoneSurrogates: true, allowsDuplicateKeys: true)

    /// How many tests of a job's `when` may be stopped (past its time or memory) before the job's other items are
    /// left untested: a condition that loops on every item costs a few seconds, not one per item.
    static let conditionStops = 3

    /// Compares `result` (JSON text) with `previous` and says what is new; with `condition` (the job's `when`), only
    /// items it holds for are reported, when it comes to hold for them.
    /// - Throws: `JSONSyntaxError` when `result` breaks `rules` (nests deeper), or is not JSON (which webparse
    ///   never gives).
    public static func changes(
        in result: Data, since previous: StateFile.Job?, tracking: Tracking, condition: ItemCondition? = nil, at time: Date
    ) throws(JSONSyntaxError) -> Changes {
        let bytes = Array(result)
        let root = try JSONNode.parse(bytes, rules: rules)
        let isFirstRun = previous?.lastResult == nil
        var updated = previous ?? StateFile.Job()
        updated.lastResult = SHA256.hex(CanonicalJSON.text(root).utf8)
        updated.lastSuccess = time.formatted(.iso8601)
        updated.consecutiveFailures = 0
        updated.failing = nil
        // At the job's first run every item that holds comes to hold (reported with --emit-initial); a job that had no
        // condition at its last run learns what holds, and reports nothing.
        var tester = ConditionTester(condition: condition, before: previous?.holding ?? (isFirstRun ? [] : nil))
        var changes: Changes
        if case .array(let items) = root.value {
            changes = listChanges(items, bytes: bytes, since: previous, tracking: tracking, tester: &tester, into: &updated)
        } else {
            changes = valueChanges(root, result: result, since: previous, tester: &tester, into: &updated)
        }
        changes.isFirstRun = isFirstRun
        changes.conditionFailures = tester.failures
        updated.holding = tester.condition == nil ? nil : tester.holding.sorted()
        if !isFirstRun && (!changes.fresh.isEmpty || !changes.changed.isEmpty || !changes.removed.isEmpty || changes.changedValue != nil) {
            updated.lastChange = time.formatted(.iso8601)
        }
        changes.updated = updated
        return changes
    }

    /// What changed in a result that is not a list: the whole value, when it changed (with a condition: when the
    /// condition came to hold, or changed while it held).
    private static func valueChanges(
        _ root: JSONNode, result: Data, since previous: StateFile.Job?, tester: inout ConditionTester, into updated: inout StateFile.Job
    ) -> Changes {
        let changed = previous?.lastResult != updated.lastResult
        let now = CanonicalJSON.text(root)
        // Kept to show how the value changes, unless it is too large to keep in the state.
        updated.lastValue = now.utf8.count <= 1 << 20 ? now : nil
        updated.contents = nil
        updated.listed = nil
        updated.absent = nil
        var changes = Changes(fresh: [], isList: false, isFirstRun: false, updated: updated, itemsWithoutKey: 0)
        switch tester.test(result, identity: valueIdentity, label: "the result") {
        case nil:
            if changed { changes.fresh = [result] }
            if changed, let before = previous?.lastValue { changes.changedValue = (before, now) }
        case .entered?:
            changes.fresh = [result]
        case .held?:
            if changed, let before = previous?.lastValue { changes.changed = [(result, Data(before.utf8))] }
        case .out?:
            break
        }
        return changes
    }

    /// What changed in a list: its new items, those whose content changed, those it lost (after `tracking.confirm`
    /// runs without them); with a condition, those for which it came to hold, changed while it held, or lost while it
    /// held.
    private static func listChanges(
        _ items: [JSONNode], bytes: [UInt8], since previous: StateFile.Job?, tracking: Tracking, tester: inout ConditionTester,
        into updated: inout StateFile.Job
    ) -> Changes {
        let seen = Set(previous?.seen ?? [])
        var current: [String] = []
        var currentSet = Set<String>()
        var fresh: [Data] = []
        var changed: [(item: Data, before: Data)] = []
        var contents = previous?.contents ?? [:]
        var withoutKey = 0
        for item in items {
            let (identity, keyed) = self.identity(of: item, key: tracking.key)
            if tracking.key != nil && !keyed { withoutKey += 1 }
            guard currentSet.insert(identity).inserted else { continue }
            current.append(identity)
            let text = Data(bytes[item.span])
            let content = CanonicalJSON.text(item)
            let before = contents[identity]
            contents[identity] = content
            let changedBefore = seen.contains(identity) && keyed ? before.flatMap { $0 == content ? nil : Data($0.utf8) } : nil
            switch tester.test(text, identity: identity, label: label(of: item, key: tracking.key, keyed: keyed)) {
            case nil:
                if !seen.contains(identity) { fresh.append(text) }
                if let changedBefore { changed.append((text, changedBefore)) }
            case .entered?:
                fresh.append(text)
            case .held?:
                if let changedBefore { changed.append((text, changedBefore)) }
            case .out?:
                break
            }
        }
        // The items the last results listed that this one lacks: removed once they are missed `confirm` runs in a row.
        // A list cut short on purpose (at seen pages) tells nothing of what it lacks.
        var absent: [String: Int] = [:]
        var removed: [Data] = []
        if !tracking.stopsAtSeen, let previous {
            let listed = previous.seen.suffix(max(0, min(previous.listed ?? 0, previous.seen.count)))
            let missing = (Array(listed) + (previous.absent ?? [:]).keys.sorted()).filter { !currentSet.contains($0) }
            var counted = Set<String>()
            for identity in missing where counted.insert(identity).inserted && tester.misses(identity) {
                let runs = (previous.absent?[identity] ?? 0) + 1
                if runs >= tracking.confirm {
                    if let content = contents[identity] { removed.append(Data(content.utf8)) }
                    tester.forget(identity)
                } else {
                    absent[identity] = runs
                }
            }
        }
        let kept = (previous?.seen ?? []).filter { !currentSet.contains($0) } + current
        updated.seen = Array(kept.suffix(tracking.remember))
        let remembered = Set(updated.seen)
        contents = contents.filter { remembered.contains($0.key) }
        updated.contents = contents.isEmpty ? nil : contents
        updated.lastValue = nil
        updated.listed = min(current.count, updated.seen.count)
        absent = absent.filter { remembered.contains($0.key) }
        updated.absent = absent.isEmpty ? nil : absent
        var changes = Changes(fresh: fresh, isList: true, isFirstRun: false, updated: updated, itemsWithoutKey: withoutKey)
        changes.changed = changed
        changes.removed = removed
        return changes
    }

    /// The identity of a result that is not a list, in `holding`.
    static let valueIdentity = "result"

    /// How an item is named when its condition fails: its key, or the start of its JSON.
    private static func label(of item: JSONNode, key: String?, keyed: Bool) -> String {
        if keyed, let key, let value = lookUp(key, in: item) { return CanonicalJSON.text(value) }
        let text = CanonicalJSON.text(item)
        return text.count <= 60 ? text : text.prefix(57) + "…"
    }

    /// Whether `result` is a list whose every item `previous` has seen: a page of an update check that brings
    /// nothing new. False for an empty list, another result, or one nested deeper than a config may be.
    public static func allSeen(in result: Data, by previous: StateFile.Job?, tracking: Tracking) -> Bool {
        let rules = JSONNode.Rules(maximumDepth: JSONNode.Rules.config.maximumDepth, replacesLoneSurrogates: true, allowsDuplicateKeys: true)
        guard let seen = previous?.seen, let root = try? JSONNode.parse(Array(result), rules: rules),
            case .array(let items) = root.value, !items.isEmpty
        else { return false }
        let known = Set(seen)
        return items.allSatisfy { known.contains(identity(of: $0, key: tracking.key).0) }
    }

    /// How a result that is not a list changed: a unified diff of its canonical JSON, one value per line.
    public static func diff(_ value: (before: String, now: String)) -> String {
        guard let before = try? JSONNode.parse(Array(value.before.utf8), rules: rules),
            let now = try? JSONNode.parse(Array(value.now.utf8), rules: rules)
        else { return "" }
        return UnifiedDiff.make(CanonicalJSON.lines(before).map { $0[...] }, CanonicalJSON.lines(now).map { $0[...] })
    }

    /// The identity of an item whose key is the text `key` (a crawl's page by its URL): `k:` and its canonical JSON.
    package static func identity(ofKey key: String) -> String {
        "k:" + CanonicalJSON.text(JSONNode(value: .string(key), line: 0, column: 0))
    }

    /// `k:` and the key's canonical JSON, or `h:` and the SHA-256 of the whole item; and whether the key was
    /// found.
    static func identity(of item: JSONNode, key: String?) -> (String, Bool) {
        if let key, let value = lookUp(key, in: item) {
            return ("k:" + CanonicalJSON.text(value), true)
        }
        return ("h:" + SHA256.hex(CanonicalJSON.text(item).utf8), false)
    }

    /// The value at a dot-separated path of object keys.
    private static func lookUp(_ path: String, in node: JSONNode) -> JSONNode? {
        var current = node
        for component in path.split(separator: ".", omittingEmptySubsequences: false) {
            guard case .object(let members) = current.value, let next = members.first(where: { $0.key == component })?.value else {
                return nil
            }
            current = next
        }
        if case .null = current.value { return nil }
        return current
    }
}
