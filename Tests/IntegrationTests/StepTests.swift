import Foundation
import Testing
import TestSupport
@testable import WebParser

/// Steps on real pages written the way sites are: handlers attached with jQuery once the page is ready, a form
/// whose select is filled by an AJAX call, a CSRF token, Enter submitting the form, a postback that reloads the
/// page, infinite scroll over XHR.
@Suite(.serialized) struct StepTests {
    static let jQuery = (try? String(contentsOfFile: "/usr/share/javascript/jquery/jquery.min.js", encoding: .utf8)) ?? ""

    func job(_ url: URL, _ script: String, steps: [Step], timeout: Duration = .seconds(15)) -> WebParserJob {
        var evaluation = Evaluation(script: script, pollInterval: .milliseconds(20))
        evaluation.steps = steps
        return WebParserJob(url: url, evaluation: evaluation, timeout: timeout, retry: RetryPolicy(retries: 0))
    }

    /// The search page: the form appears only after a trusted click on "Search" (its handler is attached
    /// late), its kinds come from an AJAX call, and Enter in the query field submits it with its CSRF token.
    static let searchPage = """
        <html><head><script src="/jquery.js"></script></head><body>
        <button id="open" style="display:none">Search</button>
        <form id="search" method="post" action="/search" style="display:none">
          <input type="hidden" name="csrf" value="t0k3n">
          <input id="q" name="q"><select id="kind" name="kind"></select>
          <label><input type="checkbox" id="agree" name="agree"> agree</label>
        </form>
        <script>
        $(function () {
          setTimeout(function () {
            $("#open").on("click", function (event) {
              if (event.originalEvent && event.originalEvent.isTrusted) $("#search").show();
            }).show();
            $.get("/kinds", function (kinds) {
              kinds.forEach(function (kind) { $("#kind").append($("<option>").val(kind.toLowerCase()).text(kind)); });
            });
          }, 300);
        });
        </script></body></html>
        """

    @Test func clicksFillsChoicesAndKeysActAsAUsersWouldAcrossAPost() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(body: Self.searchPage),
            "/jquery.js": .respond(contentType: "application/javascript", body: Self.jQuery),
            "/kinds": .delayed(.milliseconds(300), .respond(contentType: "application/json", body: #"["Comics", "Manga"]"#)),
            "/search": .handle { request in
                TestHTTPServer.Response(body: "<p id='results'>\(request.method) \(request.body)</p>")
            }
        ])
        let steps: [Step] = [
            .click(selector: "#open"), .fill(selector: "#q", value: "one piece"), .select(selector: "#kind", option: "Manga"),
            .check(selector: "#agree", checked: true), .press(key: "Enter", selector: "#q")
        ]
        let result = try await WebParserRunner().run(job(server.url("/"), "document.querySelector('#results').textContent", steps: steps))
        #expect(String(decoding: result.data, as: UTF8.self) == #""POST csrf=t0k3n&q=one+piece&kind=manga&agree=on""#)
        #expect(result.finalURL.hasSuffix("/search"))
        #expect(server.requests(for: "/search").count == 1)
    }

    /// Each page has its own `#go`: a step run too early would click the previous page's again. A link; a
    /// handler that navigates from a timer; Enter in a form whose server answers slowly; a fragment link; a link
    /// into a frame (WebKit is asked to navigate, but not the page); a link to another site (a new web process).
    /// Each step acts once, in the document its predecessor led to.
    @Test func eachStepActsInTheDocumentItsPredecessorLedTo() async throws {
        let server = try TestHTTPServer(routes: [
            "/1": .respond(body: "<a id=go href=/2>next</a>"),
            "/2": .respond(body: "<button id=go>next</button><script>go.onclick = () => setTimeout(() => { location.href = '/3'; }, 0)</script>"),
            "/3": .respond(body: "<form method=post action=/4><input id=q name=q><button id=go>search</button></form>"),
            "/4": .delayed(
                .milliseconds(300),
                .handle { request in
                    TestHTTPServer.Response(
                        body: """
                            <p id=posted>\(request.method) \(request.body)</p><a id=go href=#part>part</a><p id=part>part</p>
                            <a id=frame href=/frame target=inner>frame</a><iframe name=inner></iframe>
                            <script>document.write('<a id=away href=' + location.href.replace('127.0.0.1', 'localhost').replace('/4', '/5') + '>away</a>')</script>
                            """)
                }),
            "/frame": .respond(body: "<p>in the frame</p>"),
            "/5": .respond(body: "<p id=done>arrived</p>")
        ])
        let steps: [Step] = [
            .click(selector: "#go"), .click(selector: "#go"), .fill(selector: "#q", value: "x"), .press(key: "Enter", selector: "#q"),
            .click(selector: "#go"), .click(selector: "#frame"), .click(selector: "#away")
        ]
        let result = try await WebParserRunner().run(job(server.url("/1"), "document.querySelector('#done').textContent", steps: steps))
        #expect(String(decoding: result.data, as: UTF8.self) == #""arrived""#)
        #expect(result.finalURL.hasPrefix("http://localhost:"))
        #expect(server.requests.map { "\($0.method) \($0.path)" } == ["GET /1", "GET /2", "GET /3", "POST /4", "GET /frame", "GET /5"])
    }

    /// A page that checks `isTrusted` on every kind of input it gets.
    @Test func clicksAndKeysAreTrustedInput() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(
                body: """
                    <button id="b" style="margin-top:1500px">far down</button><input id="i">
                    <script>
                    window.seen = [];
                    document.getElementById("b").addEventListener("click", (e) => seen.push("click " + e.isTrusted));
                    document.getElementById("b").addEventListener("mousedown", (e) => seen.push("mousedown " + e.isTrusted));
                    document.getElementById("i").addEventListener("keydown", (e) => seen.push("keydown " + e.key + " " + e.isTrusted));
                    </script>
                    """)
        ])
        let steps: [Step] = [.click(selector: "#b"), .press(key: "x", selector: "#i"), .press(key: "Tab", selector: nil)]
        let result = try await WebParserRunner().run(job(server.url("/"), "seen.length >= 4 ? seen : null", steps: steps))
        #expect(String(decoding: result.data, as: UTF8.self) == #"["mousedown true","click true","keydown x true","keydown Tab true"]"#)
    }

    /// The page has its whole viewport, though its window on webparse's display is a single pixel and the view lies
    /// beside it, never drawn by GTK: its size, visible, animation frames running, and a trusted click hitting a
    /// button in the viewport's far corner.
    @Test(arguments: [Viewport(), Viewport(width: 800, height: 600)])
    func thePageHasItsWholeViewport(viewport: Viewport) async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(
                body: """
                    <body style="margin:0"><button id="corner" style="position:fixed;right:0;bottom:0;width:30px;height:30px">x</button>
                    <script>
                    window.ticks = 0;
                    (function tick() { ticks++; requestAnimationFrame(tick); })();
                    window.clicks = [];
                    document.getElementById("corner").addEventListener("click", (e) => clicks.push(e.isTrusted));
                    </script>
                    """)
        ])
        var job = job(
            server.url("/"),
            """
            clicks.length && ticks > 10 ? {width: innerWidth, height: innerHeight, visibility: document.visibilityState,
              clicks, atCorner: document.elementFromPoint(innerWidth - 5, innerHeight - 5).id} : null
            """, steps: [.click(selector: "#corner")])
        job.page.viewport = viewport
        let result = try await WebParserRunner().run(job)
        #expect(
            String(decoding: result.data, as: UTF8.self)
                == #"{"width":\#(viewport.width),"height":\#(viewport.height),"visibility":"visible","clicks":[true],"atCorner":"corner"}"#)
    }

    /// A cookie banner over the button: the click waits until the button is what a user would hit.
    @Test func aClickWaitsUntilNothingCoversItsElement() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(
                body: """
                    <button id="buy">Buy</button>
                    <div id="banner" style="position:fixed;inset:0;background:#eee;z-index:10">We use cookies</div>
                    <script>
                    window.clicks = [];
                    document.getElementById("buy").addEventListener("click", (e) => clicks.push("buy " + e.isTrusted));
                    document.getElementById("banner").addEventListener("click", () => clicks.push("banner"));
                    setTimeout(() => document.getElementById("banner").remove(), 500);
                    </script>
                    """)
        ])
        let result = try await WebParserRunner().run(job(server.url("/"), "clicks.length ? clicks : null", steps: [.click(selector: "#buy")]))
        #expect(String(decoding: result.data, as: UTF8.self) == #"["buy true"]"#)
    }

    /// A job whose steps acted (a form posted) and whose confirmation never comes is not retried: the form is
    /// posted once. A form posted to a page that answers 204 leaves the page where it is, and the steps go on.
    @Test func aJobThatActedIsNotRetriedAndAnEmptyAnswerIsNoNavigation() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(body: "<form method='post' action='/order'><button id='go'>Order</button></form><p id='x'>form</p>"),
            "/order": .respond(body: "<p>thanks</p>"),
            "/vote": .respond(status: 204, body: ""),
            "/poll": .respond(body: "<form method='post' action='/vote'><button id='vote'>Vote</button></form><i id='after'></i>")
        ])
        var ordering = job(server.url("/"), "1", steps: [.click(selector: "#go"), .waitForSelector("#confirmation")], timeout: .seconds(2))
        ordering.retry = RetryPolicy(retries: 2, delay: .milliseconds(10))
        await #expect {
            try await WebParserRunner().run(ordering)
        } throws: { error in
            (error as? WebParserError)?.attempts == 1 && "\(error)".contains(##"while running step 2 (waitForSelector "#confirmation")"##)
        }
        #expect(server.requests(for: "/order").count == 1, "the order was posted once")

        let voting = job(
            server.url("/poll"), "document.title = 'done'",
            steps: [
                .click(selector: "#vote"),
                .evaluate(script: "document.getElementById('after').textContent = 'went on'")
            ],
            timeout: .seconds(5))
        let voted = try await WebParserRunner().run(voting)
        #expect(String(decoding: voted.data, as: UTF8.self) == #""done""#)
        #expect(server.requests(for: "/vote").count == 1)
    }

    /// Infinite scroll: each time the bottom is reached, the page fetches ten more items over XHR, five times.
    @Test func scrollingUntilStableLoadsEveryPage() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(
                body: """
                    <ul id="list"></ul><div id="end" style="height:10px"></div>
                    <script>
                    let page = 0, loading = false;
                    const more = () => {
                      if (loading || page >= 5) return;
                      loading = true;
                      const xhr = new XMLHttpRequest();
                      xhr.open("GET", "/items?page=" + (page + 1));
                      xhr.onload = () => {
                        JSON.parse(xhr.responseText).forEach((text) => {
                          const li = document.createElement("li"); li.textContent = text; li.style.height = "200px";
                          document.getElementById("list").appendChild(li);
                        });
                        page += 1; loading = false;
                      };
                      xhr.send();
                    };
                    new IntersectionObserver((entries) => { if (entries[0].isIntersecting) more(); }).observe(document.getElementById("end"));
                    </script>
                    """),
            "/items?page=1": .delayed(.milliseconds(150), .dynamic { _ in (200, Self.items(1)) }),
            "/items?page=2": .delayed(.milliseconds(150), .dynamic { _ in (200, Self.items(2)) }),
            "/items?page=3": .delayed(.milliseconds(150), .dynamic { _ in (200, Self.items(3)) }),
            "/items?page=4": .delayed(.milliseconds(150), .dynamic { _ in (200, Self.items(4)) }),
            "/items?page=5": .delayed(.milliseconds(150), .dynamic { _ in (200, Self.items(5)) })
        ])
        let result = try await WebParserRunner().run(
            job(
                server.url("/"), "document.querySelectorAll('li').length",
                steps: [.scroll(.untilStable(settle: .milliseconds(700)))]))
        #expect(String(decoding: result.data, as: UTF8.self) == "50")
    }

    static func items(_ page: Int) -> String {
        "[" + (1...10).map { "\"item \(page)-\($0)\"" }.joined(separator: ",") + "]"
    }

    /// A postback: a script step submits the form, the server answers with a new page; the step is not run
    /// again in the new document, and a step that cannot be done names itself and the page.
    @Test func aPostbackRunsOnceAndAFailingStepNamesItself() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(body: "<form method='post' action='/post'><input name='a' value='1'></form><p id='x'>first</p>"),
            "/post": .respond(body: "<p id='x'>posted</p><select id='s'><option>A</option></select>")
        ])
        let posted = try await WebParserRunner().run(
            job(
                server.url("/"), "document.getElementById('x').textContent",
                steps: [
                    .evaluate(script: "document.forms[0].submit(); await new Promise((r) => setTimeout(r, 2000));"),
                    .waitForNavigation
                ]))
        #expect(String(decoding: posted.data, as: UTF8.self) == #""posted""#)
        #expect(server.requests(for: "/post").count == 1)

        let failing = job(
            server.url("/"), "1", steps: [.evaluate(script: "document.forms[0].submit();"), .select(selector: "#s", option: "B")],
            timeout: .seconds(2))
        await #expect {
            try await WebParserRunner().run(failing)
        } throws: { error in
            let text = "\(error)"
            return text.contains(##"while running step 2 (select "B" in "#s")"##) && text.contains(server.url("/post").absoluteString)
        }
        let invalid = job(server.url("/"), "1", steps: [.click(selector: "p[")])
        await #expect {
            try await WebParserRunner().run(invalid)
        } throws: { error in
            "\(error)".contains(#"step 1 (click "p[") failed: not a valid CSS selector: p["#)
        }
    }
}
