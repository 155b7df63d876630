/// The size of a page's window, in CSS pixels.
public struct Viewport: Sendable, Equatable {
    /// The width, in CSS pixels.
    public var width: Int
    /// The height, in CSS pixels.
    public var height: Int

    /// A viewport of `width` × `height`; 1280×800 by default.
    public init(width: Int = 1280, height: Int = 800) {
        self.width = width
        self.height = height
    }
}
