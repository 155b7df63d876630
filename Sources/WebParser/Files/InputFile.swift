import FoundationEssentials
import Glibc

/// Reads what webparse is given in files (configs, scripts, user scripts, cookie files, states) whole, up to a
/// size: a larger file, or an endless stream such as `/dev/zero` or `yes |`, is refused with a message instead
/// of filling the memory.
package enum InputFile {
    /// The most a config, script or cookie file may hold: 64 MiB, thousands of times a real one.
    package static let limit = 64 << 20

    /// The contents of the file at `path` (`what` it should be, for messages), of at most `limit` bytes.
    /// - Throws: `Failure` saying why it cannot be read, or that it is larger than `limit`.
    package static func read(_ path: String, what: String = "file", limit: Int = limit) throws(Failure) -> Data {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { throw Failure(reason: "is a directory, not a \(what)") }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(reason: errno == ENOENT ? "no such file" : "cannot be read: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        return try read(descriptor: descriptor, limit: limit)
    }

    /// What `descriptor` (stdin, say) holds until its end, of at most `limit` bytes.
    /// - Throws: `Failure` saying why it cannot be read, or that it is larger than `limit`.
    package static func read(descriptor: Int32, limit: Int = limit) throws(Failure) -> Data {
        // A byte more than the limit tells a larger file; a limit of Int.max has none more to read.
        let data = try bytes(of: descriptor, upTo: limit < .max ? limit + 1 : limit)
        guard data.count <= limit else { throw Failure(reason: "is larger than \(limit >> 20) MiB, the most webparse reads from one file") }
        return data
    }

    /// The first `count` bytes (at most) of the file at `path`; nil when it cannot be read.
    package static func prefix(of path: String, count: Int) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return try? bytes(of: descriptor, upTo: count)
    }

    /// What `descriptor` holds from where it is, until its end or `count` bytes.
    /// - Throws: `Failure` saying why it cannot be read.
    private static func bytes(of descriptor: Int32, upTo count: Int) throws(Failure) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while data.count < count {
            let read = Glibc.read(descriptor, &buffer, min(buffer.count, count - data.count))
            if read < 0 && errno == EINTR { continue }
            guard read >= 0 else { throw Failure(reason: "cannot be read: \(String(cString: strerror(errno)))") }
            if read == 0 { break }
            data.append(contentsOf: buffer[0..<read])
        }
        return data
    }

    /// A file of the kernel's (`/proc`, `/sys`) as text, read to its end; nil when it cannot be read. Such files
    /// say their size is 0, and readers that trust the size (`String(contentsOfFile:)`) stop after 4 KiB.
    package static func kernelText(_ path: String) -> String? {
        (try? read(path, limit: 16 << 20)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Why a file was not read: "no such file", "cannot be read: Permission denied", "is larger than 64 MiB…".
    package struct Failure: Error, CustomStringConvertible {
        package let reason: String
        package var description: String { reason }
    }
}
