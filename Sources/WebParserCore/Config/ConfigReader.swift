import FoundationEssentials
import WebParser

/// Turns a parsed config into jobs, collecting every problem on the way.
///
/// A config is one job (`{"url": …, "script": …}`) or `{"defaults": {…}, "jobs": [{…}, …]}`, where every
/// job field but `name` can be given in `defaults` and overridden by a job. `"$schema"` may name the JSON
/// Schema for editors.
package struct ConfigReader {
    /// A job field as given: its key, its value (a config's node or an option's values), and the path that
    /// names it in messages.
    package struct Member {
        var key: String
        var input: FieldInput
        var path: String

        package init(key: String, input: FieldInput, path: String) {
            self.key = key
            self.input = input
            self.path = path
        }
    }

    var fields: FieldReader
    package var problems: [ConfigError.Problem] { fields.problems }

    /// A reader of configs whose paths are relative to `directory` and whose variables are looked up in
    /// `environment`; with `defersUnsetVariables`, a job keeps its references to variables that are not set
    /// (`Config.NamedJob.unsetVariables`) instead of making the config invalid.
    package init(directory: URL, environment: [String: String] = ProcessInfo.processInfo.environment, defersUnsetVariables: Bool = false) {
        fields = FieldReader(directory: directory, environment: environment, defersUnsetVariables: defersUnsetVariables)
    }

    /// The fields `defaults` gives every job: read once, and which keys it set.
    /// Also what a command line's job-field options give (`eval --timeout 5`), read as each option is parsed.
    package struct Defaults: Sendable {
        var draft = JobDraft()
        var keys: Set<String> = []
        /// The values given so far to each option that collects several (`--header`, `--step`).
        private var optionValues: [String: [String]] = [:]
        /// The problems of the options read, each named by its option, so that all are told at once.
        package private(set) var problems: [ConfigError.Problem] = []

        /// No field given.
        package init() {}

        init(keys: Set<String>) {
            self.keys = keys
        }

        /// Whether `key`'s field was given.
        package func gives(_ key: String) -> Bool { keys.contains(key) }

        /// Whether the fields given ask for something other than a script's result (the values user scripts
        /// emit, the captured responses): the job then needs no script.
        package var collectsWithoutScript: Bool { draft.job.evaluation.collect != .result }

        /// Reads one use of `field`'s option, with `value` ("" for a flag), into the fields given, with the
        /// field's own reader; paths are relative to `directory`. What is wrong with it joins `problems`.
        package mutating func read(option field: JobField, _ value: String, directory: URL) {
            guard let option = field.option else { return }
            let values = option.adding(value, to: optionValues[field.key, default: []])
            optionValues[field.key] = values
            keys.insert(field.key)
            let found = field.readOption(values, into: &draft, directory: directory)
            problems.removeAll { $0.path == "--" + option.name }
            problems += found
        }
    }

    mutating func config(from root: JSONNode) -> Config? {
        guard case .object(let members) = root.value else {
            fields.problem("", at: .node(root), "expected a JSON object (one job, or {\"jobs\": […]}), got \(root.kindDescription)")
            return nil
        }
        for (key, node) in members where key == "$schema" {
            if case .string = node.value { continue }
            fields.problem(key, at: .node(node), "expected the schema's path or URL as a string, got \(node.excerpt)")
        }
        // Settings of the run and its session sit at the top level of either form.
        var run = RunSettings()
        var session = SessionSettings()
        for (key, node) in members {
            RunFields.all.first { $0.key == key }?.read(&fields, key, .node(node), &run)
            SessionFields.all.first { $0.key == key }?.read(&fields, key, .node(node), &session)
        }
        let runKeys = RunFields.all.map(\.key) + SessionFields.all.map(\.key)
        guard let jobsNode = members.first(where: { $0.key == "jobs" })?.value else {
            for (key, node) in members where key == "defaults" {
                fields.problem(key, at: .node(node), "\"defaults\" goes with a \"jobs\" list")
            }
            let jobMembers = members.filter { !["$schema", "defaults"].contains($0.key) && !runKeys.contains($0.key) }
            for (key, node) in members where key == "after" {
                fields.problem(key, at: .node(node), "goes with a \"jobs\" list: the jobs to run first")
            }
            let jobs = self.jobs(from: jobMembers.map { Member(key: $0.key, input: .node($0.value), path: $0.key) }, at: .node(root), path: "")
            return jobs.map { Config(jobs: uniquelyNamed($0), isSingleJob: $0.count == 1, run: run, session: session) }
        }
        let topKeys = ["jobs", "defaults", "$schema"] + runKeys
        for (key, node) in members where !topKeys.contains(key) {
            fields.problem(key, at: .node(node), "unknown key" + Self.suggestion(for: key, among: topKeys))
        }
        let defaults = self.defaults(members.first { $0.key == "defaults" }?.value)
        guard case .array(let elements) = jobsNode.value, !elements.isEmpty else {
            fields.problem("jobs", at: .node(jobsNode), "expected a non-empty array of jobs, got \(jobsNode.excerpt)")
            return nil
        }
        var jobs: [Config.NamedJob] = []
        /// The index in `jobs` of each job's element, for messages.
        var elementOf: [Int] = []
        var failed = 0
        for (index, node) in elements.enumerated() {
            let path = "jobs[\(index)]"
            guard case .object(let own) = node.value else {
                fields.problem(path, at: .node(node), "expected a job object, got \(node.kindDescription)")
                failed += 1
                continue
            }
            let members = own.map { Member(key: $0.key, input: .node($0.value), path: path + "." + $0.key) }
            if let expanded = self.jobs(from: members, defaults: defaults, at: .node(node), path: path) {
                jobs += expanded
                elementOf += expanded.map { _ in index }
            } else {
                failed += 1
            }
        }
        checkUniqueNames(elements)
        guard failed == 0 else { return nil }
        let named = uniquelyNamed(jobs)
        var names = Set<String>()
        for job in named where !names.insert(job.name).inserted && problems.isEmpty {
            fields.problem("jobs", at: .node(jobsNode), "two jobs are named \"\(job.name)\" (a job of several pages is named NAME-1, NAME-2…)")
        }
        checkOrder(named, elements: elements, elementOf: elementOf)
        return Config(jobs: named, isSingleJob: false, run: run, session: session)
    }

    /// Reads one job from `members` on top of `defaults`; `place` is where missing fields are reported, `path`
    /// names the job. A job's own `script` or `scriptFile` replaces either from `defaults`. A job of several
    /// pages (`urls`, a range in `url`) becomes one job per page, named after it with `-1`, `-2`…
    package mutating func jobs(from members: [Member], defaults: Defaults = Defaults(), at place: FieldInput, path: String)
        -> [Config.NamedJob]?
    {
        var draft = defaults.draft
        read(members, into: &draft, keys: JobFields.all.map(\.key))
        let own = Set(members.map(\.key))
        let prefix = path.isEmpty ? "" : path + "."
        let given = own.union(defaults.keys)
        if given.isDisjoint(with: ["url", "urls"]) { fields.problem(prefix + "url", at: place, "required; the page to load") }
        if own.isSuperset(of: ["url", "urls"]) { fields.problem(prefix + "urls", at: place, "give url or urls, not both") }
        let collectsEmitted = draft.job.evaluation.collect == .emitted
        let collectsResponses = draft.job.evaluation.collect == .responses
        let extracts = given.contains("extract")
        if extracts && !given.isDisjoint(with: Self.scriptKeys) {
            let key = own.contains("extract") ? "extract" : own.intersection(Self.scriptKeys).first ?? "extract"
            fields.problem(prefix + key, at: place, "give script (or scriptFile) or extract, not both")
        }
        if own.union(defaults.keys).isDisjoint(with: Self.scriptKeys) && !collectsEmitted && !collectsResponses && !extracts {
            fields.problem(prefix + "script", at: place, "required (or scriptFile); the JavaScript that returns the data")
        }
        if draft.job.collectsWithoutEmitters && !own.union(defaults.keys).contains("userScripts") {
            fields.problem(prefix + "collect", at: place, "\"emitted\" needs userScripts that call webparse.emit")
        }
        if draft.job.capture?.rules.isEmpty ?? (collectsResponses && !given.contains("capture")) {
            let key = collectsResponses ? "collect" : "captureLimits"
            let reason = collectsResponses ? "\"responses\" needs capture (the responses to record)" : "goes with capture"
            fields.problem(prefix + key, at: place, reason)
        }
        if draft.next == nil {
            for key in ["maxPages", "stopAtSeen"] where own.union(defaults.keys).contains(key) && !own.union(defaults.keys).contains("next") {
                fields.problem(prefix + key, at: place, "goes with next (the next page's link or button)")
            }
        } else if collectsEmitted || collectsResponses {
            let collect = collectsEmitted ? "emitted" : "responses"
            fields.problem(prefix + "next", at: place, "goes with the script's result, not with \"collect\": \"\(collect)\"")
        }
        draft.job.evaluation.pagination = draft.next.map { Pagination(next: $0, maxPages: draft.maxPages ?? Pagination.defaultMaxPages) }
        if draft.crawl != nil {
            // A crawl's result is keyed by page URL; --state tracks its pages by their URL.
            for key in ["urls", "next", "follow", "key"] where own.contains(key) {
                fields.problem(prefix + key, at: place, "does not go with crawl")
            }
            if collectsEmitted || collectsResponses { fields.problem(prefix + "crawl", at: place, "reads the script's result of each page, not \"collect\"") }
            draft.tracking.key = CrawlRecord.key
        }
        if let input = draft.followInput {
            draft.follow = follow(input, path: prefix + "follow", page: draft.job.page)
            if draft.follow != nil, collectsEmitted || collectsResponses {
                fields.problem(prefix + "follow", at: input, "follows the items of the script's result, not of \"collect\"")
            }
        }
        let schedule = draft.every.map { Schedule(every: $0, jitter: draft.jitter?.seconds ?? 0) }
        if let (jitter, input) = draft.jitter {
            if let every = draft.every, jitter > every {
                fields.problem(
                    prefix + "jitter", at: input, "expected at most the job's every (\(JSONNode.written(every)) s), got \(JSONNode.written(jitter)) s")
            } else if !given.contains("every") {
                fields.problem(prefix + "jitter", at: input, "goes with every (how often the job runs)")
            }
        }
        guard let pages = draft.urls ?? draft.url.map({ [$0] }), let script = draft.script ?? (collectsEmitted || collectsResponses || extracts ? "" : nil)
        else { return nil }
        draft.job.evaluation.script = script
        guard draft.urls != nil else {
            draft.job.url = pages[0]
            return [
                Config.NamedJob(
                    name: draft.name ?? "", job: draft.job, tracking: draft.tracking, after: draft.after, follow: draft.follow,
                    crawl: draft.crawl, schedule: schedule, unsetVariables: draft.unsetVariables, secrets: draft.secrets)
            ]
        }
        let base = draft.name ?? Self.baseName(of: pages[0])
        return pages.enumerated().map { index, url in
            var job = draft.job
            job.url = url
            let suffix = draft.urlNames.map { $0[index] } ?? String(index + 1)
            return Config.NamedJob(
                name: "\(base)-\(suffix)", job: job, tracking: draft.tracking, after: draft.after, follow: draft.follow,
                schedule: schedule, unsetVariables: draft.unsetVariables, secrets: draft.secrets)
        }
    }

    /// A job's `follow`, `{"field": PATH, "as": NAME, …}` (on the command line the same object as JSON), named `path`:
    /// read as a job of its own (every field of a page, checked as a job's are), whose page settings are the
    /// following job's `page` unless it gives some of its own.
    private mutating func follow(_ input: FieldInput, path: String, page: PageSettings) -> Follow? {
        let example = #"{"field": "url", "extract": {…}}"#
        guard let (pairs, given) = fields.members(path, input, example: example) else { return nil }
        var field: String?
        var into = Follow.defaultInto
        var members: [Member] = []
        for (key, node) in pairs {
            switch key {
            case "field": field = fields.string(path + ".field", .node(node))
            case "as": into = fields.string(path + ".as", .node(node)) ?? into
            case _ where Follow.notForAPage.contains(key):
                fields.problem(
                    path + "." + key, at: .node(node), "not a field of a followed page: each item gives its URL, and --state tracks the list that is followed")
            default: members.append(Member(key: key, input: .node(node), path: path + "." + key))
            }
        }
        if field == nil && !pairs.contains(where: { $0.key == "field" }) {
            fields.problem(path + ".field", at: given, "required: the field of each item that holds the page's URL, such as \"url\"")
        }
        let pageKeys: Set<String> = ["userAgent", "viewport", "language", "block", "blockURLs", "javaScript", "webgl", "userScripts", "logConsole", "popups"]
        var defaults = Defaults(keys: ["url"])
        defaults.draft.url = URL(string: "about:blank")
        if Set(members.map(\.key)).isDisjoint(with: pageKeys) { defaults.draft.job.page = page }
        guard let job = jobs(from: members, defaults: defaults, at: given, path: path)?.first, let field else { return nil }
        return Follow(field: field, into: into, job: job.job, follow: job.follow)
    }

    private static let scriptKeys: Set<String> = ["script", "scriptFile"]

    /// Reads `members` into `draft`; only `keys` are fields here, and script and scriptFile exclude each other.
    private mutating func read(_ members: [Member], into draft: inout JobDraft, keys: [String]) {
        let (unset, read) = (fields.unsetVariables.count, fields.variablesRead.count)
        defer {
            draft.unsetVariables += fields.unsetVariables[unset...]
            for variable in fields.variablesRead[read...] { draft.secrets[variable.name] = variable.value }
        }
        for member in members {
            guard keys.contains(member.key), let field = JobFields.field(member.key) else {
                let message =
                    member.key == "name"
                    ? "job names must be unique; give each job its own"
                    : "unknown key" + Self.suggestion(for: member.key, among: keys)
                fields.problem(member.path, at: member.input, message)
                continue
            }
            field.read(&fields, member.path, member.input, &draft)
        }
        if let both = members.last(where: { $0.key == "scriptFile" }), members.contains(where: { $0.key == "script" }) {
            fields.problem(both.path, at: both.input, "give script or scriptFile, not both")
        }
    }

    /// The `defaults` object, read once.
    mutating func defaults(_ node: JSONNode?) -> Defaults {
        guard let node else { return Defaults() }
        guard case .object(let members) = node.value else {
            fields.problem("defaults", at: .node(node), "expected an object of job fields, got \(node.excerpt)")
            return Defaults()
        }
        var defaults = Defaults(keys: Set(members.map(\.key)))
        read(
            members.map { Member(key: $0.key, input: .node($0.value), path: "defaults." + $0.key) }, into: &defaults.draft,
            keys: JobFields.all.map(\.key).filter { $0 != "name" })
        return defaults
    }

    private mutating func checkUniqueNames(_ elements: [JSONNode]) {
        var seen: [String: Int] = [:]
        for (index, node) in elements.enumerated() {
            guard case .object(let members) = node.value, let name = members.first(where: { $0.key == "name" })?.value,
                case .string(let text) = name.value
            else { continue }
            if let first = seen[text] {
                fields.problem("jobs[\(index)].name", at: .node(name), "duplicate job name \"\(text)\" (also jobs[\(first)])")
            } else {
                seen[text] = index
            }
        }
    }

    /// Gives unnamed jobs distinct names derived from their URLs by `base` (by default the host): `example.com`,
    /// `example.com-2`…
    func uniquelyNamed(_ jobs: [Config.NamedJob], base baseOf: (URL) -> String = ConfigReader.baseName) -> [Config.NamedJob] {
        var taken = Set(jobs.map(\.name).filter { !$0.isEmpty })
        // The next number to try for each base, so that many jobs of one host are named in linear time.
        var nextCounter: [String: Int] = [:]
        return jobs.map { named in
            guard named.name.isEmpty else { return named }
            let base = baseOf(named.job.url)
            var name = base
            var counter = nextCounter[base, default: 2]
            while taken.contains(name) {
                name = "\(base)-\(counter)"
                counter += 1
            }
            nextCounter[base] = counter
            taken.insert(name)
            var renamed = named
            renamed.name = name
            return renamed
        }
    }

    /// Checks that every job's `after` names jobs of the config, and that no jobs wait for each other: each
    /// circle of jobs is said once, at its first job in file order. Linear in the jobs and their `after` lists.
    private mutating func checkOrder(_ jobs: [Config.NamedJob], elements: [JSONNode], elementOf: [Int]) {
        let names = jobs.map(\.name)
        var indexOf: [String: Int] = [:]
        for (index, name) in names.enumerated() where indexOf[name] == nil { indexOf[name] = index }
        func place(_ index: Int) -> (String, FieldInput) {
            let element = elements[elementOf[index]]
            let node = FieldInput.node(element).members?.first { $0.key == "after" }?.value ?? element
            return ("jobs[\(elementOf[index])].after", .node(node))
        }
        for (index, job) in jobs.enumerated() {
            for name in job.after where indexOf[name] == nil {
                let (path, input) = place(index)
                fields.problem(path, at: input, "no job is named \"\(name)\"" + (fields.isFull ? "" : Self.suggestion(for: name, among: names)))
            }
        }
        let waitsFor = jobs.map { $0.after.compactMap { indexOf[$0] } }
        for circle in JobCircles(waitsFor).circles {
            let (path, input) = place(circle[0])
            fields.problem(path, at: input, "jobs wait for each other: " + (circle + [circle[0]]).map { names[$0] }.joined(separator: " → "))
        }
    }

    /// The name a job of `url` gets when it has none: the host, or a local file's name without its extension.
    static func baseName(of url: URL) -> String {
        url.isFileURL ? url.deletingPathExtension().lastPathComponent : (url.host() ?? "job")
    }

    /// "; did you mean …?" for a near miss, or the list of what may be there.
    static func suggestion(for key: String, among keys: [String]) -> String {
        guard let best = Spelling.nearest(to: key, among: keys) else {
            return keys.count > 20 ? "" : "; expected one of " + keys.joined(separator: ", ")
        }
        return "; did you mean \"\(best)\"?"
    }
}
