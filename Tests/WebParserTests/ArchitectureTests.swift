import Foundation
import Testing

/// The invariants ARCHITECTURE.md states that a test can check: what each module and folder may import and hold,
/// the shim without policy, the page's JavaScript in its own files, files of one concept, and a code map that names
/// every target and folder.
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

    /// The machines are plain values: no lock, no continuation, no task, no queue, no clock of their own (the time
    /// they decide on comes in their events).
    @Test func theMachinesRunNothing() throws {
        let runners = ["Mutex", "Continuation", "DispatchQueue", "Task {", "Task.", "Thread", "ContinuousClock.now", ".now()", "Date()"]
        let files = try files(of: "WebParser").filter { $0.hasPrefix("Machines/") }
        #expect(files.count > 15)
        for file in files {
            let text = try String(contentsOf: Self.sources.appending(path: "WebParser").appending(path: file), encoding: .utf8)
            let held = runners.filter { text.contains($0) }
            #expect(held.isEmpty, "\(file) holds \(held)")
            #expect(try imports("WebParser", file).allSatisfy { $0 == "FoundationEssentials" }, "\(file) imports more than data types")
        }
    }

    /// Only WebParserQueue talks to Redis (through CRedis, from RedisConnection).
    @Test func onlyTheQueueImportsCRedis() throws {
        for module in ["WebParser", "WebParserCore", "webparse", "WebParserQueue"] {
            for file in try files(of: module) where try imports(module, file).contains("CRedis") {
                #expect(module == "WebParserQueue" && file == "RedisConnection.swift", "\(module)/\(file) imports CRedis")
            }
        }
    }

    /// The Swift modules import FoundationEssentials, never Foundation (which links ICU's data into the binary).
    @Test func noModuleImportsFoundation() throws {
        for module in ["WebParser", "WebParserCore", "webparse", "WebParserQueue"] {
            for file in try files(of: module) {
                #expect(try !imports(module, file).contains("Foundation"), "\(module)/\(file) imports Foundation")
            }
        }
    }

    /// Each C target reads its own headers and its dependencies' (never another target's by a path), and the shim
    /// holds no policy: no timer of a length of its own.
    @Test func theCTargetsKeepToThemselves() throws {
        let cFiles = try #require(FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil)).compactMap { $0 as? URL }
            .filter { ["c", "h"].contains($0.pathExtension) }
        #expect(cFiles.count > 30)
        for file in cFiles {
            let text = try String(contentsOf: file, encoding: .utf8)
            let byPath = text.contains("#include \"../")
            #expect(!byPath, "\(file.lastPathComponent) includes another target's header")
            let timed = file.path.contains("/CWebKitGTK/") && text.firstMatch(of: /g_timeout_add(_seconds)?(_full)?\(\s*[0-9]/) != nil
            #expect(!timed, "\(file.lastPathComponent) sets a time of its own")
        }
    }

    /// ARCHITECTURE.md's code map has a paragraph for every target and names every folder of WebParser.
    @Test func theCodeMapNamesEveryTargetAndFolder() throws {
        let map = try String(contentsOf: Self.sources.deletingLastPathComponent().appending(path: "ARCHITECTURE.md"), encoding: .utf8)
        let targets = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path)
        #expect(targets.count > 10)
        let unmapped = targets.filter { !$0.hasSuffix("System") && !map.contains("`Sources/\($0)`") }
        #expect(unmapped.isEmpty, "ARCHITECTURE.md has no paragraph for \(unmapped)")
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.sources.appending(path: "WebParser").path)
        let unnamed = folders.filter { !map.contains("`\($0)/`") }
        #expect(unnamed.isEmpty, "ARCHITECTURE.md does not name WebParser's \(unnamed)")
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
