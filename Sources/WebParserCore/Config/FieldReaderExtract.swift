import FoundationEssentials
import WebParser

extension FieldReader {
    /// `extract`: `{"items": SELECTOR, "fields": {NAME: FIELD, …}}` (without `items`, one object of the whole
    /// document). A field is a selector relative to the item (`"a@href"` reads an attribute, `"@href"` the item's
    /// own, `"."` the item, `"xpath:…"` XPath), `{"selector", "attribute", "as", "all", "required"}`, or nested
    /// `{"items", "fields"}`. Every selector is checked here.
    mutating func extraction(_ path: String, _ input: FieldInput) -> Extraction? {
        // An option's value is the JSON a config would hold.
        if case .arguments(let values) = input, let text = values.last {
            do throws(JSONSyntaxError) {
                return extraction(path, .node(try JSONNode.parse(Array(text.utf8))))
            } catch {
                problem(path, at: input, "expected a JSON object such as {\"items\": \".chapter\", \"fields\": {\"title\": \".title\"}}: \(error.message)")
                return nil
            }
        }
        guard let members = input.members else {
            problem(path, at: input, "expected {\"items\": SELECTOR, \"fields\": {NAME: SELECTOR, …}}, got \(input.excerpt)")
            return nil
        }
        var valid = knownKeysOnly(members, ["items", "fields"], at: path)
        var items: String?
        if let node = members.first(where: { $0.key == "items" })?.value {
            items = selector(path + ".items", .node(node))
            if items == nil { valid = false }
        }
        guard let fieldsNode = members.first(where: { $0.key == "fields" })?.value else {
            problem(path + ".fields", at: input, "required: the fields of each item, {NAME: SELECTOR, …}")
            return nil
        }
        guard let fieldMembers = FieldInput.node(fieldsNode).members, !fieldMembers.isEmpty else {
            problem(path + ".fields", at: .node(fieldsNode), "expected an object of field names to selectors, got \(FieldInput.node(fieldsNode).excerpt)")
            return nil
        }
        var fields: [Extraction.Field] = []
        for (name, node) in fieldMembers {
            if let field = field(name, path + ".fields." + name, .node(node)) { fields.append(field) } else { valid = false }
        }
        return valid ? Extraction(items: items, fields: fields) : nil
    }

    /// The command line's form: `--items SELECTOR` (or none, for one object) and `--field NAME=FIELD` per field,
    /// FIELD written as in a config (`a@href`, `xpath:…`, `.`).
    package mutating func extraction(items: String?, fields: [String]) -> Extraction? {
        var valid = true
        var checkedItems: String?
        if let items {
            checkedItems = selector("--items", .arguments([items]))
            if checkedItems == nil { valid = false }
        }
        var list: [Extraction.Field] = []
        for text in fields {
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                problem("--field", at: .arguments([text]), "expected NAME=SELECTOR, such as title=.title or url=a@href, got '\(text)'")
                valid = false
                continue
            }
            let name = String(text[..<equals])
            if let field = field(name, "--field \(name)", .arguments([String(text[text.index(after: equals)...])])) {
                list.append(field)
            } else {
                valid = false
            }
        }
        if list.isEmpty && valid {
            problem("--field", at: .arguments([]), "--items needs at least one --field NAME=SELECTOR")
            valid = false
        }
        return valid ? Extraction(items: checkedItems, fields: list) : nil
    }

    private mutating func field(_ name: String, _ path: String, _ input: FieldInput) -> Extraction.Field? {
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
        var valid = knownKeysOnly(members, ["selector", "attribute", "as", "all", "required"], at: path)
        guard let selectorNode = members.first(where: { $0.key == "selector" })?.value else {
            problem(path + ".selector", at: input, "required: a selector relative to the item (\".\" for the item itself)")
            return nil
        }
        guard let text = string(path + ".selector", .node(selectorNode)) else { return nil }
        var (selectorText, attribute) = Self.splitAttribute(text)
        guard let selector = selector(path + ".selector", .arguments([selectorText]), at: .node(selectorNode)) else { return nil }
        if let node = members.first(where: { $0.key == "attribute" })?.value {
            attribute = string(path + ".attribute", .node(node))
            if attribute == nil { valid = false }
        }
        var read = Extraction.Read(selector: selector, attribute: attribute)
        if let node = members.first(where: { $0.key == "as" })?.value {
            if let form = choice(path + ".as", .node(node), Extraction.Read.Form.self) { read.form = form } else { valid = false }
        }
        if let node = members.first(where: { $0.key == "all" })?.value {
            if let all = bool(path + ".all", .node(node)) { read.all = all } else { valid = false }
        }
        return valid ? Extraction.Field(name: name, value: .read(read), required: required) : nil
    }

    /// A CSS selector, `xpath:EXPRESSION` or `.`, checked; `place` is where a problem is reported (default `input`).
    private mutating func selector(_ path: String, _ input: FieldInput, at place: FieldInput? = nil) -> String? {
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

    /// `feed`: `{"title": FIELD, "link": FIELD, "summary": FIELD, "updated": FIELD}`, each optional.
    mutating func feedFields(_ path: String, _ input: FieldInput) -> Tracking.FeedFields? {
        let keys = ["title", "link", "summary", "updated", "name"]
        guard let members = input.members else {
            problem(
                path, at: input,
                "expected {\"title\": FIELD, \"link\": FIELD, \"summary\": FIELD, \"updated\": FIELD, \"name\": \"the feed's title\"}, got \(input.excerpt)")
            return nil
        }
        var fields = Tracking.FeedFields()
        var valid = knownKeysOnly(members, keys, at: path)
        for (key, value) in members where keys.contains(key) {
            guard let name = string(path + "." + key, .node(value)) else {
                valid = false
                continue
            }
            switch key {
            case "title": fields.title = name
            case "link": fields.link = name
            case "summary": fields.summary = name
            case "name": fields.name = name
            default: fields.updated = name
            }
        }
        return valid ? fields : nil
    }
}
