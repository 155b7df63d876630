import Foundation
import Testing

/// Every public symbol of the libraries says what it is for: a `///` comment right above it (above its
/// attributes, if any), and so does every case of a public enum.
@Suite struct DocumentationTests {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appending(path: "Sources")

    @Test func everyPublicSymbolHasADocComment() throws {
        let files = try ["WebParser", "WebParserCore", "WebParserQueue"].flatMap { module in
            try #require(FileManager.default.enumerator(at: Self.sources.appending(path: module), includingPropertiesForKeys: nil))
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        }
        #expect(files.count > 60)
        var undocumented: [String] = []
        var publicSymbols = 0
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            var publicEnumIndents: [Int] = []
            for (index, line) in lines.enumerated() {
                let text = line.trimmingCharacters(in: .whitespaces)
                let indent = line.prefix { $0 == " " }.count
                if let last = publicEnumIndents.last, text == "}", indent == last {
                    publicEnumIndents.removeLast()
                    continue
                }
                let declaration = Self.withoutAttributes(text)
                let isPublic = declaration.hasPrefix("public ") || declaration.hasPrefix("nonisolated public ")
                let isEnumCase = text.hasPrefix("case ") && publicEnumIndents.last.map { indent == $0 + 4 } == true
                if declaration.hasPrefix("public enum ") || declaration.hasPrefix("public indirect enum ") {
                    publicEnumIndents.append(indent)
                }
                guard isPublic || isEnumCase else { continue }
                publicSymbols += 1
                var above = index - 1
                while above >= 0, lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("@") { above -= 1 }
                if above < 0 || !lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("///") {
                    undocumented.append("\(file.lastPathComponent):\(index + 1): \(text)")
                }
            }
        }
        #expect(publicSymbols > 100)
        #expect(undocumented.isEmpty, "without a doc comment:\n\(undocumented.joined(separator: "\n"))")
    }

    /// `text` without leading attributes such as `@WebKitActor` or `@discardableResult`.
    private static func withoutAttributes(_ text: String) -> String {
        var rest = Substring(text)
        while rest.hasPrefix("@"), let space = rest.firstIndex(of: " ") {
            rest = rest[rest.index(after: space)...].drop { $0 == " " }
        }
        return String(rest)
    }
}
