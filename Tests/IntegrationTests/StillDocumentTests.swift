import Foundation
import Testing
import TestSupport
@testable import WebParser

/// A document that nothing can change once it has loaded (no script, no event handler attribute, no frame, no
/// refresh; or the page's scripts turned off) has settled as soon as it has loaded: the settle time is not waited
/// for. Everything that can still change a document that looks like one is waited for as before.
@Suite(.serialized) struct StillDocumentTests {
    static let script = "document.getElementById('x')?.textContent"
    static let list = "<!doctype html><title>list</title><ul>" + (1...20).map { "<li class=\"item\">Item \($0)</li>" }.joined() + "</ul>"
    static let items = "Array.from(document.querySelectorAll('.item'), e => e.textContent)"

    func job(
        _ url: URL, _ script: String = script, steps: [Step] = [], settle: Duration, page: PageSettings = PageSettings()
    ) -> WebParserJob {
        var evaluation = Evaluation(script: script)
        evaluation.steps = steps
        evaluation.settle = settle
        return WebParserJob(url: url, evaluation: evaluation, timeout: .seconds(20), retry: RetryPolicy(retries: 0), page: page)
    }

    func text(_ result: WebParserResult) -> String { String(decoding: result.data, as: UTF8.self) }

    /// A settle time longer than the job's timeout: only a document taken as still can answer.
    @Test func aDocumentWithoutScriptsAnswersOnceLoaded() async throws {
        let server = try TestHTTPServer(routes: ["/": .respond(body: Self.list)])
        let result = try await WebParserRunner().run(job(server.url("/"), Self.items, settle: .seconds(60)))
        #expect(result.arrayLength == 20)
    }

    /// A document that arrives in two parts two seconds apart (the first past what WebKit reads before it shows a
    /// document), longer than the job looks ahead for what is pending: the answer the first part gives has stayed
    /// the same for the settle time, but it is not final while the document is still read (webparse no longer counts
    /// the page's own document as a request once it is shown: the page counts it while its parser reads it).
    @Test func aDocumentThatArrivesInPartsAnswersWithAllOfIt() async throws {
        let items = (1...20).map { "<li class=\"item\">Item \($0)</li>" }
        let head = "<!doctype html><title>list</title><!--" + String(repeating: " ", count: 4096) + "--><ul>"
        let server = try TestHTTPServer(routes: [
            "/": .inParts([head + items[..<10].joined(), items[10...].joined() + "</ul>"], pause: .seconds(2))
        ])
        var job = job(server.url("/"), Self.items, settle: .milliseconds(300))
        job.evaluation.lookAhead = .milliseconds(500)
        let result = try await WebParserRunner().run(job)
        #expect(result.arrayLength == 20)
    }

    /// A plain HTML search form (no script): the steps fill and submit it, and the result page is read, each without
    /// the settle time.
    @Test func stepsActOnADocumentWithoutScriptsOnceLoaded() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(body: "<!doctype html><form action=\"/search\"><input name=\"q\"><button id=\"go\">Search</button></form>"),
            "*": .handle { request in
                let query = request.path.split(separator: "=").last.map(String.init) ?? ""
                return .init(body: "<!doctype html><p id=\"x\">results for \(query)</p>")
            }
        ])
        let steps: [Step] = [
            .when(.selector("form"), then: [.fill(selector: "input[name=q]", value: "saga")], otherwise: []), .click(selector: "#go")
        ]
        let result = try await WebParserRunner().run(job(server.url("/"), steps: steps, settle: .seconds(60)))
        #expect(text(result) == #""results for saga""#)
    }

    /// With the page's scripts off, a page with scripts is as still as one without.
    @Test func aDocumentWhoseScriptsAreOffAnswersOnceLoaded() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(body: "<!doctype html><p id=\"x\">old</p><script>setTimeout(() => x.textContent = 'new', 300)</script>")
        ])
        var page = PageSettings()
        page.pageScripts = false
        let result = try await WebParserRunner().run(job(server.url("/"), settle: .seconds(60), page: page))
        #expect(text(result) == #""old""#)
    }

    /// Pages that change 400 ms after they load with no script element of their own where webparse reads (scripts
    /// in declarative shadow roots run: checked in WebKitGTK 2.50): the answer is the one they change to, as a
    /// settle time of 1.5 s gives it.
    @Test(arguments: [
        "handler", "svg handler", "svg script", "meta refresh", "Refresh header", "frame", "user script", "meta refresh, scripts off",
        "open shadow root", "closed shadow root"
    ])
    func whatCanStillChangeADocumentIsWaitedFor(_ kind: String) async throws {
        let later = "setTimeout(() => document.getElementById('x').textContent = 'new', 400)"
        let body: String
        var headers: [String: String] = [:]
        var page = PageSettings()
        switch kind {
        case "handler": body = "<body onload=\"\(later)\"><p id=\"x\">old</p>"
        case "svg handler": body = "<p id=\"x\">old</p><svg onload=\"\(later)\"></svg>"
        case "svg script": body = "<p id=\"x\">old</p><svg><script>\(later)</script></svg>"
        case "meta refresh": body = "<meta http-equiv=\"REFRESH\" content=\"0.4; url=/new\"><p id=\"x\">old</p>"
        case "Refresh header":
            body = "<p id=\"x\">old</p>"
            headers["Refresh"] = "0.4; url=/new"
        case "frame": body = "<p id=\"x\">old</p><iframe src=\"/frame\"></iframe>"
        case "open shadow root":
            body = "<p id=\"x\">old</p><div><template shadowrootmode=\"open\"><script>\(later)</script></template></div>"
        case "closed shadow root":
            body = "<p id=\"x\">old</p><news-item><template shadowrootmode=\"closed\"><script>\(later)</script></template></news-item>"
        case "user script":
            body = "<p id=\"x\">old</p>"
            page.userScripts = [
                try UserScript(source: "// ==UserScript==\n// @name later\n// ==/UserScript==\n\(later)", fileName: "later.user.js")
            ]
        default:
            body = "<meta http-equiv=\"refresh\" content=\"0.4; url=/new\"><p id=\"x\">old</p>"
            page.pageScripts = false
        }
        let server = try TestHTTPServer(routes: [
            "/": .respond(headers: headers, body: "<!doctype html>" + body),
            "/new": .respond(body: "<!doctype html><p id=\"x\">new</p>"),
            "/frame": .respond(body: "<!doctype html><script>setTimeout(() => parent.document.getElementById('x').textContent = 'new', 400)</script>")
        ])
        let result = try await WebParserRunner().run(job(server.url("/"), settle: .milliseconds(1500), page: page))
        #expect(text(result) == #""new""#, "\(kind)")
    }
}
