import FoundationEssentials
import WebParser

/// A loaded, valid config: the jobs to run, in file order.
public struct Config: Sendable {
    /// A job and the name its result is printed under.
    public struct NamedJob: Sendable {
        /// The job's name: its key in a `jobs` config's output and in the state file.
        public var name: String
        /// What to load and evaluate, for `WebParserRunner.run(_:)`.
        public var job: WebParserJob
        /// How `--state` tells the job's items apart.
        public var tracking = Tracking()
        /// The jobs of the same run that must have succeeded before this one starts (a login, say).
        public var after: [String] = []
        /// The detail page of each item of the job's list, if it follows one.
        public var follow: Follow?
        /// The pages reachable from the job's URL, each read with its script, if it crawls.
        public var crawl: Crawl?
        /// How often the job runs, when a run with `--state` is started more often (its `every`); nil: at every run.
        public var schedule: Schedule?
        /// The job's references to environment variables that were not set when the config was read, when the
        /// loader deferred them: the problems that keep the job from running.
        package var unsetVariables: [ConfigError.Problem] = []
        /// The values of the environment variables the job's fields read (a password a step types), by the
        /// variables' names: what a HAR file shows as `[env NAME]`.
        package var secrets: [String: String] = [:]
    }

    /// The jobs, in file order.
    public var jobs: [NamedJob]
    /// True when the file holds one job (`{"url": …}`) rather than a `jobs` list: its result is printed
    /// alone, not keyed by name.
    package var isSingleJob: Bool
    /// What the config says about the whole run.
    package var run = RunSettings()
    /// What the config says about the run's session.
    package var session = SessionSettings()
}

/// Everything wrong with a config file, each problem with its place.
public struct ConfigError: Error, CustomStringConvertible {
    /// One thing wrong, and where.
    public struct Problem: Hashable, Sendable {
        /// The field, such as `jobs[1].timeout`; empty for the file as a whole.
        public var path: String
        /// What is wrong and what was expected, such as `expected a number of seconds from 0.1 to 86400, got "abc"`.
        public var message: String
        /// Where the field is in the file, from 1, when known: its line and its column.
        public var line: Int?
        /// The field's column in its line, from 1, when known.
        public var column: Int?
    }

    /// The file as named to the loader (`<stdin>` for standard input).
    public var file: String
    /// Every problem found, in file order.
    public var problems: [Problem]
    /// True when the file itself could not be read (missing, a folder, not readable): a command says so as its
    /// own error, `webparse run: FILE: no such file`, not as a problem inside the file.
    package var isUnreadable = false

    /// How many problems `description` shows; the others are counted.
    public static let shownProblems = 100

    /// One line per problem, `file:line:column: path: message`, for the first `shownProblems`, then how many
    /// more there are (`… and 19,900 more problems`).
    public var description: String {
        var lines = problems.prefix(Self.shownProblems).map { problem in
            var place = file
            if let line = problem.line { place += ":\(line)" + (problem.column.map { ":\($0)" } ?? "") }
            return place + ": " + (problem.path.isEmpty ? "" : problem.path + ": ") + problem.message
        }
        let more = problems.count - Self.shownProblems
        if more > 0 {
            lines.append("… and \(Self.grouped(more)) more problem\(more == 1 ? "" : "s")")
        }
        return lines.joined(separator: "\n")
    }

    /// `number` with its thousands separated by commas: 12,345.
    private static func grouped(_ number: Int) -> String {
        var digits = String(number)
        var index = digits.endIndex
        while digits.distance(from: digits.startIndex, to: index) > 3 {
            index = digits.index(index, offsetBy: -3)
            digits.insert(",", at: index)
        }
        return digits
    }
}
