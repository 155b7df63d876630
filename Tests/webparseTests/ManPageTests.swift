import Foundation
import Testing
@testable import WebParserCore
@testable import webparse

/// webparse(1) is made from the tables help shows: every command, option, field and exit code is in it.
@Suite struct ManPageTests {
    @Test func theManualPageHasEveryOptionFieldAndExitCode() throws {
        let page = ManPage.text
        for command in Commands.all {
            #expect(page.contains(".SS \(command.name)\n"), "command \(command.name)")
            for option in command.completion.options {
                #expect(
                    page.contains(".B " + (option.short.map { "\\-\($0), " } ?? "") + "\\-\\-" + ManPage.escape(option.name)),
                    "\(command.name) --\(option.name)")
            }
        }
        for key in JobFields.all.map(\.key) + RunFields.all.map(\.key) + SessionFields.all.map(\.key) {
            #expect(page.contains(".B \(key)\n"), "field \(key)")
        }
        for (code, _) in ExitCode.meanings {
            #expect(page.contains(".B \(code.rawValue)\n"), "exit code \(code.rawValue)")
        }
        #expect(
            !page.split(separator: "\n").contains {
                $0.hasPrefix(".") && !$0.hasPrefix(".TH") && !$0.hasPrefix(".SH")
                    && !$0.hasPrefix(".SS") && !$0.hasPrefix(".TP") && !$0.hasPrefix(".B ") && !$0.hasPrefix(".PP") && !$0.hasPrefix(".br")
                    && !$0.hasPrefix(".I ")
            }, "a line of text that roff would read as a request")
    }

    @Test func manRendersItWithoutWarnings() async throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "webparse-\(UUID().uuidString).1")
        try ManPage.text.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/groff")
        process.arguments = ["-man", "-Tutf8", "-ww", "-z", file.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let warnings = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0 && warnings.isEmpty, "\(warnings)")
    }
}

/// The manual page's examples are the README's, line for line.
@Suite struct ManPageExampleTests {
    @Test func theExamplesAreTheREADMEs() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appending(path: "README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n").map { $0.replacing(/\ +#\ /, with: "  # ") }
        for example in ManPage.examples {
            #expect(lines.contains("\(example.command)  # \(example.meaning)"), "the README shows \(example.command)")
        }
        #expect(ManPage.text.contains(".SH EXAMPLES\n.TP\n.B webparse run comics.json"))
    }

    /// Each command's help ends with its own exit codes, each one of webparse's, once; `work` says what it returns
    /// when an item failed, when Redis went away, when it was stopped.
    @Test func everyCommandsHelpListsItsExitCodes() {
        for command in Commands.all {
            let codes = command.exitCodes.map(\.0)
            #expect(codes.first == .success && Set(codes).count == codes.count, "\(command.name): \(codes)")
            #expect(command.help.hasSuffix(ExitCode.help(command.exitCodes) + "\n"), "\(command.name)")
            #expect(ManPage.text.contains("Exit codes of \(command.name): 0 "), "\(command.name)")
        }
        let work = Dictionary(uniqueKeysWithValues: Commands.named("work")!.exitCodes.map { ($0.0, $0.1) })
        #expect(work[.jobFailed]?.contains("an item this worker took failed") == true)
        #expect(work[.queueUnavailable]?.contains("Redis") == true)
        #expect(work[.terminated]?.contains("the items in hand go back to the queue") == true)
        #expect(Commands.named("run")!.exitCodes.map(\.0).contains(.stateLocked))
        #expect(Commands.named("validate")!.exitCodes.map(\.0) == [.success, .usage])
    }
}
