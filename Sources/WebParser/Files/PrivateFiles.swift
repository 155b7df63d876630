import FoundationEssentials
import Glibc

/// Files that may hold secrets (cookies, logins, local storage, state): folders 0700 and files 0600, whatever
/// the umask, written atomically.
package enum PrivateFiles {
    /// Creates `folder` (and the folders above it that are missing) readable by its owner only. An existing
    /// folder is left as it is.
    /// - Returns: a warning when an existing folder can be read by other users, nil otherwise.
    /// - Throws: `Failure` when the folder cannot be created, in the system's words (`cannot create the folder
    ///   …: Read-only file system`), or when a file is where the folder should be.
    @discardableResult
    package static func makeFolder(_ folder: URL) throws(Failure) -> String? {
        var status = stat()
        if stat(folder.path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else { throw Failure(path: folder.path, reason: "\(folder.path) is a file, not a folder") }
            let mode = status.st_mode & 0o777
            guard mode & 0o077 != 0 else { return nil }
            return "\(folder.path) can be read by other users (mode \(String(mode, radix: 8))); it holds cookies and logins: chmod 700 it"
        }
        try makeFolder(folder.deletingLastPathComponent())
        guard mkdir(folder.path, 0o700) == 0 || errno == EEXIST else {
            throw Failure(path: folder.path, reason: "cannot create the folder \(folder.path): \(String(cString: strerror(errno)))")
        }
        chmod(folder.path, 0o700)
        return nil
    }

    /// The KiB free for webparse's user on the file system that holds `folder` when that is under 1 MiB, where
    /// WebKit's stores and files fail one by one; nil when there is more, or it cannot be told.
    package static func kibibytesFreeIfFull(in folder: URL) -> UInt64? {
        var status = statvfs()
        guard statvfs(folder.path, &status) == 0 else { return nil }
        let free = UInt64(status.f_bavail) * UInt64(status.f_frsize)
        return free < 1 << 20 ? free / 1024 : nil
    }

    /// Makes every file below `folder` readable by its owner only (files 0600, folders 0700), such as the files
    /// WebKit created there with the umask's permissions. Links are not followed; `folder` itself is left as
    /// it is.
    package static func restrictContents(of folder: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names {
            let item = folder.appendingPathComponent(name)
            var info = stat()
            guard lstat(item.path, &info) == 0, info.st_mode & S_IFMT != S_IFLNK else { continue }
            let isFolder = info.st_mode & S_IFMT == S_IFDIR
            chmod(item.path, isFolder ? 0o700 : 0o600)
            if isFolder { restrictContents(of: item) }
        }
    }

    /// Replaces the file at `url`, in a folder made by `makeFolder(_:)`, with `data`, readable by its owner
    /// only: written beside it and renamed over it, so a reader or a crash sees the old contents or the new.
    /// - Throws: `Failure`, saying why, when it cannot be written; the old file is then untouched.
    package static func write(_ data: Data, to url: URL) throws(Failure) {
        let folder = url.deletingLastPathComponent().path
        guard access(folder, W_OK) == 0 else {
            throw Failure(path: url.path, reason: "\(String(cString: strerror(errno))) (the folder \(folder) cannot be written)")
        }
        do {
            try AtomicFile.write(data, to: url.path, permissions: 0o600, exactPermissions: true)
        } catch {
            throw Failure(path: url.path, reason: error.reason)
        }
    }

    /// Why a private file could not be written, in the file system's words.
    package struct Failure: Error, CustomStringConvertible {
        /// The file.
        package let path: String
        /// Why, such as "Permission denied" or "No space left on device".
        package let reason: String
        /// "Permission denied (the folder … cannot be written)", "cannot create the folder …: Read-only file
        /// system".
        package var description: String { reason }
    }
}
