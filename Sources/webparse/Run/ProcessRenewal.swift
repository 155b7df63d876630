import FoundationEssentials
import Glibc
import WebParser

/// A long-lived worker replaced by a fresh copy of itself: the same process (its ID, its parent, its arguments and
/// the environment it was launched with) starting over from `main`, the descriptors it opened closed. WebKitGTK's UI process,
/// which is webparse itself, keeps about 17 KB for every tab it ever made, however each was closed (measured in a C
/// program of WebKitGTK 2.50 alone: 400 views made and destroyed leave 6.8 MB that `malloc_trim` cannot give back;
/// one view loading 400 pages, 0.2 MB): only a new process image gives that memory back.
enum ProcessRenewal {
    /// The descriptors open when the process started: its standard streams and what its parent gave it (a
    /// supervisor's socket), which a renewal keeps. Read first thing in `main`.
    static let launchDescriptors = openDescriptors()

    /// Executes this program again in place of the process, with its arguments and `environment`: every descriptor
    /// the process opened is closed on the way (the queue's connections, a metrics port, the locks of a session
    /// folder), so the new image opens them afresh; those it was started with stay. Call it once WebKit and its
    /// display have stopped.
    /// - Returns: only when the program cannot be executed again, with the system's reason.
    static func replace(environment: [String: String]) -> String {
        for descriptor in openDescriptors().subtracting(launchDescriptors) {
            let flags = fcntl(descriptor, F_GETFD)
            if flags >= 0 { _ = fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) }
        }
        let variables = environment.map { "\($0.key)=\($0.value)" }
        return withCStringArray(variables) { envp in
            let environment = envp.map { UnsafeRawPointer($0).assumingMemoryBound(to: UnsafeMutablePointer<CChar>?.self) }
            // By its file's path, so the process keeps its name (`ps`, `pgrep webparse`); by /proc/self/exe when that
            // file is gone or another now (an upgrade replaced it).
            if let path = programPath { execve(path, CommandLine.unsafeArgv, environment) }
            execve("/proc/self/exe", CommandLine.unsafeArgv, environment)
            return String(cString: strerror(errno))
        }
    }

    /// The path of the file the process runs, while that file is still the one it runs.
    private static var programPath: String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let path = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var running = stat()
        var named = stat()
        guard stat("/proc/self/exe", &running) == 0, stat(path, &named) == 0, running.st_dev == named.st_dev, running.st_ino == named.st_ino
        else { return nil }
        return path
    }

    /// The process's open descriptors now.
    private static func openDescriptors() -> Set<Int32> {
        guard let folder = opendir("/proc/self/fd") else { return [] }
        var descriptors: Set<Int32> = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let descriptor = Int32(name), descriptor != dirfd(folder) { descriptors.insert(descriptor) }
        }
        closedir(folder)
        return descriptors
    }

}
