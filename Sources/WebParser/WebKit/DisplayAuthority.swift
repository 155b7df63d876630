import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The authorization cookie of webparse's private display: an X authority file (`MIT-MAGIC-COOKIE-1`, 128
/// random bits) that only webparse's user can read, 0600 in a 0700 folder of its own.
///
/// Xvfb is started with `-auth` on this file, so it accepts only clients that present the cookie; GTK and
/// WebKit's processes find it through `XAUTHORITY`. Another user on the machine can neither read the cookie
/// nor connect, list webparse's windows or kill its clients. The entry's address and display are wildcards
/// (Xvfb picks its display number after it has read the file), which Xlib and XCB match for any display.
struct DisplayAuthority: Sendable {
    /// The authority file, for Xvfb's `-auth` and for `XAUTHORITY`.
    let path: String
    private let folder: String

    /// Writes a new cookie in a new private folder under the temporary folder.
    /// - Throws: `WebParserError` with kind `.environmentUnavailable` when the folder or file cannot be made.
    static func create() throws -> DisplayAuthority {
        let temporary = FileManager.default.temporaryDirectory.path
        var template = Array((temporary + "/webparse-display-XXXXXX").utf8CString)
        guard let folder = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }).map({ String(cString: $0) }) else {
            throw failure("cannot create a private folder for the display's cookie in \(temporary) (TMPDIR): \(String(cString: strerror(errno)))")
        }
        let authority = DisplayAuthority(path: folder + "/Xauthority", folder: folder)
        let file = open(authority.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard file >= 0 else {
            let reason = String(cString: strerror(errno))
            authority.remove()
            throw failure("cannot write the display's cookie in \(folder): \(reason)")
        }
        defer { close(file) }
        let entry = entry(cookie: (0..<16).map { _ in UInt8.random(in: .min ... .max) })
        if let problem = DescriptorWriter.write(Data(entry), to: file) {
            authority.remove()
            throw failure("cannot write the display's cookie in \(folder): \(String(cString: strerror(problem)))")
        }
        return authority
    }

    /// Removes the file and its folder. Safe to call more than once.
    func remove() {
        unlink(path)
        rmdir(folder)
    }

    /// One X authority entry: family, address, display number, name and data, each length-prefixed (16 bits,
    /// big-endian) after the family; FamilyWild (0xFFFF) with no address and no number matches any display.
    private static func entry(cookie: [UInt8]) -> [UInt8] {
        func counted(_ bytes: [UInt8]) -> [UInt8] { [UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)] + bytes }
        return [0xFF, 0xFF] + counted([]) + counted([]) + counted(Array("MIT-MAGIC-COOKIE-1".utf8)) + counted(cookie)
    }

    private static func failure(_ message: String) -> WebParserError {
        WebParserError(.environmentUnavailable("no display: " + message))
    }
}
