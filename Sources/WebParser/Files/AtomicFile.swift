import FoundationEssentials
import Glibc

/// Writes files so that a reader, a crash or a `kill -9` sees the old contents or the new, never a mix: a
/// temporary file in the same folder, flushed to disk, then renamed over the target.
package enum AtomicFile {
    /// Replaces the file at `path` (the file a symbolic link there finally points to, created if it does not
    /// exist yet) with `data`. The file keeps
    /// its permissions; a new one gets `permissions` less the umask. With `exactPermissions` (for secrets) the
    /// file gets `permissions` whatever it had.
    /// - Throws: `AtomicFile.Failure` saying which step failed; the old file is then untouched.
    package static func write(_ data: Data, to path: String, permissions: mode_t = 0o666, exactPermissions: Bool = false) throws(Failure) {
        // Atomic replacement is for regular files: a device, FIFO, socket or /proc/self/fd/N (`-o /dev/stdout`,
        // `-o /dev/null`) is written in place, never replaced.
        if isSpecialFile(path) {
            try writeInPlace(data, to: path)
            return
        }
        let path = try finalTarget(of: path)
        var existing = stat()
        let mode =
            exactPermissions
            ? permissions
            : stat(path, &existing) == 0 ? existing.st_mode & 0o7777 : permissions & ~currentUmask()
        try replace(path, with: data, mode: mode)
    }

    /// Writes `data` to a temporary file in `path`'s folder with `mode`, flushed to disk, and renames it over `path`
    /// (the name itself: a link there is replaced, not followed).
    /// - Throws: `AtomicFile.Failure` saying which step failed; `path` is then untouched.
    private static func replace(_ path: String, with data: Data, mode: mode_t) throws(Failure) {
        let target = URL(fileURLWithPath: path)
        let directory = target.deletingLastPathComponent().path
        var template = Array((directory + "/." + target.lastPathComponent + ".XXXXXX").utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw Failure(path: path, step: "create a temporary file in \(directory)") }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var renamed = false
        defer {
            close(descriptor)
            if !renamed { unlink(temporary) }
        }
        guard DescriptorWriter.write(data, to: descriptor) == nil, fchmod(descriptor, mode) == 0, fsync(descriptor) == 0 else {
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

    /// Writes `data` as the file `path` in its folder, private (0600), as a file an untrusted party named is written:
    /// never through a symbolic link or into a device, and replacing only a file written so before (a regular file of
    /// this user's, 0600).
    /// - Throws: `AtomicFile.Failure` when something else is there (`confinedProblem`) or a step failed; nothing
    ///   there is then changed.
    package static func writeConfined(_ data: Data, to path: String) throws(Failure) {
        if let problem = confinedProblem(path) { throw Failure(path: path, step: "replace", reason: problem) }
        try replace(path, with: data, mode: 0o600)
    }

    /// Why `path` may not be written by `writeConfined`: something is there that it did not write (a link, a
    /// folder, a device, another user's file, a file of other permissions); nil when nothing is there, or a file it
    /// wrote.
    package static func confinedProblem(_ path: String) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG else { return kind == S_IFLNK ? "it is a symbolic link" : kind == S_IFDIR ? "it is a folder" : "it is not a regular file" }
        guard status.st_uid == geteuid(), status.st_mode & 0o7777 == 0o600 else {
            return "it is a file webparse did not write for an item (not a private file of its own)"
        }
        return nil
    }

    /// The file `path` finally names: symbolic links followed, a dangling one to the file it would create, in
    /// a folder named without links, so that every name of one file gives one path (to lock it, say).
    /// - Throws: `AtomicFile.Failure` for a loop of links.
    package static func finalTarget(of path: String) throws(Failure) -> String {
        var current = path
        for _ in 0..<40 {
            var status = stat()
            guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK,
                let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current)
            else { return inRealFolder(current) }
            current =
                destination.hasPrefix("/")
                ? destination
                : URL(fileURLWithPath: current).deletingLastPathComponent().appending(path: destination).path
        }
        throw Failure(path: path, step: "follow its symbolic links", reason: "too many levels of symbolic links (a loop?)")
    }

    /// `path` with its folder's links resolved.
    private static func inRealFolder(_ path: String) -> String {
        let url = URL(fileURLWithPath: path)
        guard let folder = realpath(url.deletingLastPathComponent().path, nil) else { return url.standardized.path }
        defer { free(folder) }
        return URL(fileURLWithPath: String(cString: folder)).appending(path: url.lastPathComponent).path
    }

    /// True when `path` (links followed) is something other than a regular file or a folder: a device, FIFO,
    /// socket or `/proc/self/fd/N`, which is written into rather than replaced.
    private static func isSpecialFile(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        return status.st_mode & S_IFMT != S_IFREG && status.st_mode & S_IFMT != S_IFDIR
    }

    /// Writes `data` into the special file at `path` (a device, FIFO or socket) as a stream.
    private static func writeInPlace(_ data: Data, to path: String) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(path: path, step: "open") }
        defer { close(descriptor) }
        guard DescriptorWriter.write(data, to: descriptor) == nil else { throw Failure(path: path, step: "write") }
    }

    /// Why `path` cannot be written atomically (its folder is missing or not writable, or it is a folder),
    /// or nil when it can: for checking an output path before doing the work that fills it.
    package static func checkWritable(_ path: String) -> String? {
        if isSpecialFile(path) {
            return access(path, W_OK) == 0 ? nil : "cannot write \(path): \(String(cString: strerror(errno)))"
        }
        let target: URL
        do {
            target = URL(fileURLWithPath: try finalTarget(of: path))
        } catch {
            return error.description
        }
        var isDirectory = false
        if FileManager.default.fileExists(atPath: target.path, isDirectory: &isDirectory), isDirectory {
            return "\(path) is a folder"
        }
        let folder = target.deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else { return "no folder \(folder)" }
        guard isDirectory else { return "\(folder) is a file, not a folder" }
        guard access(folder, W_OK) == 0 else { return "cannot write in \(folder): \(String(cString: strerror(errno)))" }
        return nil
    }

    /// The process's umask, read from /proc so that it is not changed, even for a moment, while other threads
    /// may create files.
    private static func currentUmask() -> mode_t {
        let status = InputFile.kernelText("/proc/self/status") ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("Umask:") }
        return line.flatMap { mode_t($0.dropFirst("Umask:".count).trimmingSpaces(), radix: 8) } ?? 0o022
    }

    /// Which step of an atomic write failed, and why.
    package struct Failure: Error, CustomStringConvertible {
        package let path: String
        package let step: String
        package var reason = String(cString: strerror(errno))

        package var description: String { "cannot write \(path): \(step) failed: \(reason)" }
    }
}
