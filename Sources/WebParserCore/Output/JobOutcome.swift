import FoundationEssentials
import WebParser

/// How one job of a run ended, and how that is written out.
package struct JobOutcome: Sendable {
    package let name: String
    /// The URL the config asked for.
    let url: URL
    package var result: Result<WebParserResult, JobFailure>
    let elapsed: Duration
    /// Whether the job returns the values its user scripts emit.
    var collectsEmitted = false
    /// How many of the items it followed got an error instead of their detail page's result.
    package var detailsFailed = 0
    /// For a crawl, how many pages it loaded (its records went out page by page when `streamed`).
    package var pagesCrawled: Int?

    package init(name: String, url: URL, result: Result<WebParserResult, JobFailure>, elapsed: Duration, collectsEmitted: Bool = false) {
        self.name = name
        self.url = url
        self.result = result
        self.elapsed = elapsed
        self.collectsEmitted = collectsEmitted
    }

    /// The job's JSON Lines record: `{"job", "url", "finalURL", "status", "httpStatus", "attempts",
    /// "elapsedMs", "settledBy", "result" | "error" and "code"}` (`settledBy` when the page said what made the answer
    /// final). A job that collects emitted values also has `"complete"` (false when
    /// it ran out of time before `webparse.done()`), and with `streamed` (its values went out as lines of
    /// their own) `"items"`, their number, in place of `"result"`. `adding` members come last.
    package func jsonLine(streamed: Bool = false, adding extra: [(key: String, value: JSONText.Value)] = []) -> Data {
        var members: [(key: String, value: JSONText.Value)] = [("job", .string(name)), ("url", .string(URLRedaction.redact(url.absoluteString)))]
        switch result {
        case .success(let success):
            members += [
                ("finalURL", .string(URLRedaction.redact(success.finalURL))), ("status", .string("ok")),
                ("httpStatus", success.httpStatus.map(JSONText.Value.integer) ?? .null),
                ("attempts", .integer(success.attempts)), ("elapsedMs", .integer(elapsedMilliseconds))
            ]
            if collectsEmitted { members.append(("complete", .bool(success.isComplete))) }
            if success.itemsLeftOut > 0 { members.append(("leftOut", .integer(success.itemsLeftOut))) }
            if let settledBy = success.settledBy { members.append(("settledBy", .string(settledBy))) }
            if detailsFailed > 0 { members.append(("detailsFailed", .integer(detailsFailed))) }
            if streamed, let pagesCrawled {
                members.append(("pages", .integer(pagesCrawled)))
            } else if streamed {
                let count = success.arrayLength ?? 0
                members.append(("items", .integer(count)))
            } else {
                members.append(("result", .raw(success.data)))
            }
        case .failure(let failure):
            var status: JSONText.Value = .null
            var finalURL: JSONText.Value = .null
            if case .failed(let error) = failure {
                switch error.kind {
                case .httpStatus(let code), .blocked(_, let code): status = .integer(code)
                default: break
                }
                finalURL = error.url.map { .string(URLRedaction.redact($0)) } ?? .null
            }
            members += [
                ("finalURL", finalURL), ("status", .string("failed")), ("httpStatus", status),
                ("attempts", .integer(failure.attempts)), ("elapsedMs", .integer(elapsedMilliseconds)),
                ("error", .string(failure.description)), ("code", .string(failure.code))
            ]
        }
        return JSONText.object(members + extra)
    }

    private var elapsedMilliseconds: Int {
        Int(elapsed.milliseconds)
    }
}
