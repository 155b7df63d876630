internal import CWebKitGTK
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A private X server (Xvfb) for machines without a display.
///
/// Started with `-displayfd`, so it reports its display number itself once it accepts connections, and with
/// `-nolisten tcp`, so only local clients can reach it. It runs in its own process group, so a Ctrl-C meant
/// for webparse does not take the display away mid-teardown, and with `-terminate`, so it exits by itself
/// once its last client (webparse) is gone. It is also killed when the thread that started it ends, so even a
/// webparse killed before GTK connected leaves no Xvfb behind. It holds no descriptor of webparse's but the
/// pipe it reports its display on. It accepts only clients that present the cookie of its `DisplayAuthority`,
/// which is removed when the server stops.
final class XvfbServer: Sendable {
    private struct Child {
        var pid: pid_t
        var displayPipe: Int32
        var log: Int32
        var authority: DisplayAuthority
    }

    /// The running server; nil once stopped.
    private let process: Mutex<Child?>

    /// The authority file clients need to connect, for `XAUTHORITY`.
    let authorityPath: String

    private init(_ process: Child) {
        self.process = Mutex(process)
        authorityPath = process.authority.path
    }

    /// Starts Xvfb; `waitForDisplay()` tells when it is ready. Returns at once, so that the caller can
    /// record the server (to stop it at exit) before waiting.
    /// - Throws: `WebParserError` with kind `.environmentUnavailable` when Xvfb is not installed or cannot
    ///   be started.
    static func launch() throws -> XvfbServer {
        guard let path = ExecutableSearch.path(named: "Xvfb") else {
            throw WebParserError(
                .environmentUnavailable(
                    "no display: neither DISPLAY nor WAYLAND_DISPLAY is set, and Xvfb is not installed "
                        + "(install the Debian package 'xvfb': apt-get install xvfb)"))
        }
        let authority = try DisplayAuthority.create()
        var pipeFDs: [Int32] = [-1, -1]
        guard pipe(&pipeFDs) == 0 else {
            authority.remove()
            throw failure("cannot create a pipe: \(errnoText())")
        }
        pipeFDs.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
        let log = anonymousLogFile()
        defer { close(pipeFDs[1]) }
        // Without GLX, which no client of this server uses, Xvfb starts in half the time (it loads no Mesa driver).
        let arguments = [
            path, "-displayfd", "1", "-auth", authority.path, "-nolisten", "tcp", "-terminate",
            "-extension", "GLX", "-screen", "0", "1280x800x24"
        ]
        do {
            let pid = try spawn(arguments: arguments, stdoutFD: pipeFDs[1], stderrFD: log)
            return XvfbServer(Child(pid: pid, displayPipe: pipeFDs[0], log: log, authority: authority))
        } catch {
            close(pipeFDs[0])
            if log >= 0 { close(log) }
            authority.remove()
            throw error
        }
    }

    /// Waits until the server reports its display and returns it, such as `:1`. Blocks.
    /// - Throws: `WebParserError` with kind `.environmentUnavailable`, with Xvfb's own messages, when it
    ///   exits or stays silent for `timeout`; the server is stopped then.
    func waitForDisplay(timeout: Duration = .seconds(10)) throws -> String {
        guard let (displayPipe, log) = process.withLock({ $0.map { ($0.displayPipe, $0.log) } }) else {
            throw Self.failure("Xvfb was stopped")
        }
        guard let number = Self.readDisplayNumber(from: displayPipe, timeout: timeout) else {
            let messages = log >= 0 ? Self.readAll(log) : ""
            stop()
            throw Self.failure("Xvfb did not start" + (messages.isEmpty ? "" : ": " + messages))
        }
        return ":\(number)"
    }

    /// Stops the server and waits for it to exit (SIGTERM, then SIGKILL after one second). Safe to call
    /// more than once, from any thread.
    func stop() {
        guard
            let process = process.withLock({ process in
                defer { process = nil }
                return process
            })
        else { return }
        defer {
            close(process.displayPipe)
            if process.log >= 0 { close(process.log) }
            process.authority.remove()
        }
        kill(process.pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<1000 {
            if waitpid(process.pid, &status, WNOHANG) != 0 { return }
            usleep(1000)
        }
        kill(process.pid, SIGKILL)
        waitpid(process.pid, &status, 0)
    }

    private static func failure(_ message: String) -> WebParserError {
        WebParserError(.environmentUnavailable("no display: " + message))
    }

    /// Spawns `arguments` (the first is the program's path) through the shim, which closes every descriptor
    /// but stdout and stderr in the child: an X server must not hold other pipes of this process open.
    private static func spawn(arguments: [String], stdoutFD: Int32, stderrFD: Int32) throws -> pid_t {
        var message: UnsafeMutablePointer<CChar>?
        let pid = withCStringArray(arguments) { wk_spawn_process($0, nil, -1, stdoutFD, stderrFD, true, &message) }
        guard pid > 0 else {
            defer { wk_free(message) }
            throw failure("cannot start \(arguments[0]): \(message.map { String(cString: $0) } ?? "unknown error")")
        }
        return pid
    }

    /// Reads the display number Xvfb writes followed by a newline; nil on timeout or end of file.
    private static func readDisplayNumber(from fd: Int32, timeout: Duration) -> Int? {
        let deadline = ContinuousClock.now + timeout
        var text = ""
        var byte: UInt8 = 0
        while !text.hasSuffix("\n") {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return nil }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(remaining.milliseconds + 1))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0, read(fd, &byte, 1) == 1 else { return nil }
            text.append(Character(UnicodeScalar(byte)))
        }
        return Int(text.trimmingWhitespace())
    }

    /// An unlinked temporary file for Xvfb's messages, read only when it fails to start; -1 if none.
    private static func anonymousLogFile() -> Int32 {
        var template = Array("/tmp/webparse-xvfb-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { return -1 }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        unlink(template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        return fd
    }

    private static func readAll(_ fd: Int32) -> String {
        lseek(fd, 0, SEEK_SET)
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while data.count < 16_384 {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: data, as: UTF8.self).trimmingWhitespace()
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
