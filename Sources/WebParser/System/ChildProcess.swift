internal import CWebKitGTK
import FoundationEssentials
import Glibc

/// A program run to its end: its input written, what it says read, its exit status awaited, each on a thread
/// of its own so that neither pipe can fill up and block it. Started by the shim (its own process group,
/// default signal handling, no other descriptor of this process).
package enum ChildProcess {
    /// How a run ended.
    package struct Outcome: Sendable {
        /// The exit status, or the number of the signal that ended the program.
        package let status: Int32
        /// What it wrote on stdout and stderr, together.
        package let output: String
    }

    /// Why a program could not be started.
    package struct StartFailure: Error, CustomStringConvertible {
        package let reason: String
        package var description: String { reason }
    }

    /// Runs the program at `path` with `arguments` and exactly `environment`, writing `input` (if any) on its
    /// stdin (else stdin is `/dev/null`), and returns once it has ended. A program that exits before reading its
    /// input costs a failed write, not a crash, whether this process ignores SIGPIPE or not.
    /// - Throws: `StartFailure` when it cannot be started.
    package static func run(_ path: String, arguments: [String], environment: [String: String], input: String?) async throws(StartFailure)
        -> Outcome
    {
        let output = try pipe()
        let inputPipe: (read: Int32, write: Int32)?
        do throws(StartFailure) {
            inputPipe = try input.map { _ throws(StartFailure) in try pipe() }
        } catch {
            close(output.read)
            close(output.write)
            throw error
        }
        var message: UnsafeMutablePointer<CChar>?
        let pid = withCStringArray([path] + arguments) { argv in
            withCStringArray(environment.map { $0.key + "=" + $0.value }) { envp in
                // Never NULL, which would mean this process's environment: an empty one is an empty list.
                let empty: [UnsafePointer<CChar>?] = [nil]
                return empty.withUnsafeBufferPointer { empty in
                    wk_spawn_process(argv, envp ?? empty.baseAddress, inputPipe?.read ?? -1, output.write, output.write, false, &message)
                }
            }
        }
        close(output.write)
        if let inputPipe { close(inputPipe.read) }
        guard pid > 0 else {
            defer { wk_free(message) }
            close(output.read)
            if let inputPipe { close(inputPipe.write) }
            throw StartFailure(reason: message.map { String(cString: $0) } ?? "unknown error")
        }
        if let input, let inputPipe {
            SystemThread.start {
                // A program that ended without reading all of it makes the write fail with EPIPE; the SIGPIPE
                // that comes with it is this thread's, held back and dropped when the thread ends.
                var pipeSignal = sigset_t()
                sigemptyset(&pipeSignal)
                sigaddset(&pipeSignal, SIGPIPE)
                pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
                _ = DescriptorWriter.write(Data(input.utf8), to: inputPipe.write)
                close(inputPipe.write)
            }
        }
        return await withCheckedContinuation { continuation in
            SystemThread.start {
                let said = (try? InputFile.read(descriptor: output.read)) ?? Data()
                close(output.read)
                var status: Int32 = 0
                while waitpid(pid_t(pid), &status, 0) < 0 && errno == EINTR {}
                let signal = status & 0x7F
                continuation.resume(returning: Outcome(status: signal == 0 ? (status >> 8) & 0xFF : signal, output: String(decoding: said, as: UTF8.self)))
            }
        }
    }

    /// A pipe whose ends are closed in programs this process starts (the shim hands the child's end on).
    private static func pipe() throws(StartFailure) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else { throw StartFailure(reason: "cannot make a pipe: \(String(cString: strerror(errno)))") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }
}
