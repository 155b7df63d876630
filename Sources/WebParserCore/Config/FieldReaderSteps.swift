import FoundationEssentials
import WebParser

/// How a job's `steps` are read: from a config, an array of one-action objects (`{"click": "#next"}`); from the
/// command line, one `ACTION=ARGUMENT` per `--step`.
extension FieldReader {
    /// The actions a step can be, as configs and `--step` name them.
    static let stepActions = [
        "click", "fill", "select", "check", "uncheck", "press", "submit", "scroll", "waitFor",
        "waitForSelector", "waitForNavigation", "evaluate", "sleep"
    ]

    mutating func steps(_ path: String, _ input: FieldInput) -> [Step]? {
        var steps: [Step] = []
        let problemsBefore = problems.count
        switch input {
        case .node:
            guard let elements = input.elements else {
                problem(path, at: input, "expected an array of steps such as [{\"click\": \"#next\"}], got \(input.excerpt)")
                return nil
            }
            for (index, element) in elements.enumerated() {
                let place = "\(path)[\(index)]"
                let object = FieldInput.node(element)
                if let members = object.members, members.contains(where: { $0.key == "if" }) {
                    steps += conditional(members, at: object, path: place).map { [$0] } ?? []
                    continue
                }
                guard let members = object.members, members.count == 1, let (action, value) = members.first else {
                    problem(
                        place, at: object,
                        "expected an object with one action, such as {\"click\": \"#next\"}, got \(object.excerpt)"
                            + Self.stepShapeHint(object.members ?? []))
                    continue
                }
                steps += step(action, .node(value), path: place + "." + action) ?? []
            }
        case .arguments(let values):
            for value in values {
                let equals = value.firstIndex(of: "=")
                let action = String(value[..<(equals ?? value.endIndex)])
                let argument = equals.map { String(value[value.index(after: $0)...]) } ?? ""
                steps += step(action, .arguments([argument]), path: path + " " + action) ?? []
            }
        }
        return problems.count == problemsBefore ? steps : nil
    }

    /// What a step object with several keys should have been: each action a step of its own, and an action's
    /// argument inside it (`{"fill": "#q", "value": "cat"}` is `{"fill": {"#q": "cat"}}`); "" for fewer than two keys.
    static func stepShapeHint(_ members: [(key: String, value: JSONNode)]) -> String {
        guard members.count > 1 else { return "" }
        let keys = members.map { "\"\($0.key)\"" }.joined(separator: ", ")
        let actions = members.map(\.key).filter(stepActions.contains)
        let forms = [
            "fill": "{\"fill\": {\"#q\": \"text\"}}", "select": "{\"select\": {\"#kind\": \"option\"}}",
            "press": "{\"press\": {\"key\": \"Enter\", \"selector\": \"#q\"}}"
        ]
        if actions.count == 1, let form = forms[actions[0]] {
            return "; it has \(members.count) keys (\(keys)): \(actions[0])'s argument goes inside it, as in \(form)"
        }
        return "; it has \(members.count) keys (\(keys)): write each action as a step of its own"
    }

    /// An `if` step: `{"if": SELECTOR or {"script": JS} or {"selector": SELECTOR}, "then": [steps], "else": [steps]}`.
    private mutating func conditional(_ members: [(key: String, value: JSONNode)], at input: FieldInput, path: String) -> Step? {
        var condition: Step.Condition?
        var then: [Step]?, otherwise: [Step] = []
        for (key, value) in members {
            let place = path + "." + key
            switch key {
            case "if": condition = self.condition(place, .node(value))
            case "then": then = steps(place, .node(value))
            case "else": otherwise = steps(place, .node(value)) ?? []
            default:
                problem(
                    place, at: .node(value),
                    "unknown key; an if step has \"if\", \"then\" and \"else\"" + ConfigReader.suggestion(for: key, among: ["if", "then", "else"]))
            }
        }
        if !members.contains(where: { $0.key == "then" }) { problem(path + ".then", at: input, "required: the steps to run when the condition holds") }
        guard let condition, let then else { return nil }
        return .when(condition, then: then, otherwise: otherwise)
    }

    /// An `if` step's condition: a CSS selector, checked here, or `{"script": JS}`.
    private mutating func condition(_ path: String, _ input: FieldInput) -> Step.Condition? {
        guard let found = selectorOrScript(path, input) else { return nil }
        if found.isScript { return .script(found.text) }
        if let problem = CSSSelectorSyntax.problem(in: found.text) {
            self.problem(found.path, at: found.input, "not a valid CSS selector: \(problem)")
            return nil
        }
        return .selector(found.text)
    }

    /// The next page of a list: a CSS selector (`"a.next"`, `{"selector": …}`) or `{"script": JS}`.
    mutating func next(_ path: String, _ input: FieldInput) -> Pagination.Next? {
        selectorOrScript(path, input).map { $0.isScript ? .script($0.text) : .selector($0.text) }
    }

    /// A CSS selector (`"a.next"`, `{"selector": …}`) or `{"script": JS}`, with where its text is.
    private mutating func selectorOrScript(_ path: String, _ input: FieldInput)
        -> (isScript: Bool, text: String, path: String, input: FieldInput)?
    {
        guard let members = input.members else { return string(path, input).map { (false, $0, path, input) } }
        guard members.count == 1, let (kind, value) = members.first, kind == "selector" || kind == "script" else {
            problem(path, at: input, "expected a CSS selector, {\"selector\": …} or {\"script\": …}")
            return nil
        }
        return string(path + "." + kind, .node(value)).map { (kind == "script", $0, path + "." + kind, .node(value)) }
    }

    /// The steps `action` with `input` makes (a `fill` of several fields makes one per field).
    private mutating func step(_ action: String, _ input: FieldInput, path: String) -> [Step]? {
        switch action {
        case "click": return string(path, input).map { [.click(selector: $0)] }
        case "check", "uncheck": return string(path, input).map { [.check(selector: $0, checked: action == "check")] }
        case "submit": return string(path, input).map { [.submit(selector: $0)] }
        case "waitForSelector": return string(path, input).map { [.waitForSelector($0)] }
        case "waitFor": return string(path, input).map { [.waitFor(script: $0)] }
        case "evaluate": return string(path, input).map { [.evaluate(script: $0)] }
        case "sleep": return seconds(path, input, in: 0...3600).map { [.sleep($0)] }
        case "waitForNavigation":
            if case .node = input, input.flag != true {
                problem(path, at: input, "expected true, got \(input.excerpt)")
                return nil
            }
            return [.waitForNavigation]
        case "fill", "select":
            return pairs(path, input)?.compactMap { selector, value in
                if action == "select" { return string(path + "." + selector, value).map { .select(selector: selector, option: $0) } }
                return fillValue(path + "." + selector, value).map { .fill(selector: selector, value: $0) }
            }
        case "press":
            if let members = input.members {
                var key: String?, selector: String?
                for (name, value) in members {
                    switch name {
                    case "key": key = string(path + ".key", .node(value))
                    case "selector": selector = string(path + ".selector", .node(value))
                    default: problem(path + "." + name, at: .node(value), "unknown key; press has \"key\" and \"selector\"")
                    }
                }
                guard let key else {
                    if !members.contains(where: { $0.key == "key" }) { problem(path + ".key", at: input, "required") }
                    return nil
                }
                return [.press(key: key, selector: selector)]
            }
            if case .arguments = input, input.text?.contains("=") == true, let pair = pairs(path, input)?.first, let key = pair.1.text {
                return [.press(key: key, selector: pair.0)]
            }
            return string(path, input).map { [.press(key: $0, selector: nil)] }
        case "scroll":
            if let members = input.members {
                guard members.count == 1, members[0].key == "untilStable" else {
                    problem(path, at: input, "expected \"bottom\", \"untilStable\", a CSS selector or {\"untilStable\": SECONDS}")
                    return nil
                }
                return seconds(path + ".untilStable", .node(members[0].value), in: 0.1...60).map { [.scroll(.untilStable(settle: $0))] }
            }
            return string(path, input).map { text in
                switch text {
                case "bottom": [.scroll(.bottom)]
                case "untilStable": [.scroll(.untilStable(settle: Step.defaultSettle))]
                default: [.scroll(.element(text))]
                }
            }
        default:
            problem(path, at: input, "unknown action \"\(action)\"" + ConfigReader.suggestion(for: action, among: Self.stepActions))
            return nil
        }
    }

    /// A config's `{"selector": value, …}` in order, or an option's `SELECTOR=VALUE` (split at the last `=`:
    /// selectors may hold `=`, as in `input[name=q]`).
    private mutating func pairs(_ path: String, _ input: FieldInput) -> [(String, FieldInput)]? {
        switch input {
        case .node:
            guard let members = input.members, !members.isEmpty else {
                problem(path, at: input, "expected an object of CSS selectors to values, such as {\"#q\": \"webparse\"}, got \(input.excerpt)")
                return nil
            }
            return members.map { ($0.key, .node($0.value)) }
        case .arguments:
            guard let text = input.text, let equals = text.lastIndex(of: "="), equals != text.startIndex else {
                problem(path, at: input, "expected SELECTOR=VALUE, got \(input.excerpt)")
                return nil
            }
            return [(String(text[..<equals]), .arguments([String(text[text.index(after: equals)...])]))]
        }
    }

    /// A value to fill in: a string, or `{"env": "NAME"}` for the environment variable NAME (kept out of
    /// configs and command lines, where others may read it).
    private mutating func fillValue(_ path: String, _ input: FieldInput) -> String? {
        guard let members = input.members else {
            guard let text = input.text else {
                problem(path, at: input, "expected a string or {\"env\": \"VARIABLE\"}, got \(input.excerpt)")
                return nil
            }
            return text
        }
        guard members.count == 1, members[0].key == "env", let name = string(path + ".env", .node(members[0].value)) else {
            problem(path, at: input, "expected a string or {\"env\": \"VARIABLE\"}")
            return nil
        }
        return variable(name, path + ".env", at: .node(members[0].value))
    }
}

extension ConfigReader.Member {
    /// The `steps` field from the JSON file at `path`, which holds the steps' array as a config's `steps` does;
    /// named `--steps FILE` in problems.
    /// - Returns: the member, or the problem when the file cannot be read or is not JSON.
    package static func steps(fromFile path: String) -> Result<Self, StepsFileProblem> {
        let name = "--steps \(path)"
        do {
            let root = try JSONNode.parse(Array(try InputFile.read(path)))
            return .success(Self(key: "steps", input: .node(root), path: name))
        } catch let error as JSONSyntaxError {
            return .failure(StepsFileProblem(message: "\(name): \(error.line):\(error.column): \(error.message)"))
        } catch {
            return .failure(StepsFileProblem(message: "\(name): \(error)"))
        }
    }
}

/// Why a `--steps` file cannot be used.
package struct StepsFileProblem: Error {
    package let message: String
}
