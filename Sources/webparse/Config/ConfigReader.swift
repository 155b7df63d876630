import Foundation
import WebParser

/// Turns a parsed config into jobs, collecting every problem on the way.
///
/// A config is one job (`{"url": …, "script": …}`) or `{"defaults": {…}, "jobs": [{…}, …]}`, where every
/// job field but `name` can be given in `defaults` and overridden by a job. `"$schema"` may name the JSON
/// Schema for editors.
struct ConfigReader {
    /// A job field as given: its key, its value, and the path that names it in messages.
    struct Member {
        var key: String
        var node: JSONNode
        var path: String
    }

    private(set) var fields: FieldReader
    var problems: [ConfigError.Problem] { fields.problems }

    init(directory: URL) {
        fields = FieldReader(directory: directory)
    }

    mutating func config(from root: JSONNode) -> Config? {
        guard case .object(let members) = root.value else {
            fields.problem("", at: root, "expected a JSON object (one job, or {\"jobs\": […]}), got \(root.kindDescription)")
            return nil
        }
        guard let jobsNode = members.first(where: { $0.key == "jobs" })?.value else {
            let jobMembers = members.filter { $0.key != "$schema" }
            for (key, node) in jobMembers where key == "defaults" {
                fields.problem(key, at: node, "\"defaults\" goes with a \"jobs\" list")
            }
            let job = self.job(from: jobMembers.filter { $0.key != "defaults" }.map { Member(key: $0.key, node: $0.value, path: $0.key) },
                               at: root, path: "")
            return job.map { Config(jobs: uniquelyNamed([$0]), isSingleJob: true) }
        }
        for (key, node) in members where !["jobs", "defaults", "$schema"].contains(key) {
            fields.problem(key, at: node, "unknown key" + Self.suggestion(for: key, among: ["jobs", "defaults", "$schema"]))
        }
        let defaults = self.defaults(members.first { $0.key == "defaults" }?.value)
        guard case .array(let elements) = jobsNode.value, !elements.isEmpty else {
            fields.problem("jobs", at: jobsNode, "expected a non-empty array of jobs, got \(jobsNode.excerpt)")
            return nil
        }
        var jobs: [Config.NamedJob] = []
        for (index, node) in elements.enumerated() {
            let path = "jobs[\(index)]"
            guard case .object(let own) = node.value else {
                fields.problem(path, at: node, "expected a job object, got \(node.kindDescription)")
                continue
            }
            let ownMembers = own.map { Member(key: $0.key, node: $0.value, path: path + "." + $0.key) }
            let replaced = Self.scriptKeys.contains { key in own.contains { $0.key == key } }
            let inherited = defaults.filter { member in
                !own.contains { $0.key == member.key } && !(replaced && Self.scriptKeys.contains(member.key))
            }
            if let job = job(from: inherited + ownMembers, at: node, path: path) { jobs.append(job) }
        }
        checkUniqueNames(elements)
        guard jobs.count == elements.count else { return nil }
        return Config(jobs: uniquelyNamed(jobs), isSingleJob: false)
    }

    /// Reads one job from `members`; `node` is where missing fields are reported, `path` names the job.
    mutating func job(from members: [Member], at node: JSONNode, path: String) -> Config.NamedJob? {
        var draft = JobDraft()
        let keys = JobFields.all.map(\.key)
        for member in members {
            guard let field = JobFields.field(member.key) else {
                fields.problem(member.path, at: member.node, "unknown key" + Self.suggestion(for: member.key, among: keys))
                continue
            }
            field.read(&fields, member.path, member.node, &draft)
        }
        let given = Set(members.map(\.key))
        let prefix = path.isEmpty ? "" : path + "."
        if !given.contains("url") { fields.problem(prefix + "url", at: node, "required; the page to load") }
        if given.isDisjoint(with: Self.scriptKeys) {
            fields.problem(prefix + "script", at: node, "required (or scriptFile); the JavaScript that returns the data")
        } else if given.isSuperset(of: Self.scriptKeys) {
            let member = members.last { $0.key == "scriptFile" }!
            fields.problem(member.path, at: member.node, "give script or scriptFile, not both")
        }
        guard let url = draft.url, let script = draft.script else { return nil }
        draft.job.url = url
        draft.job.script = script
        return Config.NamedJob(name: draft.name ?? "", job: draft.job)
    }

    private static let scriptKeys: Set<String> = ["script", "scriptFile"]

    /// The `defaults` members, each checked once.
    private mutating func defaults(_ node: JSONNode?) -> [Member] {
        guard let node else { return [] }
        guard case .object(let members) = node.value else {
            fields.problem("defaults", at: node, "expected an object of job fields, got \(node.excerpt)")
            return []
        }
        var defaults: [Member] = []
        var draft = JobDraft()
        let keys = JobFields.all.map(\.key).filter { $0 != "name" }
        for (key, value) in members {
            let path = "defaults." + key
            guard key != "name" else {
                fields.problem(path, at: value, "job names must be unique; give each job its own")
                continue
            }
            guard let field = JobFields.field(key) else {
                fields.problem(path, at: value, "unknown key" + Self.suggestion(for: key, among: keys))
                continue
            }
            field.read(&fields, path, value, &draft)
            defaults.append(Member(key: key, node: value, path: path))
        }
        return defaults
    }

    private mutating func checkUniqueNames(_ elements: [JSONNode]) {
        var seen: [String: Int] = [:]
        for (index, node) in elements.enumerated() {
            guard case .object(let members) = node.value, let name = members.first(where: { $0.key == "name" })?.value,
                  case .string(let text) = name.value else { continue }
            if let first = seen[text] {
                fields.problem("jobs[\(index)].name", at: name, "duplicate job name \"\(text)\" (also jobs[\(first)])")
            } else {
                seen[text] = index
            }
        }
    }

    /// Gives unnamed jobs distinct names derived from their URLs: `example.com`, `example.com-2`…
    private func uniquelyNamed(_ jobs: [Config.NamedJob]) -> [Config.NamedJob] {
        var taken = Set(jobs.map(\.name).filter { !$0.isEmpty })
        return jobs.map { named in
            guard named.name.isEmpty else { return named }
            let base = named.job.url.isFileURL ? named.job.url.deletingPathExtension().lastPathComponent
                : (named.job.url.host() ?? "job")
            var name = base
            var counter = 2
            while taken.contains(name) {
                name = "\(base)-\(counter)"
                counter += 1
            }
            taken.insert(name)
            return Config.NamedJob(name: name, job: named.job)
        }
    }

    /// "; did you mean …?" for a near miss, or the list of what may be there.
    static func suggestion(for key: String, among keys: [String]) -> String {
        let best = keys.min { editDistance(key.lowercased(), $0.lowercased()) < editDistance(key.lowercased(), $1.lowercased()) }
        guard let best, editDistance(key.lowercased(), best.lowercased()) <= max(2, key.count / 3) else {
            return "; expected one of " + keys.joined(separator: ", ")
        }
        return "; did you mean \"\(best)\"?"
    }

    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
