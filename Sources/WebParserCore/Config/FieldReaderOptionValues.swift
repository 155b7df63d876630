import FoundationEssentials
import WebParser

/// The values of command-only options (`--fail-after`, `--lease`…), read as a config's fields are: the same ranges,
/// the same words for a value out of them.
extension FieldReader {
    /// The whole number an option gives (`--fail-after 3`), read as a field's is, within `range`.
    /// - Throws: `ConfigError` with the problem (`--fail-after: expected a number of runs from 1 to 1000, got "x"`).
    package static func count(of option: String, _ text: String, in range: ClosedRange<Int>, what: String) throws(ConfigError) -> Int {
        try reading { $0.integer(option, .arguments([text]), in: range, what: what) }
    }

    /// The seconds an option gives (`--lease 30`), read as a field's are, within `range`.
    /// - Throws: `ConfigError` with the problem (`--lease: expected a number of seconds from 2 to 3600, got "x"`).
    package static func seconds(of option: String, _ text: String, in range: ClosedRange<Double>) throws(ConfigError) -> Duration {
        try reading { $0.seconds(option, .arguments([text]), in: range) }
    }

    /// What `read` makes of an option's value with a reader of its own; its problems when it makes nothing.
    private static func reading<Value>(_ read: (inout FieldReader) -> Value?) throws(ConfigError) -> Value {
        var reader = FieldReader(directory: URL(fileURLWithPath: "/"), environment: [:])
        guard let value = read(&reader) else { throw ConfigError(file: "", problems: reader.problems) }
        return value
    }
}
