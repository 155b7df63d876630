import Foundation
import WebParser

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a built product of this package, such as the `webparse` binary, and reports what it did.
public struct ProcessRunner: Sendable {
    /// What a finished process did.
    public struct Outcome: Sendable {
        public var status: Int32
        public var stdout: Data
        public var stderr: String
        public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// The product's path.
    public let executable: URL

    /// The product `name` from the directory the tests were built into.
    public init(product name: String) {
        let testBinary = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        executable = testBinary.deletingLastPathComponent().appending(path: name)
    }

    /// The program at `path`, such as a system tool a test uses against webparse.
    public init(path: String) {
        executable = URL(fileURLWithPath: path)
    }

    /// Starts the product with `arguments` and `input` on its stdin (nothing when nil); `environment`
    /// entries replace the inherited ones, and a nil value removes one.
    public func start(_ arguments: [String], environment: [String: String?] = [:], input: Data? = nil) throws -> Running {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var inherited = ProcessInfo.processInfo.environment
        for (name, value) in environment { inherited[name] = value }
        process.environment = inherited
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        let stdin = input.map { _ in Pipe() }
        process.standardInput = stdin ?? FileHandle.nullDevice
        try process.run()
        if let stdin, let input {
            stdin.fileHandleForWriting.write(input)
            try stdin.fileHandleForWriting.close()
        }
        return Running(process: process, stdout: stdout, stderr: stderr)
    }

    /// Runs the product to its end.
    public func run(_ arguments: [String], environment: [String: String?] = [:]) async throws -> Outcome {
        try await start(arguments, environment: environment).finish()
    }

    /// Runs the program to its end, blocking the calling thread, for a short tool a test reads: its stdout (its
    /// stderr is dropped) and its exit status.
    public func output(_ arguments: [String]) throws -> (stdout: Data, status: Int32) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (data, process.terminationStatus)
    }

    /// A started process. Its output is read on threads of its own, never on the tasks' thread pool, which
    /// a blocking read would starve.
    public final class Running {
        private let process: Process
        private let stdout: Task<Data, Never>
        private let stderr: Task<Data, Never>
        private let exit: Task<Int32, Never>

        init(process: Process, stdout: Pipe, stderr: Pipe) {
            self.process = process
            self.stdout = Self.readToEnd(stdout.fileHandleForReading)
            self.stderr = Self.readToEnd(stderr.fileHandleForReading)
            self.exit = Self.onThread { [process] in
                process.waitUntilExit()
                return process.terminationStatus
            }
        }

        public var pid: pid_t { process.processIdentifier }

        /// Sends `signal` to the process.
        public func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

        /// Waits for the process to end and collects its output.
        public func finish() async -> Outcome {
            let status = await exit.value
            return Outcome(
                status: status, stdout: await stdout.value,
                stderr: String(decoding: await stderr.value, as: UTF8.self))
        }

        /// The largest proportional set size (MiB) the process and its descendants had together, sampled every 50 ms
        /// until the process ends.
        public func peakMegabytes() async throws -> Int {
            var peak = 0
            while ProcessTree.anyAlive([pid]) {
                peak = max(peak, ProcessTree.proportionalMegabytes(ofTreeAt: pid))
                try await Task.sleep(for: .milliseconds(50))
            }
            return peak
        }

        /// The process's descendants now, with their command names, read from /proc.
        public func descendants() -> [(pid: pid_t, name: String)] {
            ProcessTree.descendants(of: process.processIdentifier)
        }

        private static func readToEnd(_ handle: FileHandle) -> Task<Data, Never> {
            onThread { handle.readDataToEndOfFile() }
        }

        private static func onThread<T: Sendable>(_ work: @escaping @Sendable () -> T) -> Task<T, Never> {
            Task {
                await withCheckedContinuation { continuation in
                    Thread { continuation.resume(returning: work()) }.start()
                }
            }
        }
    }
}

/// The system's processes, as /proc shows them.
public enum ProcessTree {
    /// Every live process's parent and command name.
    public static func snapshot() -> [pid_t: (parent: pid_t, name: String)] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        var processes: [pid_t: (parent: pid_t, name: String)] = [:]
        for entry in entries {
            guard let pid = pid_t(entry),
                let stat = InputFile.kernelText("/proc/\(pid)/stat"),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
            else { continue }
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            guard fields.count > 1, fields[0] != "Z", let parent = pid_t(fields[1]) else { continue }
            processes[pid] = (parent, String(stat[stat.index(after: open)..<close]))
        }
        return processes
    }

    /// The live descendants of `root`.
    public static func descendants(of root: pid_t) -> [(pid: pid_t, name: String)] {
        let processes = snapshot()
        var found: [(pid: pid_t, name: String)] = []
        var frontier: Set<pid_t> = [root]
        while !frontier.isEmpty {
            let children = processes.filter { frontier.contains($0.value.parent) }
            found += children.map { ($0.key, $0.value.name) }
            frontier = Set(children.keys)
        }
        return found
    }

    /// The proportional set size (PSS) of `root` and its descendants together, in MiB: their resident memory
    /// with each page they share (libraries, shared memory) divided among the processes that share it.
    public static func proportionalMegabytes(ofTreeAt root: pid_t) -> Int {
        let pids = [root] + descendants(of: root).map(\.pid)
        let kilobytes = pids.reduce(0) { total, pid in
            let rollup = InputFile.kernelText("/proc/\(pid)/smaps_rollup") ?? ""
            let line = rollup.split(separator: "\n").first { $0.hasPrefix("Pss:") }
            return total + (line.flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") } ?? 0)
        }
        return kilobytes / 1024
    }

    /// The live processes whose environment holds `variable=value`: the processes of a run a test started with it
    /// (webparse's children inherit it), whoever their parent is now (an orphan's is init), and no one else's.
    public static func carrying(_ variable: String, _ value: String) -> [(pid: pid_t, name: String)] {
        let entry = "\(variable)=\(value)"
        return snapshot().compactMap { pid, process in
            let environment = InputFile.kernelText("/proc/\(pid)/environ") ?? ""
            return environment.split(separator: "\0").contains { $0 == entry } ? (pid, process.name) : nil
        }
    }

    /// True when one of `pids` is still alive (zombies count as gone).
    public static func anyAlive(_ pids: [pid_t]) -> Bool {
        let processes = snapshot()
        return pids.contains { processes[$0] != nil }
    }
}
