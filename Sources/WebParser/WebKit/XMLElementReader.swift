internal import CWebKitGTK

/// An XML file read element by element as a stream (libxml2's reader, gzip'd files too), in bounded memory: a file
/// of any size is read without holding more than an element's text. No entity or DTD is loaded from anywhere.
public enum XMLElementReader {
    /// An element, as it ended.
    public struct Element: Sendable {
        /// How deep it is: the root is 0.
        public let depth: Int
        /// Its local name (without a namespace prefix).
        public let name: String
        /// The text directly inside it, at most the `maxText` bytes `read` was given.
        public let text: String
        /// How many bytes of the file (after decompression) have been read up to it.
        public let consumed: Int
    }

    /// Why a file could not be read to its end: where (a line, 1-based, when known) and libxml2's words.
    public struct Malformed: Error, Sendable {
        /// The line of the file the reader stopped at; nil when unknown.
        public let line: Int?
        /// What is wrong, in libxml2's words.
        public let message: String
    }

    /// Reads the XML file at `path`, telling `onElement` of each element as it ends until it returns false; past a
    /// fault libxml2 can recover from (a tag not closed, a stray `&`), as a browser does.
    /// - Throws: `Malformed` (its first fault) when the file is not well-formed XML or cannot be opened, after the
    ///   elements read.
    public static func read(_ path: String, maxText: Int, onElement: (Element) -> Bool) throws(Malformed) {
        var line: UInt32 = 0
        var message: UnsafeMutablePointer<CChar>?
        let valid = withoutActuallyEscaping(onElement) { onElement in
            var listener = onElement
            return withUnsafeMutablePointer(to: &listener) { pointer in
                wk_xml_read_elements(
                    path, UInt32(clamping: maxText),
                    { context, depth, name, text, consumed in
                        let onElement = context!.assumingMemoryBound(to: ((Element) -> Bool).self).pointee
                        return onElement(
                            Element(
                                depth: Int(depth), name: String(cString: name!), text: String(cString: text!),
                                consumed: Int(clamping: consumed)))
                    }, pointer, &line, &message)
            }
        }
        guard !valid else { return }
        defer { wk_free(message) }
        throw Malformed(line: line == 0 ? nil : Int(line), message: message.map { String(cString: $0) } ?? "not well-formed XML")
    }
}
