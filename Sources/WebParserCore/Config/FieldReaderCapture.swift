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

    /// `captureLimits`: `{"body": MiB, "total": MiB}`, each optional (10 and 50 by default), in bytes.
    mutating func captureLimits(_ path: String, _ input: FieldInput) -> (body: Int, total: Int)? {
        guard let members = input.members else {
            problem(path, at: input, "expected {\"body\": MiB, \"total\": MiB}, got \(input.excerpt)")
            return nil
        }
        var limits = (body: WebParserJob.Capture.defaultBodyLimit, total: WebParserJob.Capture.defaultTotalLimit)
        var valid = true
        for (key, value) in members {
            guard key == "body" || key == "total" else {
                problem(path + "." + key, at: .node(value), "unknown key; captureLimits has \"body\" and \"total\"")
                valid = false
                continue
            }
            guard let number = FieldInput.node(value).number, number >= 0.001, number <= 4096 else {
                problem(path + "." + key, at: .node(value), "expected a number of MiB from 0.001 to 4096, got \(FieldInput.node(value).excerpt)")
                valid = false
                continue
            }
            let bytes = Int((number * 1_048_576).rounded())
            if key == "body" { limits.body = bytes } else { limits.total = bytes }
        }
        return valid ? limits : nil
    }

    private mutating func rule(_ path: String, _ input: FieldInput) -> WebParserJob.Capture.Rule? {
        let keys = ["url", "as", "kinds"]
        guard let members = input.members else {
            problem(path, at: input, "expected a capture rule {\"url\": REGEX, \"as\": \"json\"} or a list of them, got \(input.excerpt)")
            return nil
        }
        var valid = knownKeysOnly(members, keys, at: path)
        guard let urlNode = members.first(where: { $0.key == "url" })?.value else {
            problem(path + ".url", at: input, "required; a regular expression for the URLs to capture")
            return nil
        }
        guard var rule = self.rule(at: path + ".url", .node(urlNode)) else { return nil }
        if let form = members.first(where: { $0.key == "as" }).map({ FieldInput.node($0.value) }) {
            if let body = choice(path + ".as", form, WebParserJob.Capture.BodyForm.self) { rule.body = body } else { valid = false }
        }
        if let kinds = members.first(where: { $0.key == "kinds" }).map({ FieldInput.node($0.value) }) {
            let names = stringList(path + ".kinds", kinds, what: "kinds of request")
            if names == nil { valid = false }
            let known = WebParserJob.Capture.Kind.allCases.map(\.rawValue)
            for name in names ?? [] where WebParserJob.Capture.Kind(rawValue: name) == nil {
                problem(path + ".kinds", at: kinds, "unknown kind \"\(name)\"; expected \(known.joined(separator: " or "))")
                valid = false
            }
            rule.kinds = Set((names ?? []).compactMap(WebParserJob.Capture.Kind.init(rawValue:)))
        }
        return valid ? rule : nil
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
