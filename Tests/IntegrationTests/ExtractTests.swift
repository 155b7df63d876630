import Foundation
import TestSupport
import Testing
@testable import WebParser

/// `extract` on real WebKitGTK pages: lists the page's own script renders, relative links under a `<base>`, nested
/// lists, XPath, an empty list, required fields, and a page whose globals would hide the reader's names.
@Suite(.serialized) struct ExtractTests {
    func job(_ url: URL, _ extraction: Extraction, timeout: Duration = .seconds(15)) -> WebParserJob {
        var evaluation = Evaluation(script: "", pollInterval: .milliseconds(20))
        evaluation.extract = extraction
        return WebParserJob(url: url, evaluation: evaluation, timeout: timeout, retry: RetryPolicy(retries: 0))
    }

    func read(_ selector: String, _ attribute: String? = nil, as form: Extraction.Read.Form = .text, all: Bool = false) -> Extraction.Value {
        .read(.init(selector: selector, attribute: attribute, form: form, all: all))
    }

    /// A comic site's list, rendered 600 ms after load by its own script under a `<base>` (the empty list before it
    /// must hold a second before it counts): every kind of field.
    @Test func aListThePageRendersIsReadWithEveryKindOfField() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(
                body: """
                    <!doctype html><html><head><base href="/comics/"></head><body><div id="app"></div><script>
                    window.find = window.read = window.clean = "the page's own globals";
                    setTimeout(() => {
                      document.getElementById("app").innerHTML = [12, 13, 14].map((n) => `
                        <div class="chapter" data-id="c${n}"><span class="num">Chapter 1,0${n}</span>
                          <a href="ch/${n}?p=1">  The   title
                            ${n} </a><time datetime="2026-12-${n}">Dec</time>
                          <span class="tag">new</span> <span class="tag">hot</span>
                          ${n === 14 ? "" : '<img src="../covers/c.png">'}
                          <ul><li>page <b>1</b></li><li>page 2</li></ul>
                        </div>`).join("");
                    }, 600);
                    </script></body></html>
                    """)
        ])
        let extraction = Extraction(
            items: ".chapter",
            fields: [
                .init(name: "id", value: read(".", "data-id")),
                .init(name: "title", value: read("a")),
                .init(name: "url", value: read("a", "href")),
                .init(name: "date", value: read("time", "datetime")),
                .init(name: "number", value: read(".num", as: .number)),
                .init(name: "tags", value: read(".tag", all: true)),
                .init(name: "cover", value: read("img", "src"), required: true),
                .init(name: "pages", value: .items(Extraction(items: "li", fields: [.init(name: "html", value: read(".", as: .html))]))),
                .init(name: "link", value: read("xpath:.//a/@href")),
                .init(name: "hasCover", value: read("img", as: .bool))
            ])
        let result = try await WebParserRunner().run(job(server.url("/"), extraction))
        let base = server.url("/").absoluteString
        let expected = [12, 13].map { n in
            #"{"id":"c\#(n)","title":"The title \#(n)","url":"\#(base)comics/ch/\#(n)?p=1","date":"2026-12-\#(n)","number":10\#(n),"#
                + #""tags":["new","hot"],"cover":"\#(base)covers/c.png","pages":[{"html":"page <b>1</b>"},{"html":"page 2"}],"#
                + #""link":"\#(base)comics/ch/\#(n)?p=1","hasCover":true}"#
        }
        #expect(String(decoding: result.data, as: UTF8.self) == "[" + expected.joined(separator: ",") + "]")
    }

    /// Without `items`, the fields of the whole document make one object; an XPath list; a list that matches
    /// nothing is an empty list once the page has settled, not a time-out.
    @Test func oneObjectXPathListsAndAnEmptyList() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(body: "<title>Updates</title><h1>Latest</h1><table><tr><td>A</td><td>1</td></tr><tr><td>B</td><td>2</td></tr></table>"),
            "/none": .respond(body: "<p>No chapters yet</p>")
        ])
        let page = Extraction(
            items: nil,
            fields: [
                .init(name: "heading", value: read("h1")),
                .init(
                    name: "rows",
                    value: .items(
                        Extraction(
                            items: "xpath://tr[td]",
                            fields: [.init(name: "name", value: read("xpath:./td[1]")), .init(name: "n", value: read("td:nth-child(2)", as: .number))])))
            ])
        let result = try await WebParserRunner().run(job(server.url("/"), page))
        #expect(String(decoding: result.data, as: UTF8.self) == #"{"heading":"Latest","rows":[{"name":"A","n":1},{"name":"B","n":2}]}"#)

        let empty = try await WebParserRunner().run(job(server.url("/none"), Extraction(items: ".chapter", fields: [.init(name: "t", value: read("."))])))
        #expect(empty.data == Data("[]".utf8))
    }

    /// One object whose fields all miss is no answer yet, as an empty result of a script is not: a page that renders
    /// its heading after a while is read once it did, and a page whose own code crashed before it rendered (MLflow's
    /// experiment page under a locale it could not read) fails at the timeout saying what it last saw and the
    /// page's last error, instead of an object of nulls with exit 0.
    @Test func anObjectOfMissingFieldsIsNoAnswer() async throws {
        let server = try TestHTTPServer(routes: [
            "/later": .respond(
                body: #"<div id="app"></div><script>setTimeout(() => { app.innerHTML = "<h1>Run 7</h1><p class=state>FINISHED</p>"; }, 1500);</script>"#),
            "/crashed": .respond(body: #"<div id="app"></div><script src="/app.js"></script>"#),
            "/app.js": .respond(
                contentType: "application/javascript",
                body: "const experiment = JSON.parse('{}').experiment;\ndocument.getElementById('app').textContent = experiment.name;\n"),
            "/rejected": .respond(body: #"<div id="app"></div><script>fetch("/none").then(r => r.json())</script>"#)
        ])
        let experiment = Extraction(
            items: nil,
            fields: [.init(name: "name", value: read("h1")), .init(name: "state", value: read(".state")), .init(name: "done", value: read(".done", as: .bool))])
        let later = try await WebParserRunner().run(job(server.url("/later"), experiment))
        #expect(String(decoding: later.data, as: UTF8.self) == #"{"name":"Run 7","state":"FINISHED","done":false}"#)

        let error = await #expect(throws: WebParserError.self) {
            try await WebParserRunner().run(job(server.url("/crashed"), experiment, timeout: .seconds(4)))
        }
        #expect(error?.code == .timedOut)
        #expect(error?.lastAnswer?.contains("extract found none of its fields") == true, "\(String(describing: error))")
        #expect(
            error?.pageError == "Uncaught TypeError: undefined is not an object (evaluating 'experiment.name') (\(server.url("/app.js")):2:56)",
            "\(String(describing: error?.pageError))")
        #expect(error.map { "\($0)" }?.contains("the page's last error: Uncaught TypeError") == true)

        let rejected = await #expect(throws: WebParserError.self) {
            try await WebParserRunner().run(job(server.url("/rejected"), experiment, timeout: .seconds(4)))
        }
        #expect(rejected?.pageError?.hasPrefix("Unhandled rejection: SyntaxError") == true, "\(String(describing: rejected?.pageError))")
    }
}
