import Foundation
import WebParser

/// `webparse run CONFIG`: runs the config's jobs one after another and prints their results.
struct RunCommand {
    let options: RunOptions

    /// Runs the jobs; returns the exit code. Usage and config errors are reported before any page loads.
    func execute() async -> ExitCode {
        let config: Config
        do {
            config = try ConfigLoader.load(path: options.configPath)
        } catch {
            StandardStreams.tell(error.description)
            return .usage
        }
        let reporter = ProgressReporter(verbosity: options.verbosity)
        let parser = WebParser()
        var results: [(name: String, data: Data)] = []
        var failed = false
        for named in config.jobs {
            do {
                let data = try await parser.run(named.job, onStateChange: reporter.observer(for: named.name))
                results.append((named.name, data))
            } catch let error as WebParserError {
                reporter.jobFailed(named.name, error)
                if case .environmentUnavailable = error.kind { return .environment }
                failed = true
            } catch is CancellationError {
                return .interrupted
            } catch {
                reporter.jobFailed(named.name, error)
                failed = true
            }
        }
        if config.isSingleJob {
            results.first.map { StandardStreams.writeResult($0.data) }
        } else {
            StandardStreams.writeResult(JSONText.object(results))
        }
        return failed ? .jobFailed : .success
    }
}

/// Builds JSON text around JSON texts that must be passed through unchanged.
enum JSONText {
    /// `{"name": result, …}` in the given order; each result is inserted as it is.
    static func object(_ members: [(name: String, data: Data)]) -> Data {
        var text = Data("{".utf8)
        for (index, member) in members.enumerated() {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            text.append(quoted(member.name))
            text.append(UInt8(ascii: ":"))
            text.append(member.data)
        }
        text.append(UInt8(ascii: "}"))
        return text
    }

    /// `string` as a JSON string literal.
    static func quoted(_ string: String) -> Data {
        var text = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20: text += String(format: "\\u%04x", scalar.value)
            default: text.unicodeScalars.append(scalar)
            }
        }
        return Data((text + "\"").utf8)
    }
}
