import FoundationEssentials
import WebParser

/// The keys of a page's and a session's small objects: `viewport`, `auth` and `proxy` (whose other forms,
/// `"1280x800"`, an option's user name and a proxy's URL, their readers take first).
enum SettingsObjects {
    /// A viewport's sides as they are read.
    struct Size: Sendable {
        var width: Int?
        var height: Int?
    }

    /// A proxy's URL as given (read as the proxy's other form is) and the hosts reached without it.
    struct ProxyDraft: Sendable {
        var url: FieldInput?
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

    /// HTTP credentials' keys, each kept as given: the password and the variable that holds it exclude each other,
    /// which `FieldReader.credentials` checks once all are read.
    static let auth: [ConfigField<[String: FieldInput]>] = [
        .member("user", "the user name (required)") { _, _, input, given in given["user"] = input },
        .member("password", "the password") { _, _, input, given in given["password"] = input },
        .member("passwordEnv", "the environment variable that holds the password") { _, _, input, given in given["passwordEnv"] = input }
    ]

    static let proxy: [ConfigField<ProxyDraft>] = [
        .member("url", "the proxy's URL (required)") { _, _, input, proxy in proxy.url = input },
        .member("noProxy", "hosts reached without the proxy") { reader, path, input, proxy in
            proxy.noProxy = reader.stringList(path, input, what: "host names") ?? []
        }
    ]
}
