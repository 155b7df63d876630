import Foundation

/// A PNG file decoded to 8-bit RGBA pixels, by Python's `zlib` (Debian's python3): the tests check what
/// webparse wrote without trusting any of webparse's own code.
public struct PNGImage {
    public let width: Int
    public let height: Int
    private let pixels: [UInt8]

    /// Decodes the PNG at `file` (8-bit RGB or RGBA, not interlaced).
    /// - Throws: when the file is not such a PNG.
    public init(contentsOf file: URL) throws {
        let (data, status) = try ProcessRunner(path: "/usr/bin/python3").output(["-c", Self.program, file.path])
        guard status == 0, data.count >= 8 else { throw CocoaError(.fileReadCorruptFile) }
        let bytes = [UInt8](data)
        let header = bytes[0..<8].map(Int.init)
        width = header[0] << 24 | header[1] << 16 | header[2] << 8 | header[3]
        height = header[4] << 24 | header[5] << 16 | header[6] << 8 | header[7]
        pixels = Array(bytes[8...])
        guard pixels.count == width * height * 4 else { throw CocoaError(.fileReadCorruptFile) }
    }

    /// The red, green, blue and alpha of the pixel at `x`, `y` (from the top left).
    public func pixel(x: Int, y: Int) -> [UInt8] {
        let start = (y * width + x) * 4
        return Array(pixels[start..<start + 4])
    }

    /// Prints width and height (4 bytes each, big-endian) and then the RGBA pixels, row by row.
    private static let program = """
        import struct, sys, zlib
        data = open(sys.argv[1], "rb").read()
        assert data[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
        position, idat = 8, b""
        while position < len(data):
            length, kind = struct.unpack(">I4s", data[position:position + 8])
            body = data[position + 8:position + 8 + length]
            if kind == b"IHDR":
                width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            elif kind == b"IDAT":
                idat += body
            position += 12 + length
        assert depth == 8 and colour in (2, 6) and interlace == 0
        channels = 4 if colour == 6 else 3
        raw = zlib.decompress(idat)
        stride = width * channels
        rows, previous, offset = [], bytearray(stride), 0
        for _ in range(height):
            kind, line = raw[offset], bytearray(raw[offset + 1:offset + 1 + stride])
            offset += 1 + stride
            for i in range(stride):
                left = line[i - channels] if i >= channels else 0
                up = previous[i]
                corner = previous[i - channels] if i >= channels else 0
                if kind == 1: line[i] = (line[i] + left) & 255
                elif kind == 2: line[i] = (line[i] + up) & 255
                elif kind == 3: line[i] = (line[i] + (left + up) // 2) & 255
                elif kind == 4:
                    p = left + up - corner
                    pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                    line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
            rows.append(bytes(line) if channels == 4 else b"".join(bytes(line[i:i + 3]) + b"\\xff" for i in range(0, stride, 3)))
            previous = line
        sys.stdout.buffer.write(struct.pack(">II", width, height) + b"".join(rows))
        """
}
