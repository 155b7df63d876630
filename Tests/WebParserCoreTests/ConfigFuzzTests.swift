import Foundation
import Testing
@testable import WebParserCore

/// A randomized run of the config loader on mutated configs: it must always answer with a config or with
/// problems, never crash or hang. (Scripts/fuzz-config.sh runs libFuzzer on the same loader for longer.)
@Suite struct ConfigFuzzTests {
    /// SplitMix64: small, seedable, so a failure can be replayed from its seed.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let seeds: [[UInt8]] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let corpus = root.appending(path: "BadConfigs")
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.map { corpus.appending(path: $0) }
        let good =
            #"{"defaults": {"timeout": 5, "block": [], "headers": {"A": "b"}}, "jobs": [{"name": "a", "url": "example.com", "script": "1", "viewport": "10x10", "language": ["fr"]}]}"#
        return files.compactMap { try? Array(Data(contentsOf: $0)) } + [Array(good.utf8)]
    }()

    static let fragments: [[UInt8]] = [
        "{", "}", "[", "]", ",", ":", "\"", "\\u00", "null", "true", "-0.5e3", "1e999",
        "\"jobs\"", "\"defaults\"", "\"url\"", "\"script\"", "\"timeout\"", "\"viewport\"",
        "\u{FFFF}", "\n", " "
    ].map { Array($0.utf8) }

    func mutate(_ input: [UInt8], _ generator: inout Generator) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<5, using: &generator) {
            case 0 where !bytes.isEmpty: bytes[position] = UInt8.random(in: 0...255, using: &generator)
            case 1: bytes.insert(contentsOf: Self.fragments.randomElement(using: &generator)!, at: position)
            case 2 where !bytes.isEmpty:
                bytes.removeSubrange(position..<min(bytes.count, position + Int.random(in: 1...8, using: &generator)))
            case 3:
                let other = Self.seeds.randomElement(using: &generator)!
                bytes.insert(contentsOf: other.prefix(Int.random(in: 0...other.count, using: &generator)), at: position)
            default: bytes.insert(UInt8.random(in: 0x20...0x7E, using: &generator), at: position)
            }
        }
        return bytes
    }

    @Test func mutatedConfigsGetAConfigOrProblems() {
        var generator = Generator(state: 0x5EED_0001)
        let directory = URL(fileURLWithPath: NSTemporaryDirectory())
        var accepted = 0
        for iteration in 0..<20_000 {
            let input = mutate(Self.seeds.randomElement(using: &generator)!, &generator)
            do {
                let config = try ConfigLoader.parse(input, name: "fuzz.json", directory: directory)
                accepted += 1
                #expect(config.jobs.allSatisfy { !$0.name.isEmpty && !$0.job.evaluation.script.isEmpty }, "iteration \(iteration)")
                #expect(Set(config.jobs.map(\.name)).count == config.jobs.count, "iteration \(iteration)")
            } catch {
                #expect(!error.problems.isEmpty && error.problems.allSatisfy { !$0.message.isEmpty }, "iteration \(iteration)")
            }
        }
        #expect(accepted > 0, "some mutations should still be valid configs")
    }
}
