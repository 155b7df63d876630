import Foundation
import Synchronization
import Testing
@testable import WebParser

/// Programs webparse runs to their end (Apprise), and the threads it starts, without Foundation's `Process`
/// and `Thread`.
@Suite struct ChildProcessTests {
    /// The input reaches the program's stdin, stdout and stderr come back together, the exit status is the
    /// program's, and the environment is exactly the one given.
    @Test func aProgramGetsItsInputAndEnvironmentAndItsOutputComesBack() async throws {
        let outcome = try await ChildProcess.run(
            "/bin/sh", arguments: ["-c", "read line; echo \"got $line as $WHO, home ${HOME-unset}\"; echo oops >&2; exit 3"],
            environment: ["WHO": "tester", "PATH": "/usr/bin:/bin"], input: "hello\n")
        #expect(outcome.status == 3)
        #expect(ProcessInfo.processInfo.environment["HOME"] != nil)
        #expect(outcome.output == "got hello as tester, home unset\noops\n")
    }

    /// Without input stdin is empty; a program ended by a signal reports the signal's number.
    @Test func withoutInputStdinIsEmptyAndASignalIsReported() async throws {
        let empty = try await ChildProcess.run("/bin/sh", arguments: ["-c", "wc -c"], environment: [:], input: nil)
        #expect(empty.output.trimmingWhitespace() == "0")
        #expect(empty.status == 0)
        let killed = try await ChildProcess.run("/bin/sh", arguments: ["-c", "kill -TERM $$"], environment: [:], input: nil)
        #expect(killed.status == SIGTERM)
    }

    /// A program that exits without reading a large input costs a failed write, not a crash or a hang.
    @Test func aProgramThatIgnoresItsInputEnds() async throws {
        let outcome = try await ChildProcess.run(
            "/bin/sh", arguments: ["-c", "echo bye"], environment: [:], input: String(repeating: "x", count: 4 << 20))
        #expect(outcome.output == "bye\n")
    }

    /// A program that does not exist fails to start, with GLib's reason.
    @Test func aMissingProgramFailsToStart() async throws {
        await #expect(throws: ChildProcess.StartFailure.self) {
            try await ChildProcess.run("/nonexistent/apprise", arguments: [], environment: [:], input: nil)
        }
    }

    /// A thread gets its name and the stack it asked for.
    @Test func aThreadHasItsNameAndStack() async throws {
        let seen = Mutex<(name: String, deep: Int)?>(nil)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            SystemThread.start(name: "webparse-test", stackSize: 64 << 20) {
                let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
                // Recursion deeper than a default 8 MiB stack holds in a debug build (it would crash the tests).
                func depth(_ level: Int) -> Int { level == 0 ? 0 : 1 + depth(level - 1) }
                seen.withLock { $0 = (name.trimmingWhitespace(), depth(300_000)) }
                continuation.resume()
            }
        }
        #expect(seen.withLock { $0?.name } == "webparse-test")
        #expect(seen.withLock { $0?.deep } == 300_000)
    }
}
