import FoundationEssentials
import Glibc

/// Writes bytes to a file descriptor whole, through short writes and interruptions.
package enum DescriptorWriter {
    /// Writes all of `data` to `descriptor`; the errno of the write that failed, nil when all went out.
    package static func write(_ data: Data, to descriptor: Int32) -> Int32? {
        data.withUnsafeBytes { buffer -> Int32? in
            var offset = 0
            while offset < buffer.count {
                let count = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return count < 0 ? errno : EIO }
                offset += count
            }
            return nil
        }
    }
}
