import FoundationEssentials
import WebParser

extension FieldReader {
    /// `extract`: `{"items": SELECTOR, "fields": {NAME: FIELD, …}}` (without `items`, one object of the whole
    /// document). A field is a selector relative to the item (`"a@href"` reads an attribute, `"@href"` the item's
    /// own, `"."` the item, `"xpath:…"` XPath), `{"selector", "attribute", "as", "all", "required"}`, or nested
    /// `{"items", "fields"}`. Every selector is checked here.
    mutating func extraction(_ path: String, _ input: FieldInput) -> Extraction? {
        guard
            let draft = object(
                path, input, fields: ExtractFields.extraction, into: ExtractFields.Draft(),
                example: #"{"items": ".chapter", "fields": {"title": ".title"}}"#,
                required: ["fields": "required: the fields of each item, {NAME: SELECTOR, …}"]),
            let fields = draft.fields
        else { return nil }
        return Extraction(items: draft.items, fields: fields)
    }

    /// The command line's form: `--items SELECTOR` (or none, for one object) and `--field NAME=FIELD` per field,
    /// FIELD written as in a config (`a@href`, `xpath:…`, `.`).
    package mutating func extraction(items: String?, fields: [String]) -> Extraction? {
        let found = problemsFound
        let checkedItems = items.flatMap { selector("--items", .arguments([$0])) }
        var list: [Extraction.Field] = []
        for text in fields {
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                problem("--field", at: .arguments([text]), "expected NAME=SELECTOR, such as title=.title or url=a@href, got '\(text)'")
                continue
            }
            let name = String(text[..<equals])
            if let field = field(name, "--field \(name)", .arguments([String(text[text.index(after: equals)...])])) { list.append(field) }
        }
        if list.isEmpty && problemsFound == found {
            problem("--field", at: .arguments([]), "--items needs at least one --field NAME=SELECTOR")
        }
        return problemsFound == found ? Extraction(items: checkedItems, fields: list) : nil
    }

    mutating func field(_ name: String, _ path: String, _ input: FieldInput) -> Extraction.Field? {
        if let text = input.text {
            let (selectorText, attribute) = Self.splitAttribute(text)
            guard let selector = selector(path, .arguments([selectorText]), at: input) else { return nil }
            return Extraction.Field(name: name, value: .read(.init(selector: selector, attribute: attribute)))
        }
        guard let members = input.members else {
            problem(path, at: input, "expected a selector (\"a@href\"), {\"selector\": …, \"as\": …} or {\"items\": …, \"fields\": …}, got \(input.excerpt)")
            return nil
        }
        let required = members.first { $0.key == "required" }.flatMap { bool(path + ".required", .node($0.value)) } ?? false
        if members.contains(where: { $0.key == "items" || $0.key == "fields" }), case .node(let node) = input {
            var nested = node
            nested.value = .object(members.filter { $0.key != "required" })
            guard let extraction = extraction(path, .node(nested)) else { return nil }
            return Extraction.Field(name: name, value: .items(extraction), required: required)
        }
        guard
            let draft = object(
                path, input, fields: ExtractFields.field, into: ExtractFields.FieldDraft(), example: #"{"selector": "a", "attribute": "href"}"#,
                required: ["selector": "required: a selector relative to the item (\".\" for the item itself)"]),
            let selector = draft.selector
        else { return nil }
        let read = Extraction.Read(selector: selector, attribute: draft.attribute ?? draft.selectorAttribute, form: draft.form, all: draft.all)
        return Extraction.Field(name: name, value: .read(read), required: required)
    }

    /// A CSS selector, `xpath:EXPRESSION` or `.`, checked; `place` is where a problem is reported (default `input`).
    mutating func selector(_ path: String, _ input: FieldInput, at place: FieldInput? = nil) -> String? {
        guard let text = string(path, input) else { return nil }
        let place = place ?? input
        if text == "." { return text }
        if text.hasPrefix("xpath:") {
            if let problem = XPathSyntax.problem(in: String(text.dropFirst(6))) {
                self.problem(path, at: place, "not a valid XPath expression: \(problem)")
                return nil
            }
            return text
        }
        if let problem = CSSSelectorSyntax.problem(in: text) {
            self.problem(path, at: place, "not a valid CSS selector: \(problem)")
            return nil
        }
        return text
    }

    /// `"a@href"` as the selector `a` and the attribute `href`; `"@href"` is the item's own attribute (`.`). The
    /// `@` of an XPath expression, or inside a CSS attribute selector's brackets or quotes, is the selector's.
    static func splitAttribute(_ text: String) -> (selector: String, attribute: String?) {
        guard !text.hasPrefix("xpath:") else { return (text, nil) }
        var depth = 0
        var quote: Character?
        var at: String.Index?
        for index in text.indices {
            let character = text[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "[" {
                depth += 1
            } else if character == "]" {
                depth -= 1
            } else if character == "@" && depth == 0 {
                at = index
            }
        }
        guard let at else { return (text, nil) }
        let selector = text[..<at].trimmingSpaces()
        let attribute = text[text.index(after: at)...].trimmingSpaces()
        return (selector.isEmpty ? "." : selector, attribute.isEmpty ? nil : attribute)
    }

    /// `feed`: an object of `ExtractFields.feed`, each optional.
    mutating func feedFields(_ path: String, _ input: FieldInput) -> Tracking.FeedFields? {
        object(path, input, fields: ExtractFields.feed, into: Tracking.FeedFields(), example: #"{"title": FIELD, "link": FIELD}"#)
    }
}

/// The keys of `extract`, of an extracted field's object and of `feed`.
enum ExtractFields {
    /// An extraction as its keys are read.
    struct Draft: Sendable {
        var items: String?
        var fields: [Extraction.Field]?
    }

    /// A field's object as its keys are read: the selector, with the attribute its text names (`"a@href"`), and
    /// the attribute given on its own, which wins.
    struct FieldDraft: Sendable {
        var selector: String?
        var selectorAttribute: String?
        var attribute: String?
        var form = Extraction.Read.Form.text
        var all = false
    }

    static let extraction: [ConfigField<Draft>] = [
        .member("items", "a selector of the items; without it, one object of the whole document") { reader, path, input, draft in
            draft.items = reader.selector(path, input)
        },
        .member("fields", "the fields of each item, {NAME: SELECTOR, …} (required)") { reader, path, input, draft in
            guard let members = input.members, !members.isEmpty else {
                reader.problem(path, at: input, "expected an object of field names to selectors, got \(input.excerpt)")
                return
            }
            let fields = members.compactMap { name, node in reader.field(name, path + "." + name, .node(node)) }
            if fields.count == members.count { draft.fields = fields }
        }
    ]

    static let field: [ConfigField<FieldDraft>] = [
        .member("selector", "a selector relative to the item (required; \".\" for the item itself)") { reader, path, input, draft in
            guard let text = reader.string(path, input) else { return }
            let (selector, attribute) = FieldReader.splitAttribute(text)
            draft.selector = reader.selector(path, .arguments([selector]), at: input)
            draft.selectorAttribute = attribute
        },
        .member("attribute", "the attribute read instead of the text") { reader, path, input, draft in
            draft.attribute = reader.string(path, input)
        },
        .member("as", "what the value is read as") { reader, path, input, draft in
            if let form = reader.choice(path, input, Extraction.Read.Form.self) { draft.form = form }
        },
        .member("all", "every match, as a list") { reader, path, input, draft in
            if let all = reader.bool(path, input) { draft.all = all }
        },
        .member("required", "an item without it is left out") { reader, path, input, _ in _ = reader.bool(path, input) }
    ]

    static let feed: [ConfigField<Tracking.FeedFields>] = [
        .member("title", "the item's field for an entry's title") { reader, path, input, fields in fields.title = reader.string(path, input) },
        .member("link", "the item's field for an entry's link") { reader, path, input, fields in fields.link = reader.string(path, input) },
        .member("summary", "the item's field for an entry's summary") { reader, path, input, fields in
            fields.summary = reader.string(path, input)
        },
        .member("updated", "the item's field for when an entry was updated") { reader, path, input, fields in
            fields.updated = reader.string(path, input)
        },
        .member("name", "the feed's title") { reader, path, input, fields in fields.name = reader.string(path, input) }
    ]
}
