import FoundationEssentials
import WebParserCore

extension CommandOption {
    /// The options of `fields` that have one (`--concurrency`, `--proxy`…), each reading its value at once into
    /// the settings' `draft` with the field's own reader, as a config's value is read; relative paths are
    /// relative to the current folder.
    static func fieldOptions<Draft>(_ fields: [ConfigField<Draft>], into draft: WritableKeyPath<Settings, Draft> & Sendable) -> [Self] {
        fields.compactMap { field in
            field.option.map { option in
                Self(spelling: option.spelling) { settings, value throws(CommandFailure) in
                    let problems = field.readOption(
                        option.adding(value, to: []), into: &settings[keyPath: draft],
                        directory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
                    guard problems.isEmpty else { throw CommandFailure.usage(problems) }
                }
            }
        }
    }
}
