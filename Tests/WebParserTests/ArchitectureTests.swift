import Foundation
import Testing

/// The folders of the Swift modules and what their files may import, as ARCHITECTURE.md says: only `WebKit/` and
/// `System/` of WebParser import the C shim; no Swift file lies loose at a module's root but the executable's entry
/// point.
@Suite struct ArchitectureTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Sources")

    /// The Swift files under `module`, as paths relative to it.
    func files(of module: String) throws -> [String] {
        let root = Self.sources.appending(path: module)
        return try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)).compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" }.map { String($0.path.dropFirst(root.path.count + 1)) }.sorted()
    }

    func imports(_ module: String, _ file: String) throws -> [String] {
        try String(contentsOf: Self.sources.appending(path: module).appending(path: file), encoding: .utf8).split(separator: "\n")
            .compactMap { line in line.firstMatch(of: /^(?:(?:internal|package|public|@_implementationOnly) )?import (\w+)/).map { String($0.1) } }
    }

    @Test func onlyWebKitAndSystemImportTheShim() throws {
        let files = try files(of: "WebParser")
        #expect(files.count > 80)
        var wrong: [String] = []
        for file in files where try imports("WebParser", file).contains("CWebKitGTK") {
            let folder = file.split(separator: "/").first.map(String.init) ?? ""
            if !["WebKit", "System"].contains(folder) { wrong.append(file) }
        }
        #expect(wrong.isEmpty, "import the shim outside WebKit/ and System/: \(wrong)")
        for module in ["WebParserCore", "webparse"] {
            for file in try self.files(of: module) {
                #expect(try !imports(module, file).contains("CWebKitGTK"), "\(module)/\(file) imports the shim")
            }
        }
    }

    @Test func noFileLiesLooseAtAModulesRoot() throws {
        for module in ["WebParser", "WebParserCore", "webparse"] {
            let loose = try files(of: module).filter { !$0.contains("/") }
            #expect(loose == (module == "webparse" ? ["MainCommand.swift"] : []), "\(module): \(loose)")
        }
    }

    /// A file holds one concept: none of the Swift modules' files is over 400 lines.
    @Test func noFileIsOver400Lines() throws {
        for module in ["WebParser", "WebParserCore", "webparse"] {
            for file in try files(of: module) {
                let lines =
                    try String(contentsOf: Self.sources.appending(path: module).appending(path: file), encoding: .utf8)
                    .split(separator: "\n", omittingEmptySubsequences: false).count - 1
                #expect(lines <= 400, "\(module)/\(file) has \(lines) lines")
            }
        }
    }

    @Test func theMachinesAndScriptsRunNothingOfWebKits() throws {
        for file in try files(of: "WebParser") where file.hasPrefix("Machines/") || file.hasPrefix("Scripts/") || file.hasPrefix("Engine/") {
            let text = try String(contentsOf: Self.sources.appending(path: "WebParser").appending(path: file), encoding: .utf8)
            #expect(!text.contains("wk_"), "\(file) calls the shim")
        }
    }

    /// The page's JavaScript lives in `.js` files (PageJavaScript/scripts), each compiled in: no string literal of
    /// WebParser's is over 15 lines, and every file is embedded.
    @Test func thePagesJavaScriptLivesInItsOwnFiles() throws {
        for file in try files(of: "WebParser") {
            let lines = try String(contentsOf: Self.sources.appending(path: "WebParser").appending(path: file), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
            var opened: Int?
            for (number, line) in lines.enumerated() {
                if let start = opened, line.trimmingCharacters(in: .whitespaces).hasPrefix("\"\"\"") {
                    #expect(number - start - 1 <= 15, "\(file):\(start + 1) has a literal of \(number - start - 1) lines")
                    opened = nil
                } else if opened == nil, line.hasSuffix("\"\"\"") {
                    opened = number
                }
            }
        }
        let folder = Self.sources.appending(path: "PageJavaScript")
        let embedder = try String(contentsOf: folder.appending(path: "page_javascript.c"), encoding: .utf8)
        let scripts = try FileManager.default.contentsOfDirectory(atPath: folder.appending(path: "scripts").path)
        #expect(scripts.count >= 8)
        for script in scripts {
            #expect(embedder.contains("#embed \"scripts/\(script)\" suffix(, 0,)"), "\(script) is not compiled in")
        }
    }
}
