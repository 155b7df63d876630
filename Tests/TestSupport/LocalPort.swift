import Foundation
import Glibc

/// Ports of 127.0.0.1 for tests' servers.
public enum LocalPort {
    /// A port nothing listens on now.
    public static func free() throws -> Int {
        let (listener, port) = try bound()
        close(listener)
        return port
    }

    /// A socket listening on a port of its own, and the port: a port in use.
    public static func taken() throws -> (socket: Int32, port: Int) {
        let (listener, port) = try bound()
        guard listen(listener, 1) == 0 else {
            close(listener)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        return (listener, port)
    }

    /// A socket bound to a port the system chose, and the port.
    private static func bound() throws -> (Int32, Int) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        return (listener, Int(UInt16(bigEndian: address.sin_port)))
    }
}
