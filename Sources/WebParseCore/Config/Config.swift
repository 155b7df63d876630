import Foundation
import WebParser

/// A loaded, valid config: the jobs to run, in file order.
package struct Config {
    /// A job and the name its result is printed under.
    package struct NamedJob {
        package var name: String
        package var job: WebParserJob
        /// How `--state` tells the job's items apart.
        package var tracking = Tracking()
    }

    package var jobs: [NamedJob]
    /// True when the file holds one job (`{"url": …}`) rather than a `jobs` list: its result is printed
    /// alone, not keyed by name.
    package var isSingleJob: Bool
    /// What the config says about the whole run.
    package var run = RunSettings()
    /// What the config says about the run's session.
    package var session = SessionSettings()
}

/// Everything wrong with a config file, each problem with its place.
package struct ConfigError: Error, CustomStringConvertible {
    package struct Problem: Hashable {
        /// The field, such as `jobs[1].timeout`; empty for the file as a whole.
        package var path: String
        package var message: String
        var line: Int?
        var column: Int?
    }

    var file: String
    var problems: [Problem]
    /// True when the file itself could not be read (missing, a folder, not readable): a command says so as its
    /// own error, `webparse run: FILE: no such file`, not as a problem inside the file.
    package var isUnreadable = false

    /// One line per problem: `file:line:column: path: message`.
    package var description: String {
        problems.map { problem in
            var place = file
            if let line = problem.line { place += ":\(line)" + (problem.column.map { ":\($0)" } ?? "") }
            return place + ": " + (problem.path.isEmpty ? "" : problem.path + ": ") + problem.message
        }.joined(separator: "\n")
    }
}
