import FoundationEssentials
import WebParser

extension FieldReader {
    /// The members of `input`, a config's object at `path`, or the same object given as JSON to an option;
    /// `example` is such an object, for the problem when `input` is not one.
    /// - Returns: nil when `input` is not an object (the problem recorded), with the input the members are of.
    mutating func members(_ path: String, _ input: FieldInput, example: String) -> (members: [(key: String, value: JSONNode)], of: FieldInput)? {
        var given = input
        if case .arguments(let values) = input, let text = values.last {
            do throws(JSONSyntaxError) {
                given = .node(try JSONNode.parse(Array(text.utf8)))
            } catch {
                problem(path, at: input, "expected a JSON object such as \(example): \(error.message)")
                return nil
            }
        }
        guard let members = given.members else {
            problem(path, at: given, "expected an object such as \(example), got \(given.excerpt)")
            return nil
        }
        return (members, given)
    }

    /// Reads `input`, an object at `path` whose keys are those of `fields` (on the command line, the same object as
    /// JSON), into `object`: each key by its field's reader, an unknown key a problem, and each key of `required`
    /// that is missing a problem with its message.
    /// - Returns: the object read, or nil when any of it is wrong (each problem recorded).
    mutating func object<Object>(
        _ path: String, _ input: FieldInput, fields: [ConfigField<Object>], into object: Object, example: String,
        required: KeyValuePairs<String, String> = [:]
    ) -> Object? {
        let found = problemsFound
        guard let (members, given) = members(path, input, example: example) else { return nil }
        _ = knownKeysOnly(members, fields.map(\.key), at: path)
        var object = object
        for (key, node) in members {
            fields.first { $0.key == key }?.read(&self, path + "." + key, .node(node), &object)
        }
        for (key, message) in required where !members.contains(where: { $0.key == key }) {
            problem(path + "." + key, at: given, message)
        }
        return problemsFound == found ? object : nil
    }
}

extension ConfigField {
    /// A key of a nested object, read by `read` into the object being built.
    static func member(_ key: String, _ summary: String, read: @escaping @Sendable (inout FieldReader, String, FieldInput, inout Draft) -> Void)
        -> Self
    {
        Self(key: key, summary: summary, option: nil, read: read)
    }
}
