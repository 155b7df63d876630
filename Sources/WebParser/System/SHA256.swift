internal import CWebKitGTK

/// SHA-256 digests, computed by GLib (already linked), for stable identities of results and items in state
/// files and for sharding.
package enum SHA256 {
    /// The digest of `bytes` as 64 lowercase hex digits.
    package static func hex(_ bytes: some Collection<UInt8>) -> String {
        digest(bytes).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// The 32 bytes of the digest of `bytes`.
    package static func digest(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let input = Array(bytes)
        var output = [UInt8](repeating: 0, count: 32)
        input.withUnsafeBytes { data in
            output.withUnsafeMutableBufferPointer { wk_sha256(data.baseAddress, data.count, $0.baseAddress) }
        }
        return output
    }
}
