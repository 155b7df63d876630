import Foundation

/// Keeps two runs from using one state file at once: an exclusive `flock` on `FILE.lock`, released when the
/// process ends however it ends (so a killed run never leaves a stale lock).
final class StateLock {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// Locks the state file at `path`, waiting up to `wait` for another run to finish.
    /// - Throws: `StateLock.Busy` when another run still holds it, `StateLock.Failure` when the lock file cannot
    ///   be opened.
    static func acquire(for path: String, wait: Duration) async throws -> StateLock {
        let lockPath = path + ".lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(path: lockPath, reason: String(cString: strerror(errno))) }
        let deadline = ContinuousClock.now + wait
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw Failure(path: lockPath, reason: reason)
            }
            guard ContinuousClock.now < deadline, (try? await Task.sleep(for: .milliseconds(50))) != nil else {
                close(descriptor)
                throw Busy(path: path, waited: wait)
            }
        }
        return StateLock(descriptor: descriptor)
    }

    /// Another run holds the lock.
    struct Busy: Error, CustomStringConvertible {
        let path: String
        let waited: Duration
        var description: String {
            "another webparse run is using \(path)" + (waited > .zero ? " (waited \(waited.components.seconds) s)" : "")
                + "; try again later, or pass --wait-lock SECONDS"
        }
    }

    /// The lock file cannot be opened or locked.
    struct Failure: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "cannot lock \(path): \(reason)" }
    }
}
