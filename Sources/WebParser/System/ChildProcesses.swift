import FoundationEssentials
import Glibc

/// The processes this process started that are still running, as the kernel lists them (`/proc`), and their end:
/// at exit, what WebKit started must not outlive webparse, even a web process stuck in a page's endless loop, which
/// never notices that its UI process went away.
package enum ChildProcesses {
    /// A child process: its ID and its name (the kernel's `comm`, 15 characters at most).
    package struct Child: Equatable, Sendable {
        package let pid: pid_t
        package let name: String
    }

    /// This process's children whose name starts with one of `prefixes`.
    package static func running(named prefixes: [String]) -> [Child] {
        let parent = getpid()
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { entry in
            guard let pid = pid_t(entry), let stat = InputFile.kernelText("/proc/\(entry)/stat") else { return nil }
            // "PID (NAME) STATE PPID …": the name may hold spaces and parentheses, so it ends at the last ")".
            guard let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return nil }
            let name = String(stat[stat.index(after: open)..<close])
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, pid_t(fields[1]) == parent, prefixes.contains(where: name.hasPrefix) else { return nil }
            return Child(pid: pid, name: name)
        }
    }

    /// Ends `children`: SIGTERM, then, for those still running after `grace`, SIGKILL; each is waited for (reaped),
    /// so that none is left, not even as a zombie.
    package static func end(_ children: [Child], grace: Duration) {
        guard !children.isEmpty else { return }
        for child in children { kill(child.pid, SIGTERM) }
        var running = children.map(\.pid)
        let deadline = ContinuousClock.now + grace
        while !running.isEmpty && ContinuousClock.now < deadline {
            running.removeAll { hasEnded($0) }
            if !running.isEmpty { usleep(5_000) }
        }
        for pid in running {
            kill(pid, SIGKILL)
            while waitpid(pid, nil, 0) < 0 && errno == EINTR {}
        }
    }

    /// The proportional set size of `pid` in bytes (its own memory and its share of what it shares), from
    /// `/proc/PID/smaps_rollup`; nil when it is gone or the kernel does not say.
    package static func proportionalSetSize(of pid: pid_t) -> Int? {
        guard let rollup = InputFile.kernelText("/proc/\(pid)/smaps_rollup") else { return nil }
        for line in rollup.split(separator: "\n") where line.hasPrefix("Pss:") {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }

    /// Whether `pid` has ended, reaping it if it is a zombie of ours (another waiter may have reaped it first).
    private static func hasEnded(_ pid: pid_t) -> Bool {
        let reaped = waitpid(pid, nil, WNOHANG)
        return reaped == pid || (reaped < 0 && errno == ECHILD)
    }
}
