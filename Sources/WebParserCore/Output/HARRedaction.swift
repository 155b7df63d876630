import FoundationEssentials
import WebParser

/// Keeps the values that steps typed from the environment (`{"env": NAME}`) out of a HAR file: each is replaced by
/// `[env NAME]` in a request's URL, headers and what it sent (a form's field whose value it is, whatever its
/// length), and in responses' headers and bodies, as typed and as forms and URLs encode it.
struct HARRedaction {
    /// Values shorter than this are replaced only where they are a whole field's value: a shorter one would be
    /// found in ordinary text by chance.
    static let shortestFound = 4

    /// A secret: its variable's name, its value, what replaces it, and the forms text is searched for (none for a
    /// value shorter than `shortestFound`).
    private struct Secret {
        var value: String
        var replacement: String
        var forms: [String]
    }

    private let secrets: [Secret]

    init(secrets: [String: String]) {
        // Longer values first: one that holds another is replaced whole.
        self.secrets = secrets.filter { !$0.value.isEmpty }.sorted { $0.value.count > $1.value.count }.map { name, value in
            let forms = [value, Self.formEncoded(value), Self.percentEncoded(value, keeping: "-._~")]
            return Secret(value: value, replacement: "[env \(name)]", forms: value.count < Self.shortestFound ? [] : Array(Set(forms)))
        }
    }

    /// `request` with every secret replaced.
    func redacted(_ request: WebParserRequest) -> WebParserRequest {
        guard !secrets.isEmpty else { return request }
        var request = request
        request.url = redactedURL(request.url)
        for index in request.requestHeaders.indices { request.requestHeaders[index].value = replaced(in: request.requestHeaders[index].value) }
        for index in request.responseHeaders.indices { request.responseHeaders[index].value = replaced(in: request.responseHeaders[index].value) }
        if var sent = request.sent {
            if let fields = Self.formFields(of: sent) {
                sent.body = Data(formText(fields).utf8)
            } else if let text = String(validating: sent.body, as: UTF8.self) {
                sent.body = Data(replaced(in: text).utf8)
            }
            request.sent = sent
        }
        if let body = request.body, let text = String(validating: body, as: UTF8.self) {
            request.body = Data(replaced(in: text).utf8)
        }
        return request
    }

    /// The fields a form sent (`application/x-www-form-urlencoded`, or `multipart/form-data` as the hook reports it:
    /// its fields URL-encoded), decoded; nil for a body of another type, or not UTF-8.
    static func formFields(of sent: WebParserRequest.SentBody) -> [(name: String, value: String)]? {
        let type = sent.contentType.lowercased()
        guard type.hasPrefix("application/x-www-form-urlencoded") || type.hasPrefix("multipart/form-data"),
            let text = String(validating: sent.body, as: UTF8.self)
        else { return nil }
        return text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (part: Substring) in percentDecoded(String(part).replacing("+", with: " ")) }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    /// `fields` as a form's `application/x-www-form-urlencoded` body, as browsers encode it (`URLSearchParams`),
    /// a secret's value as `[env NAME]`, readable.
    private func formText(_ fields: [(name: String, value: String)]) -> String {
        fields.map { field in
            let value = whole(field.value) ?? replaced(in: Self.formEncoded(field.value))
            return "\(Self.formEncoded(field.name))=\(value)"
        }.joined(separator: "&")
    }

    /// `text` as `URLSearchParams` encodes it: ASCII letters, digits and `*-._` as they are, a space as `+`, any
    /// other byte of its UTF-8 as `%XX`.
    private static func formEncoded(_ text: String) -> String {
        percentEncoded(text, keeping: "*-._", space: "+")
    }

    /// `text` with every byte of its UTF-8 but ASCII letters, digits and `keeping` as `%XX` (a space as `space`).
    private static func percentEncoded(_ text: String, keeping: String, space: String = "%20") -> String {
        var encoded = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 128 && (scalar.properties.isAlphabetic || ("0"..."9").contains(Character(scalar)) || keeping.unicodeScalars.contains(scalar)) {
                encoded.unicodeScalars.append(scalar)
            } else if byte == UInt8(ascii: " ") {
                encoded += space
            } else {
                encoded += (byte < 16 ? "%0" : "%") + String(byte, radix: 16, uppercase: true)
            }
        }
        return encoded
    }

    /// `text` with each `%XX` as its byte (the bytes read as UTF-8).
    private static func percentDecoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        var rest = Substring(text).utf8[...]
        while let byte = rest.first {
            if byte == UInt8(ascii: "%"), rest.count >= 3, let value = UInt8(String(decoding: rest.dropFirst().prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                rest = rest.dropFirst(3)
            } else {
                bytes.append(byte)
                rest = rest.dropFirst()
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `[env NAME]` when `value` is a secret's whole value; nil otherwise.
    private func whole(_ value: String) -> String? {
        secrets.first { $0.value == value }?.replacement
    }

    /// `url` with secrets replaced in its query's values (whole) and anywhere in it (as encoded).
    private func redactedURL(_ url: String) -> String {
        guard var components = URLComponents(string: url), let items = components.queryItems,
            items.contains(where: { item in item.value.flatMap(whole) != nil })
        else { return replaced(in: url) }
        components.queryItems = items.map { item in URLQueryItem(name: item.name, value: item.value.map { whole($0) ?? replaced(in: $0) }) }
        return replaced(in: components.string ?? url)
    }

    /// `text` with each secret of at least `shortestFound` characters replaced, as typed, as a form encodes it,
    /// and percent-encoded.
    private func replaced(in text: String) -> String {
        var text = text
        for secret in secrets {
            for form in secret.forms { text = text.replacing(form, with: secret.replacement) }
        }
        return text
    }
}
