/// A Swift value handed to the C shim as a one-shot callback's context pointer: retained until the callback
/// takes it back, once. The one way webparse passes a continuation, a completion or a job through C.
final class CallbackBox<Value> {
    private let value: Value

    private init(_ value: Value) {
        self.value = value
    }

    /// `value` as a context pointer, retained until `take(_:)`.
    static func retained(_ value: Value) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(CallbackBox(value)).toOpaque()
    }

    /// The value behind `pointer`, a pointer from `retained(_:)`, released: call it once per pointer.
    static func take(_ pointer: UnsafeMutableRawPointer?) -> Value {
        Unmanaged<CallbackBox>.fromOpaque(pointer!).takeRetainedValue().value
    }
}
