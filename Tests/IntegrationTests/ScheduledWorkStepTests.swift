import Foundation
import TestSupport
import Testing
import WebParser

/// A step acts once what the page has scheduled has run: pages written as sites are, whose elements are there before
/// the code that makes them work (a jQuery handler attached by a timer, an app hydrated after its bundle loads, a Vue
/// app mounted after a dynamic import, a button enabled by a timer whose handler comes with a request). Each page
/// five times on a machine whose cores are kept busy, with the default settings: a step that acted too early gives a
/// wrong answer or none.
@Suite(.serialized) struct ScheduledWorkStepTests {
    static let react = ["/usr/share/nodejs/react/umd/react.production.min.js", "/usr/share/nodejs/react-dom/umd/react-dom.production.min.js"]
        .map { (try? String(contentsOfFile: $0, encoding: .utf8)) ?? "" }.joined(separator: "\n")
    static let vue = (try? String(contentsOfFile: "/usr/share/javascript/vue/vue.esm.browser.min.js", encoding: .utf8)) ?? ""

    /// The list every page shows, as the job reads it.
    static let items = "Array.from(document.querySelectorAll('#list li'), (item) => item.textContent)"
    /// What "Show more" brings.
    static let more: TestHTTPServer.Route = .respond(contentType: "application/json", body: #"["item 2", "item 3"]"#)

    /// A search form whose submit handler a jQuery plugin attaches 300 ms after the page's script: submitted before,
    /// the form reloads the page with its query and CSRF token in the URL.
    static let searchForm = """
        <!doctype html><html><head><title>search</title><script src="/jquery.js"></script></head><body>
        <form id="search" action="/form.html"><input type="hidden" name="csrf" value="tok123">
        <input id="q" name="q"><button id="go">Search</button></form><ul id="list"></ul>
        <script>
        $(function () {
          setTimeout(function () {
            $("#search").on("submit", function (event) {
              event.preventDefault();
              $.getJSON("/api/search", { q: $("#q").val(), csrf: $("[name=csrf]").val() }, function (hits) {
                $("#list").html(hits.map(function (hit) { return $("<li>").text(hit); }));
              });
            });
          }, 300);
        });
        </script></body></html>
        """

    /// The site: each page, its scripts, and its API.
    static func site() throws -> TestHTTPServer {
        try TestHTTPServer(routes: [
            // The search form, also as the page its native submit reloads (`/form.html?csrf=tok123&q=cat`), and its API.
            "*": .handle { request in
                let url = URLComponents(string: request.path)
                switch url?.path {
                case "/form.html": return TestHTTPServer.Response(body: Self.searchForm)
                case "/api/search":
                    let query = url?.queryItems?.first { $0.name == "q" }?.value ?? ""
                    return TestHTTPServer.Response(headers: ["Content-Type": "application/json"], body: #"["\#(query) 1", "\#(query) 2"]"#)
                default: return TestHTTPServer.Response(status: 404, body: "not found")
                }
            },
            "/jquery.js": .respond(contentType: "application/javascript", body: StepTests.jQuery),
            // A server-rendered shop whose React bundle loads once the browser is idle after the page loaded (as a lazy
            // hydration does: a timer where there is no requestIdleCallback, as in WebKitGTK).
            "/react.html": .respond(
                body: """
                    <!doctype html><html><head><title>shop</title></head><body>
                    <div id="root"><div><ul id="list"><li>item 1</li></ul><button id="more">Show more</button></div></div>
                    <script>
                    const idle = window.requestIdleCallback || ((callback) => setTimeout(callback, 500));
                    addEventListener("load", () => idle(() => {
                      const script = document.createElement("script");
                      script.src = "/bundle.js";
                      document.body.append(script);
                    }));
                    </script></body></html>
                    """),
            "/bundle.js": .delayed(
                .milliseconds(300),
                .respond(
                    contentType: "application/javascript",
                    body: Self.react + """

                        (() => {
                          const { createElement: h, useState } = React;
                          function App({ initial }) {
                            const [items, setItems] = useState(initial);
                            const more = () => fetch("/more.json").then((response) => response.json()).then((extra) => setItems(items.concat(extra)));
                            return h("div", null, h("ul", { id: "list" }, items.map((item) => h("li", { key: item }, item))), h("button", { id: "more", onClick: more }, "Show more"));
                          }
                          ReactDOM.hydrateRoot(document.getElementById("root"), h(App, { initial: ["item 1"] }));
                        })();
                        """)),
            // A server-rendered Vue 2 app (as Nuxt 2 renders one) hydrated by its entry module once Vue, imported when the
            // browser is idle, has arrived.
            "/vue.html": .respond(
                body: """
                    <!doctype html><html><head><title>catalogue</title><script type="module" src="/entry.js"></script></head><body>
                    <div id="app" data-server-rendered="true"><ul id="list"><li>item 1</li></ul><button id="more">Show more</button></div>
                    </body></html>
                    """),
            "/entry.js": .respond(
                contentType: "application/javascript",
                body: """
                    const idle = window.requestIdleCallback || ((callback) => setTimeout(callback, 300));
                    const { default: Vue } = await new Promise((resolve) => idle(resolve)).then(() => import("/vue.esm.js"));
                    new Vue({
                      data: { items: ["item 1"] },
                      template: '<div id="app"><ul id="list"><li v-for="item in items">{{ item }}</li></ul><button id="more" @click="more">Show more</button></div>',
                      methods: { more() { fetch("/more.json").then((response) => response.json()).then((extra) => { this.items.push(...extra); }); } }
                    }).$mount("#app");
                    """),
            "/vue.esm.js": .delayed(.milliseconds(500), .respond(contentType: "application/javascript", body: Self.vue)),
            // A button enabled by the page's start-up timer, whose handler comes once the page's settings have arrived.
            "/enabled.html": .respond(
                body: """
                    <!doctype html><html><head><title>list</title></head><body>
                    <ul id="list"><li>item 1</li></ul><button id="more" disabled>Show more</button>
                    <script>
                    setTimeout(() => {
                      more.disabled = false;
                      fetch("/settings.json").then((response) => response.json()).then((settings) => {
                        more.addEventListener("click", () => fetch(settings.more).then((response) => response.json()).then((extra) => {
                          for (const text of extra) list.append(Object.assign(document.createElement("li"), { textContent: text }));
                        }));
                      });
                    }, 300);
                    </script></body></html>
                    """),
            "/settings.json": .delayed(.milliseconds(200), .respond(contentType: "application/json", body: #"{"more": "/more.json"}"#)),
            "/more.json": more
        ])
    }

    func job(_ url: URL, steps: [Step]) -> WebParserJob {
        var evaluation = Evaluation(script: Self.items)
        evaluation.steps = steps
        return WebParserJob(url: url, evaluation: evaluation, timeout: .seconds(20), retry: RetryPolicy(retries: 0))
    }

    /// Runs `path` with `steps` five times on a busy machine: each run gives `expected`, and a step says it waited for
    /// `waitedFor` in at least one (a run whose load took longer than the page's timer finds nothing left to wait for).
    func eachRun(_ path: String, steps: [Step], gives expected: String, waitedFor: String) async throws {
        let server = try Self.site()
        let load = CPULoad(threads: 2)
        defer { load.stop() }
        var told: [String] = []
        for run in 1...5 {
            let waits = MessageLog.waits()
            let result = try await WebParserRunner().run(job(server.url(path), steps: steps), onMessage: waits.add)
            #expect(String(decoding: result.data, as: UTF8.self) == expected, "\(path), run \(run)")
            told += waits.told
        }
        #expect(told.contains { $0.contains(waitedFor) }, "\(path): \(told)")
        #expect(server.requests.allSatisfy { !$0.path.contains("csrf=tok123") || $0.path.hasPrefix("/api/") }, "no native submit")
    }

    @Test func aFormWhoseHandlerATimerAttachesIsSubmittedThroughIt() async throws {
        try await eachRun(
            "/form.html", steps: [.fill(selector: "#q", value: "cat"), .click(selector: "#go")], gives: #"["cat 1","cat 2"]"#,
            waitedFor: "a timer")
    }

    @Test func aServerRenderedReactPageIsClickedOnceHydrated() async throws {
        try await eachRun(
            "/react.html", steps: [.click(selector: "#more")], gives: #"["item 1","item 2","item 3"]"#, waitedFor: "a timer")
    }

    @Test func aVueAppMountedAfterADynamicImportIsClickedOnceMounted() async throws {
        try await eachRun("/vue.html", steps: [.click(selector: "#more")], gives: #"["item 1","item 2","item 3"]"#, waitedFor: "a timer")
    }

    @Test func aButtonEnabledByATimerIsClickedOnceItsHandlerCame() async throws {
        try await eachRun(
            "/enabled.html", steps: [.click(selector: "#more")], gives: #"["item 1","item 2","item 3"]"#, waitedFor: "a fetch")
    }
}
