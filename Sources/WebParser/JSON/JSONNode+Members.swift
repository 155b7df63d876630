extension JSONNode {
    /// The member `key` of an object (the last one when the key repeats); nil for a missing key or another value.
    package subscript(key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        return members.last { $0.key == key }?.value
    }

    /// The text of a string; nil for another value.
    package var string: String? { if case .string(let text) = value { text } else { nil } }

    /// The flag of a boolean; nil for another value.
    package var bool: Bool? { if case .bool(let flag) = value { flag } else { nil } }

    /// The elements of an array; nil for another value.
    package var array: [JSONNode]? { if case .array(let elements) = value { elements } else { nil } }

    /// Whether the value is an object.
    package var isObject: Bool { if case .object = value { true } else { false } }
}
