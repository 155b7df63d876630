import FoundationEssentials

extension WebParserJob {
    /// The responses a job records as its page's scripts read them (`fetch`, `XMLHttpRequest`), through
    /// webparse's web process extension, and how their bodies appear. Each record holds the URL, method, status,
    /// MIME type, kind, frame and body; `Collect.responses` makes the records the job's result.
    public struct Capture: Sendable, Equatable {
        /// The kinds of request whose responses can be captured: what the page's scripts read (`fetch`, `xhr`,
        /// with the bodies they read), and what WebKit loaded for its documents (with the bytes WebKit kept).
        public enum Kind: String, Sendable, Equatable, CaseIterable {
            /// A response the page's `fetch` got.
            case fetch
            /// A response of the page's `XMLHttpRequest` (jQuery's `$.ajax` and most older libraries).
            case xhr
            /// The page's document, or a frame's.
            case document
            /// A `<script>` (JSONP included).
            case script
            /// A style sheet.
            case stylesheet
            /// An image (unless `block` keeps images from loading, as it does by default).
            case image
            /// Anything else WebKit loaded: a dedicated worker's request, `sendBeacon`, a font…
            /// WebKit keeps no body for these.
            case other

            /// Whether the page's scripts read it (webparse's hook sees it), rather than WebKit loading it.
            var isReadByScripts: Bool { self == .fetch || self == .xhr }

            /// The kind of a load WebKit reports, from its MIME type.
            init(mimeType: String, mainDocument: Bool) {
                let type = mimeType.lowercased()
                self =
                    if mainDocument || type == "text/html" || type == "application/xhtml+xml" {
                        .document
                    } else if type.hasSuffix("javascript") || type.hasSuffix("ecmascript") {
                        .script
                    } else if type == "text/css" {
                        .stylesheet
                    } else if type.hasPrefix("image/") {
                        .image
                    } else {
                        .other
                    }
            }
        }

        /// How a record holds its body.
        public enum BodyForm: String, Sendable, Equatable, CaseIterable {
            /// The body parsed as JSON; a body that is not JSON is kept as text, and the record says why.
            case json
            /// The body as text (UTF-8).
            case text
            /// The body's bytes in base64.
            case base64
        }

        /// Responses whose URL the regular expression `url` matches (anywhere in the URL, as `grep` does) and
        /// whose kind is one of `kinds`.
        public struct Rule: Sendable, Equatable {
            /// A regular expression (Swift's `Regex` syntax, which reads PCRE's and ICU's) searched in each response's URL.
            public var url: String
            /// How the records of this rule hold their bodies.
            public var body: BodyForm
            /// The kinds of request this rule captures.
            public var kinds: Set<Kind>

            /// A rule for the responses of `kinds` (all by default) whose URL matches `url`, with bodies as
            /// `body` (text by default).
            public init(url: String, body: BodyForm = .text, kinds: Set<Kind> = Set(Kind.allCases)) {
                self.url = url
                self.body = body
                self.kinds = kinds
            }
        }

        /// The largest body a record holds, in bytes, unless a job says otherwise: 10 MiB.
        public static let defaultBodyLimit = 10 << 20
        /// The most body bytes all of a job's records hold together, unless a job says otherwise: 50 MiB.
        public static let defaultTotalLimit = 50 << 20

        /// The rules; a response is recorded under the first rule that takes it.
        public var rules: [Rule]
        /// A body larger than this many bytes is recorded without it, with its size and the reason.
        public var bodyLimit: Int
        /// Once the records hold this many body bytes, later bodies are recorded without them.
        public var totalLimit: Int

        /// Capture by `rules`, within `bodyLimit` bytes per body and `totalLimit` bytes in all.
        public init(rules: [Rule], bodyLimit: Int = defaultBodyLimit, totalLimit: Int = defaultTotalLimit) {
            self.rules = rules
            self.bodyLimit = bodyLimit
            self.totalLimit = totalLimit
        }

        /// The kinds any rule captures.
        var kinds: Set<Kind> { rules.reduce(into: []) { $0.formUnion($1.kinds) } }

        /// Whether a rule captures what WebKit loads (not only what scripts read).
        var capturesLoads: Bool { kinds.contains { !$0.isReadByScripts } }
    }
}

extension WebParserJob {
    /// Why the job's capture cannot run here (no rules for `Collect.responses`, a URL that is not a regular
    /// expression, no extension), or nil when it can.
    var captureProblem: String? {
        guard let capture else { return evaluation.collect == .responses ? "collecting responses needs capture rules" : nil }
        return CaptureRules.problem(with: capture) ?? CaptureExtension.missing
    }
}

extension WebParserJob {
    /// Whether the job's script is a function of the captured responses (`(responses) => …`): a job that captures,
    /// whose script is a function with a parameter, and whose result is the script's. Such a script runs in
    /// webparse's own script world, where the responses never reach the page's scripts.
    var scriptReadsResponses: Bool {
        capture != nil && evaluation.collect == .result && JavaScriptSyntax.isFunctionWithParameter(evaluation.script)
    }
}
