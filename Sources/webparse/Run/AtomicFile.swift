import Foundation

/// Writes files so that a reader, a crash or a `kill -9` sees the old contents or the new, never a mix: a
/// temporary file in the same folder, flushed to disk, then renamed over the target.
enum AtomicFile {
    /// Replaces the file at `path` with `data`.
    /// - Throws: `AtomicFile.Failure` saying which step failed; the old file is then untouched.
    static func write(_ data: Data, to path: String, permissions: mode_t = 0o644) throws(Failure) {
        let target = URL(fileURLWithPath: path)
        let directory = target.deletingLastPathComponent().path
        var template = Array((directory + "/." + target.lastPathComponent + ".XXXXXX").utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw Failure(path: path, step: "create a temporary file in \(directory)") }
        let temporary = String(cString: template)
        var renamed = false
        defer {
            close(descriptor)
            if !renamed { unlink(temporary) }
        }
        let written = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        guard written, fchmod(descriptor, permissions) == 0, fsync(descriptor) == 0 else {
            throw Failure(path: path, step: "write")
        }
        guard rename(temporary, path) == 0 else { throw Failure(path: path, step: "replace") }
        renamed = true
        let folder = open(directory, O_RDONLY)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    /// Which step of an atomic write failed, and why.
    struct Failure: Error, CustomStringConvertible {
        let path: String
        let step: String
        let reason = String(cString: strerror(errno))

        var description: String { "cannot write \(path): \(step) failed: \(reason)" }
    }
}
