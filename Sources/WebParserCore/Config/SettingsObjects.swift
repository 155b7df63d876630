import FoundationEssentials
import WebParser

/// The keys of a page's and a session's small objects: `viewport` and `proxy` (whose other forms, `"1280x800"` and a
/// proxy's URL, their readers take first).
enum SettingsObjects {
    /// A viewport's sides as they are read.
    struct Size: Sendable {
        var width: Int?
        var height: Int?
    }

    /// A proxy's hosts reached without it; its URL is read with the proxy's other form.
    struct ProxyDraft: Sendable {
        var noProxy: [String] = []
    }

    static let viewport: [ConfigField<Size>] = [
        .member("width", "in CSS pixels (required)") { reader, path, input, size in
            size.width = reader.integer(path, input, in: 1...16_384, what: "a number of pixels")
        },
        .member("height", "in CSS pixels (required)") { reader, path, input, size in
            size.height = reader.integer(path, input, in: 1...16_384, what: "a number of pixels")
        }
    ]

    static let proxy: [ConfigField<ProxyDraft>] = [
        .member("url", "the proxy's URL (required)") { _, _, _, _ in },
        .member("noProxy", "hosts reached without the proxy") { reader, path, input, proxy in
            proxy.noProxy = reader.stringList(path, input, what: "host names") ?? []
        }
    ]
}
