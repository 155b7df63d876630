import FoundationEssentials
import Glibc

/// Keeps two runs from using one state file or session folder at once: an exclusive `flock` on a lock file,
/// released when the process ends however it ends (so a killed run never leaves a stale lock).
package final class RunLock {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// Locks `lockFile`, which guards `guarded` (named in messages), waiting up to `wait` for another run.
    /// - Throws: `RunLock.Busy` when another run still holds it, `RunLock.Failure` when the lock file cannot be
    ///   opened.
    package static func acquire(_ lockFile: String, guarding guarded: String, wait: Duration, advice: String) async throws -> RunLock {
        let descriptor = open(lockFile, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(path: lockFile, reason: String(cString: strerror(errno))) }
        let deadline = ContinuousClock.now + wait
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw Failure(path: lockFile, reason: reason)
            }
            guard ContinuousClock.now < deadline, (try? await Task.sleep(for: .milliseconds(50))) != nil else {
                close(descriptor)
                throw Busy(guarded: guarded, waited: wait, advice: advice)
            }
        }
        return RunLock(descriptor: descriptor)
    }

    /// Another run holds the lock.
    package struct Busy: Error, CustomStringConvertible {
        let guarded: String
        let waited: Duration
        let advice: String
        package var description: String {
            "another webparse run is using \(guarded)" + (waited > .zero ? " (waited \(waited.components.seconds) s)" : "")
                + "; \(advice)"
        }
    }

    /// The lock file cannot be opened or locked.
    package struct Failure: Error, CustomStringConvertible {
        let path: String
        let reason: String
        package var description: String { "cannot lock \(path): \(reason)" }
    }
}
