import FoundationEssentials

/// Turns the JSON text a job's script produced into a value.
public protocol WebParserMapper<Output>: Sendable {
    /// The value the mapper produces.
    associatedtype Output: Sendable

    /// Maps `data`, the UTF-8 JSON text of the script's result.
    /// - Throws: whatever the mapper finds wrong with `data`, such as a `DecodingError`.
    func map(_ data: Data) throws -> Output
}

/// Decodes the result into a `Decodable` type with a `JSONDecoder`.
public struct JSONMapper<Output: Decodable & Sendable>: WebParserMapper {
    private let makeDecoder: @Sendable () -> JSONDecoder

    /// Creates a mapper to `type`; `makeDecoder` configures the decoder (date and key strategies…).
    public init(_ type: Output.Type = Output.self, decoder makeDecoder: @escaping @Sendable () -> JSONDecoder = { JSONDecoder() }) {
        self.makeDecoder = makeDecoder
    }

    /// Decodes `data`.
    /// - Throws: `DecodingError` when the JSON does not fit `Output`.
    public func map(_ data: Data) throws -> Output {
        try makeDecoder().decode(Output.self, from: data)
    }
}

/// Maps the result with a closure.
public struct ClosureMapper<Output: Sendable>: WebParserMapper {
    private let transform: @Sendable (Data) throws -> Output

    /// Creates a mapper that calls `transform` with the result's JSON text.
    public init(_ transform: @escaping @Sendable (Data) throws -> Output) {
        self.transform = transform
    }

    /// Calls the closure.
    /// - Throws: whatever the closure throws.
    public func map(_ data: Data) throws -> Output {
        try transform(data)
    }
}

/// Hands the result's JSON text back unchanged, byte for byte as the page produced it.
public struct RawJSONMapper: WebParserMapper {
    /// Creates the mapper.
    public init() {}

    /// Returns `data` itself. Never throws.
    public func map(_ data: Data) -> Data { data }
}
