import Foundation
import Testing
@testable import WebParserCore
@testable import webparse

/// The JSON Schema in `Examples/webparse.schema.json` describes the configs webparse accepts.
@Suite struct SchemaTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let schema = root.appending(path: "Examples/webparse.schema.json")

    /// Every config under Examples/.
    static var exampleConfigs: [URL] {
        let files =
            FileManager.default.enumerator(at: root.appending(path: "Examples"), includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL } ?? []
        return files.filter { $0.pathExtension == "json" && $0.lastPathComponent != "webparse.schema.json" && !$0.path.contains("/.build/") }
    }

    /// Validates each document with Debian's python3-jsonschema (draft 2020-12), after checking the schema
    /// itself against the meta-schema; returns each document's error messages.
    func schemaErrors(_ documents: [String]) throws -> [[String]] {
        let program = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            validator = jsonschema.Draft202012Validator(schema)
            print(json.dumps([[e.message for e in validator.iter_errors(json.loads(d))] for d in json.load(sys.stdin)]))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", program, Self.schema.path]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: documents))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "python3-jsonschema failed; is the schema valid?")
        return try JSONDecoder().decode([[String]].self, from: data)
    }

    @Test func everyExampleConfigMatchesTheSchemaAndLoads() throws {
        let configs = Self.exampleConfigs
        #expect(!configs.isEmpty)
        let errors = try schemaErrors(try configs.map { try String(contentsOf: $0, encoding: .utf8) })
        // The login recipe takes its password from the environment, as a user's config should.
        setenv("COMICS_PASSWORD", "correct horse", 0)
        for (config, problems) in zip(configs, errors) {
            #expect(problems.isEmpty, "\(config.path): \(problems)")
            // A work queue worker's config (defaults, no jobs) is read as webparse work reads it.
            if config.deletingLastPathComponent().lastPathComponent == "queue" {
                #expect(throws: Never.self) { try WorkerConfig.load(path: config.path, environment: [:]) }
            } else {
                #expect(throws: Never.self) { try ConfigLoader.load(path: config.path) }
            }
        }
    }

    @Test func theSchemaNamesExactlyTheJobFields() throws {
        let schema = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.schema)) as? [String: Any]
        let definitions = schema?["$defs"] as? [String: Any]
        let fields = (definitions?["jobFields"] as? [String: Any])?["properties"] as? [String: Any]
        #expect(Set(fields?.keys.map { $0 } ?? []).union(["name"]) == Set(JobFields.all.map(\.key)))
    }

    @Test func theSchemaRejectsWhatTheLoaderRejects() throws {
        let bad = [
            #"{"url": "https://example.com", "scirpt": "1"}"#,
            #"{"url": "javascript:alert(1)", "script": "1"}"#,
            #"{"url": "https://example.com", "script": "1", "timeout": 0}"#,
            #"{"url": "https://example.com", "script": "1", "retries": 11}"#,
            #"{"url": "https://example.com", "script": "1", "scriptFile": "a.js"}"#,
            #"{"url": "https://example.com", "script": "1", "block": ["images"]}"#,
            #"{"url": "https://example.com", "script": "1", "viewport": {"width": 1}}"#,
            #"{"jobs": []}"#,
            #"{"jobs": [{"url": "https://example.com", "script": "1"}], "defaults": {"name": "x"}}"#,
            #"{"url": "https://example.com", "collect": "emitted"}"#,
            #"{"url": "https://example.com", "script": "1", "popups": "open"}"#,
            #"{"url": "https://example.com", "script": "1", "screenshot": {"fullPage": true}}"#,
            "[]"
        ]
        for (document, problems) in zip(bad, try schemaErrors(bad)) {
            #expect(!problems.isEmpty, "the schema accepts \(document)")
        }
        let good = [
            #"{"url": "example.com/updates", "script": "document.title", "viewport": "800x600", "language": "fr"}"#,
            #"{"defaults": {"timeout": 20, "block": []}, "jobs": [{"name": "a", "url": "localhost:8080/x", "scriptFile": "a.js"}]}"#,
            #"{"url": "example.com", "userScripts": ["a.user.js"], "collect": "emitted", "logConsole": true, "screenshot": {"file": "a.png", "fullPage": true}}"#
        ]
        for (document, problems) in zip(good, try schemaErrors(good)) {
            #expect(problems.isEmpty, "the schema rejects \(document): \(problems)")
        }
    }
}
