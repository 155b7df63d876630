import WebParserCore

/// The manual page webparse(1), in roff, made from the tables `help` shows (commands and their options, job
/// and run fields, exit codes), so that the two cannot drift apart.
enum ManPage {
    /// The page, for `webparse help --man`.
    static var text: String {
        var lines = [
            #".TH WEBPARSE 1 "" "\#(escape(HelpCommand.version))" "User Commands""#,
            ".SH NAME",
            #"webparse \- load JavaScript-rendered pages in WebKitGTK and print the data a script extracts, as JSON"#,
            ".SH SYNOPSIS"
        ]
        for command in Commands.all {
            lines += [".B webparse \(command.name)", escape(command.usage.replacing("Usage: webparse \(command.name) ", with: "")), ".br"]
        }
        lines += [
            ".SH DESCRIPTION",
            paragraph(
                """
                webparse renders each page of a config in an offscreen WebKit view, runs the config's JavaScript in it \
                until the data is there, and prints the data as JSON on standard output; progress and errors go to \
                standard error. Without a display it starts a private Xvfb of its own.
                """)
        ]
        lines.append(".SH COMMANDS")
        for command in Commands.all {
            // The lists of fields and exit codes that help shows after a command's details have sections here.
            let details = command.details.components(separatedBy: "\n\n").filter { part in
                !["Job fields", "Settings of the whole run"].contains { part.hasPrefix($0) }
            }
            lines += [".SS \(command.name)", paragraph(command.summary)] + details.map(paragraph)
            for option in command.completion.options {
                let names = (option.short.map { "\\-\($0), " } ?? "") + "\\-\\-" + escape(option.name)
                lines += [".TP", ".B " + names + (option.valueName.map { " " + escape($0) } ?? ""), escape(option.help)]
            }
            lines.append(paragraph("Exit codes of \(command.name): " + command.exitCodes.map { "\($0.0.rawValue) \($0.1)" }.joined(separator: "; ") + "."))
        }
        lines += [
            ".SH CONFIG",
            paragraph(
                """
                A config is a JSON file holding one job, {"url": …, "script": …}, or {"defaults": {…}, "jobs": [{…}, …]}, \
                where every job field but name can be set in defaults. The job fields:
                """)
        ]
        for field in JobFields.all {
            lines += [".TP", ".B " + escape(field.key), escape(field.summary)]
        }
        lines.append(paragraph("Settings of the whole run, at the config's top level:"))
        for (key, summary) in RunFields.all.map({ ($0.key, $0.summary) }) + SessionFields.all.map({ ($0.key, $0.summary) }) {
            lines += [".TP", ".B " + escape(key), escape(summary)]
        }
        lines.append(".SH EXIT STATUS")
        for (code, meaning) in ExitCode.meanings {
            lines += [".TP", ".B \(code.rawValue)", escape(meaning)]
        }
        lines += [
            ".SH FILES", ".TP", #".I STATE"#,
            escape("--state FILE: each job's items, last result and failures, JSON, mode 0600; FILE.lock beside it while a run uses it."),
            ".TP", ".I DIR",
            escape("--session DIR: cookies, local storage and the HTTP cache of a persistent session, mode 0700; DIR/webparse.lock while a run uses it."),
            ".SH ENVIRONMENT"
        ]
        for (name, meaning) in environment {
            lines += [".TP", ".B " + name, escape(meaning)]
        }
        lines.append(".SH EXAMPLES")
        for example in examples {
            lines += [".TP", ".B " + escape(example.command), escape(example.meaning)]
        }
        lines += [
            ".SH SEE ALSO",
            escape("The README, the reference in docs/ and the examples of webparse (/usr/share/doc/webparse with the .deb); jq(1), cron(8), Xvfb(1).")
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The examples of the README's "Commands" section, each as it is there: a command line and what it does
    /// (DocumentationTests checks that the README shows each).
    static let examples: [(command: String, meaning: String)] = [
        ("webparse run comics.json | jq -r '.[].title'", "one job: its result"),
        ("webparse run sites.json | jq '.comics'", "a \"jobs\" list: {\"name\": result, …}"),
        ("webparse run sites.json --only comics,news", "just those jobs (also --only comics --only news)"),
        ("webparse run sites.json -o latest.json", "written atomically; not touched when every job fails"),
        ("cat comics.json | webparse run -", "the config from stdin; paths relative to the current folder"),
        ("webparse run --urls sites.txt --script 'document.title'", "one script over a list of URLs, no config"),
        ("webparse run sites.json --merge", "every job's list as one list")
    ]

    /// The environment variables webparse reads.
    static let environment: [(String, String)] = [
        ("DISPLAY, WAYLAND_DISPLAY", "the display WebKit uses; without either webparse starts a private Xvfb"),
        ("NO_COLOR", "set: no colours on a terminal"),
        (FieldReader.passwordVariable, "the password of --user")
    ]

    /// `text` as one paragraph, blank lines between paragraphs kept.
    private static func paragraph(_ text: String) -> String {
        text.components(separatedBy: "\n\n").map { ".PP\n" + escape($0.replacing("\n", with: " ")) }.joined(separator: "\n")
    }

    /// `text` safe in roff: backslashes and dashes escaped, characters beyond ASCII named (`\[u2026]`), no line
    /// starting with a control character.
    static func escape(_ text: String) -> String {
        let escaped = text.replacing("\\", with: "\\e").replacing("-", with: "\\-")
            .unicodeScalars.map { $0.isASCII ? String($0) : "\\[u" + $0.value.hexDigits(4, uppercase: true) + "]" }.joined()
        return escaped.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : String(line)
        }.joined(separator: "\n")
    }
}
