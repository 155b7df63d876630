import FoundationEssentials
import WebParser

extension FieldReader {
    /// `capture`: one rule `{"url": REGEX, "as": "json" | "text" | "base64", "kinds": ["fetch", "xhr"]}` or a list
    /// of them; an option's value is a URL pattern per use, with the bodies as text.
    mutating func captureRules(_ path: String, _ input: FieldInput) -> [WebParserJob.Capture.Rule]? {
        if case .arguments(let values) = input {
            let rules = values.enumerated().compactMap { index, value in
                rule(at: "\(path)[\(index)]", .arguments([value]))
            }
            return rules.count == values.count ? rules : nil
        }
        let given = input.elements.map { $0.map(FieldInput.node) } ?? [input]
        guard !given.isEmpty else {
            problem(path, at: input, "expected a capture rule {\"url\": REGEX, …} or a list of them, got an empty list")
            return nil
        }
        let rules = given.enumerated().compactMap { index, element in
            rule(input.elements == nil ? path : "\(path)[\(index)]", element)
        }
        return rules.count == given.count ? rules : nil
    }

    /// `captureLimits`: an object of `CaptureFields.limits`, in bytes.
    mutating func captureLimits(_ path: String, _ input: FieldInput) -> CaptureFields.Limits? {
        object(path, input, fields: CaptureFields.limits, into: CaptureFields.Limits(), example: #"{"body": 10, "total": 50}"#)
    }

    /// One rule: an object of `CaptureFields.rule`, whose `url` is required.
    private mutating func rule(_ path: String, _ input: FieldInput) -> WebParserJob.Capture.Rule? {
        object(
            path, input, fields: CaptureFields.rule, into: WebParserJob.Capture.Rule(url: ""), example: #"{"url": REGEX, "as": "json"}"#,
            required: ["url": "required; a regular expression for the URLs to capture"])
    }

    /// A rule for the URLs that the regular expression `input` matches, with the defaults.
    private mutating func rule(at path: String, _ input: FieldInput) -> WebParserJob.Capture.Rule? {
        guard let pattern = string(path, input) else { return nil }
        do {
            _ = try Regex(pattern)
        } catch {
            problem(path, at: input, "expected a regular expression, got \(input.excerpt), which is not one")
            return nil
        }
        return WebParserJob.Capture.Rule(url: pattern)
    }
}

/// The keys of a capture rule and of `captureLimits`.
enum CaptureFields {
    /// A job's capture limits, in bytes.
    struct Limits: Sendable {
        var body = WebParserJob.Capture.defaultBodyLimit
        var total = WebParserJob.Capture.defaultTotalLimit
    }

    static let limits: [ConfigField<Limits>] = [
        .member("body", "the largest body recorded whole, in MiB (default 10)") { reader, path, input, limits in
            if let bytes = reader.mebibytes(path, input) { limits.body = bytes }
        },
        .member("total", "the most bytes of bodies a job records, in MiB (default 50)") { reader, path, input, limits in
            if let bytes = reader.mebibytes(path, input) { limits.total = bytes }
        }
    ]

    /// A rule's keys.
    static let rule: [ConfigField<WebParserJob.Capture.Rule>] = [
        .member("url", "a regular expression for the URLs to capture (required)") { reader, path, input, rule in
            if let pattern = reader.regex(path, input) { rule.url = pattern }
        },
        .member("as", "how bodies are recorded: json, text or base64") { reader, path, input, rule in
            if let body = reader.choice(path, input, WebParserJob.Capture.BodyForm.self) { rule.body = body }
        },
        .member("kinds", "the kinds of request captured") { reader, path, input, rule in
            let names = reader.stringList(path, input, what: "kinds of request")
            let known = WebParserJob.Capture.Kind.allCases.map(\.rawValue)
            for name in names ?? [] where WebParserJob.Capture.Kind(rawValue: name) == nil {
                reader.problem(path, at: input, "unknown kind \"\(name)\"; expected \(known.joined(separator: " or "))")
            }
            rule.kinds = Set((names ?? []).compactMap(WebParserJob.Capture.Kind.init(rawValue:)))
        }
    ]
}

extension FieldReader {
    /// A number of MiB from 0.001 to 4096, in bytes.
    mutating func mebibytes(_ path: String, _ input: FieldInput) -> Int? {
        guard let number = input.number, number >= 0.001, number <= 4096 else {
            problem(path, at: input, "expected a number of MiB from 0.001 to 4096, got \(input.excerpt)")
            return nil
        }
        return Int((number * 1_048_576).rounded())
    }
}
