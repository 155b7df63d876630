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
}

/// How `--state` decides what is new in a job's result: items identified by their key or their whole content
/// in canonical JSON, compared with the identities a job's state remembers.
public enum ChangeTracker {
    /// How results are read: deep (no page nests data this far; the limit keeps the recursive reading within
    /// a thread's stack), any JSON text `JSON.stringify` writes, an escaped lone surrogate identified by a
    /// private-use character of its own.
    static let rules = JSONNode.Rules(maximumDepth: 50_000, replacesLoneSurrogates: true, allowsDuplicateKeys: true)

    /// Compares `result` (JSON text) with `previous` and says what is new.
    /// - Throws: `JSONSyntaxError` when `result` breaks `rules` (nests deeper), or is not JSON (which webparse
    ///   never gives).
    public static func changes(in result: Data, since previous: StateFile.Job?, tracking: Tracking, at time: Date) throws(JSONSyntaxError)
        -> Changes
    {
        let bytes = Array(result)
        let root = try JSONNode.parse(bytes, rules: rules)
        let isFirstRun = previous?.lastResult == nil
        var updated = previous ?? StateFile.Job()
        updated.lastResult = SHA256.hex(CanonicalJSON.text(root).utf8)
        updated.lastSuccess = time.formatted(.iso8601)
        updated.consecutiveFailures = 0
        guard case .array(let items) = root.value else {
            let changed = previous?.lastResult != updated.lastResult
            let now = CanonicalJSON.text(root)
            // Kept to show how the value changes, unless it is too large to keep in the state.
            updated.lastValue = now.utf8.count <= 1 << 20 ? now : nil
            updated.contents = nil
            var changes = Changes(fresh: changed ? [result] : [], isList: false, isFirstRun: isFirstRun, updated: updated, itemsWithoutKey: 0)
            if changed, let before = previous?.lastValue { changes.changedValue = (before, now) }
            return changes
        }
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
            if !seen.contains(identity) { fresh.append(Data(bytes[item.span])) }
            guard keyed else { continue }
            let content = CanonicalJSON.text(item)
            if seen.contains(identity), let before = contents[identity], before != content {
                changed.append((Data(bytes[item.span]), Data(before.utf8)))
            }
            contents[identity] = content
        }
        let kept = (previous?.seen ?? []).filter { !currentSet.contains($0) } + current
        updated.seen = Array(kept.suffix(tracking.remember))
        let remembered = Set(updated.seen)
        contents = contents.filter { remembered.contains($0.key) }
        updated.contents = contents.isEmpty ? nil : contents
        updated.lastValue = nil
        var changes = Changes(fresh: fresh, isList: true, isFirstRun: isFirstRun, updated: updated, itemsWithoutKey: withoutKey)
        changes.changed = changed
        return changes
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
