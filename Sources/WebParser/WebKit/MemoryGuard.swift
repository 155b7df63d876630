import FoundationEssentials
import Glibc
import Synchronization

/// Holds WebKit's web and network processes to the memory limit from outside them.
///
/// WebKit checks a process's memory from inside it, on its main thread: a page busy parsing a gzip bomb checks
/// late, and then first tries to shrink, so the process overshoots the limit by gigabytes. The guard reads the
/// resident size of webparse's WebKit processes from `/proc` on a thread of its own, 20 times a second (every
/// 10 ms while one of them is past half its cap), and kills one that goes past `limit + headroom` at once.
/// WebKit then reports a crash; `killedAWebProcessRecently` says that it was the guard's doing, so the job fails as over
/// the memory limit, as for WebKit's own kill.
final class MemoryGuard: Sendable {
    /// Room above the limit for what resident size counts and WebKit's own measure does not (the libraries
    /// mapped from disk), so that WebKit's own kill, which says why, comes first when it can.
    static let headroom = 128 << 20

    private struct State {
        /// The limits of the sessions that set one, in bytes; the guard holds every process to the largest.
        var limits: [ObjectIdentifier: Int] = [:]
        /// Whether a session without a limit is open: then no process is killed.
        var unlimited: Set<ObjectIdentifier> = []
        var running = false
        /// When the guard last killed a web process.
        var lastKill: ContinuousClock.Instant?
    }

    private let state = Mutex(State())

    /// The guard of this process.
    static let shared = MemoryGuard()

    /// Holds WebKit's processes to `limit` MiB (nil: no limit) for as long as `owner` is open.
    func open(_ owner: AnyObject, limit: Int?) {
        let start = state.withLock { state -> Bool in
            if let limit, limit > 0 { state.limits[ObjectIdentifier(owner)] = limit << 20 } else { state.unlimited.insert(ObjectIdentifier(owner)) }
            defer { state.running = true }
            return !state.running
        }
        if start { SystemThread.start(name: "webparse-memory") { self.watch() } }
    }

    /// `owner`'s processes no longer need guarding.
    func close(_ owner: AnyObject) {
        state.withLock { state in
            state.limits[ObjectIdentifier(owner)] = nil
            state.unlimited.remove(ObjectIdentifier(owner))
        }
    }

    /// Whether the guard killed a web process in the last two seconds: a web process WebKit says crashed then
    /// most likely went over the memory limit.
    var killedAWebProcessRecently: Bool {
        guard let kill = state.withLock({ $0.lastKill }) else { return false }
        return ContinuousClock.now - kill < .seconds(2)
    }

    /// The cap a process is held to, in bytes, or nil for none.
    private var cap: Int? {
        state.withLock { state in
            guard state.unlimited.isEmpty, let limit = state.limits.values.max() else { return nil }
            return limit + Self.headroom
        }
    }

    private func watch() {
        let pageSize = sysconf(Int32(_SC_PAGESIZE))
        var processes: [(pid: pid_t, isWebProcess: Bool)] = []
        var lastListed = ContinuousClock.now - .seconds(1)
        while true {
            var pause: TimeInterval = 0.05
            let done = state.withLock { state in
                state.running = !(state.limits.isEmpty && state.unlimited.isEmpty)
                return !state.running
            }
            if done { return }
            if let cap {
                if ContinuousClock.now - lastListed >= .milliseconds(250) {
                    processes = Self.webKitChildren()
                    lastListed = .now
                }
                for process in processes {
                    guard let pages = Self.residentPages(of: process.pid) else { continue }
                    let bytes = pages * pageSize
                    if bytes > cap {
                        kill(process.pid, SIGKILL)
                        if process.isWebProcess { state.withLock { $0.lastKill = .now } }
                    } else if bytes > cap / 2 {
                        pause = 0.01
                    }
                }
            }
            usleep(useconds_t(pause * 1_000_000))
        }
    }

    /// webparse's children that are WebKit's web or network processes.
    private static func webKitChildren() -> [(pid: pid_t, isWebProcess: Bool)] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.flatMap { task -> [(pid: pid_t, isWebProcess: Bool)] in
            let children = InputFile.kernelText("/proc/self/task/\(task)/children") ?? ""
            return children.split(separator: " ").compactMap { text in
                guard let pid = pid_t(text.trimmingWhitespace()),
                    let name = InputFile.kernelText("/proc/\(pid)/comm")
                else { return nil }
                if name.hasPrefix("WebKitWebProces") { return (pid, true) }
                if name.hasPrefix("WebKitNetworkPr") { return (pid, false) }
                return nil
            }
        }
    }

    /// The resident pages of `pid`, from `/proc/PID/statm`.
    private static func residentPages(of pid: pid_t) -> Int? {
        let descriptor = Glibc.open("/proc/\(pid)/statm", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { Glibc.close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return nil }
        let fields = String(decoding: buffer[..<count], as: UTF8.self).split(separator: " ")
        return fields.count > 1 ? Int(fields[1]) : nil
    }
}
