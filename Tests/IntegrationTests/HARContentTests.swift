import Foundation
import TestSupport
import Testing

/// What `--har` holds beyond the first document's requests, as users open the file to see it: the bodies of every
/// kind of response, a login's form post with its fields and the redirect after it, the next pages and the followed
/// pages of a job, the values steps typed from the environment hidden, and bodies past the limits left out with why.
@Suite struct HARContentTests: CommandLineTest {
    /// The HAR file at `path` as JSON, checked against HAR 1.2's structure.
    func har(_ path: String) async throws -> [String: Any] {
        _ = try await HARCommandTests().readHAR(path)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["log"] as? [String: Any])
    }

    func entries(_ log: [String: Any]) throws -> [[String: Any]] { try #require(log["entries"] as? [[String: Any]]) }

    func request(_ entry: [String: Any]) -> [String: Any] { entry["request"] as? [String: Any] ?? [:] }
    func response(_ entry: [String: Any]) -> [String: Any] { entry["response"] as? [String: Any] ?? [:] }
    func content(_ entry: [String: Any]) -> [String: Any] { response(entry)["content"] as? [String: Any] ?? [:] }
    func path(_ entry: [String: Any]) -> String { URL(string: request(entry)["url"] as? String ?? "")?.path ?? "" }

    /// A page of chapters as such sites are written: a list fetched as JSON, more by XHR, a JSONP script, a style
    /// sheet and an iframe. Every entry has its kind; the bodies are in the file without any capture rule.
    @Test func everyResponseHasItsBodyAndKind() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(
                body: """
                    <html><head><title>Chapters</title><link rel="stylesheet" href="/site.css"></head><body><ul id="list"></ul>
                    <iframe src="/ad"></iframe><script>
                    function chapters(data) { document.title += " " + data.count; }
                    fetch("/api/a.json").then(r => r.json()).then(a => {
                      const x = new XMLHttpRequest(); x.open("GET", "/api/b.json");
                      x.onload = () => { for (const c of a.concat(JSON.parse(x.responseText))) list.insertAdjacentHTML("beforeend", "<li>" + c + "</li>"); };
                      x.send();
                    });
                    const s = document.createElement("script"); s.src = "/jsonp?callback=chapters"; document.head.appendChild(s);
                    </script></body></html>
                    """),
            "/site.css": .respond(contentType: "text/css", body: "li { color: navy }"),
            "/ad": .respond(body: "<p>an advert</p>"),
            "/api/a.json": .respond(contentType: "application/json", body: #"["one","two"]"#),
            "/api/b.json": .respond(contentType: "application/json", body: #"["three"]"#),
            "/jsonp?callback=chapters": .respond(contentType: "application/javascript", body: #"chapters({"count": 3})"#)
        ])
        let file = try folder().appending(path: "page.har").path
        let eval = try await webparse.run(
            ["eval", server.url("/").absoluteString, "document.querySelectorAll('li').length === 3 && document.title", "--har", file], environment: headless)
        #expect(eval.status == 0, "\(eval.stderr)")
        let entries = try entries(try await har(file))
        let byPath = Dictionary(entries.map { (path($0), $0) }, uniquingKeysWith: { first, _ in first })
        let expected: [(String, String, String)] = [
            ("/", "document", "<title>Chapters</title>"), ("/site.css", "stylesheet", "navy"), ("/api/a.json", "fetch", #"["one","two"]"#),
            ("/api/b.json", "xhr", #"["three"]"#), ("/jsonp", "script", #"chapters({"count": 3})"#)
        ]
        for (path, kind, text) in expected {
            let entry = try #require(byPath[path], "no entry for \(path): \(byPath.keys.sorted())")
            #expect(entry["_kind"] as? String == kind, "\(path)")
            #expect((content(entry)["text"] as? String)?.contains(text) == true, "\(path): \(content(entry))")
        }
        // WebKit's UI process gets no body of a frame's document: the entry says so instead of holding nothing.
        let frame = try #require(byPath["/ad"])
        #expect(frame["_kind"] as? String == "document")
        #expect((content(frame)["comment"] as? String)?.contains("frame's document") == true, "\(content(frame))")
    }

    /// A login as a Django site does it: a CSRF token in a cookie and a hidden field, a form posted with the user and
    /// a password from the environment, a 302 to the members' page (a session cookie without an expiry), whose data
    /// the page posts for as JSON. The file holds the GET, the POST with its fields, the redirect and the page after
    /// it, in order; the password appears nowhere in it, not even encoded.
    @Test func aLoginJobsFilePostAndRedirectWithoutThePassword() async throws {
        let password = "p@ss w0rd&=+ü"
        let server = try TestHTTPServer(routes: [
            "/login": .handle { request in
                guard request.method == "POST" else {
                    return .init(
                        headers: ["Set-Cookie": "csrftoken=tok123; Path=/"],
                        body: """
                            <form method="post" action="/login"><input type="hidden" name="csrfmiddlewaretoken" value="tok123">
                            <input name="username"><input name="password" type="password"><button type="submit">Log in</button></form>
                            """)
                }
                let fields = Dictionary(
                    request.body.split(separator: "&").map { pair in
                        let parts = pair.split(separator: "=", maxSplits: 1).map { $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
                        return (parts[0], parts.count > 1 ? parts[1] : "")
                    }, uniquingKeysWith: { first, _ in first })
                guard request.cookie("csrftoken") == "tok123", fields["csrfmiddlewaretoken"] == "tok123", fields["password"] == password else {
                    return .init(status: 403, body: "CSRF verification failed")
                }
                return .init(status: 302, headers: ["Location": "/members", "Set-Cookie": "sessionid=s1; Path=/; HttpOnly"], body: "")
            },
            "/members": .handle { request in
                guard request.cookie("sessionid") == "s1" else { return .init(status: 302, headers: ["Location": "/login"], body: "") }
                return .init(
                    body: """
                        <h1>Members</h1><p id="news"></p><script>
                        fetch("/api/news", {method: "POST", headers: {"Content-Type": "application/json", "X-CSRFToken": "tok123"}, body: JSON.stringify({since: 7})})
                          .then(r => r.json()).then(n => { news.textContent = n.latest; });
                        </script>
                        """)
            },
            "/api/news": .handle { request in
                .init(headers: ["Content-Type": "application/json"], body: request.body == #"{"since":7}"# ? #"{"latest": "chapter 8"}"# : #"{"latest": "?"}"#)
            }
        ])
        let directory = try folder()
        let config = try write(
            #"""
            {"jobs": [{"name": "members", "url": "\#(server.url("/login"))", "retries": 0,
              "steps": [{"fill": {"input[name=username]": "ann", "input[name=password]": {"env": "SITE_PASSWORD"}}}, {"click": "button[type=submit]"}],
              "script": "document.querySelector('#news')?.textContent || null"}]}
            """#, "config.json", in: directory)
        let file = directory.appending(path: "login.har").path
        var environment = headless
        environment["SITE_PASSWORD"] = password
        let run = try await webparse.run(["run", config, "--har", file], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdoutText.contains("chapter 8"), "\(run.stdoutText)")
        let entries = try entries(try await har(file))
        let steps = entries.map { "\(request($0)["method"] ?? "") \(path($0)) \(response($0)["status"] ?? "")" }
        let login = try #require(steps.firstIndex(of: "GET /login 200"), "\(steps)")
        let post = try #require(steps.firstIndex(of: "POST /login 302"), "\(steps)")
        let members = try #require(steps.firstIndex(of: "GET /members 200"), "\(steps)")
        let news = try #require(steps.firstIndex(of: "POST /api/news 200"), "\(steps)")
        #expect(login < post && post < members && members < news, "in the order they were made: \(steps)")
        #expect(response(entries[post])["redirectURL"] as? String == "/members")
        let form = try #require(request(entries[post])["postData"] as? [String: Any])
        #expect((form["mimeType"] as? String)?.hasPrefix("application/x-www-form-urlencoded") == true, "\(form)")
        let params = (form["params"] as? [[String: String]] ?? []).map { [$0["name"] ?? "", $0["value"] ?? ""] }
        #expect(params == [["csrfmiddlewaretoken", "tok123"], ["username", "ann"], ["password", "[env SITE_PASSWORD]"]], "\(form)")
        #expect((form["text"] as? String)?.contains("password=[env SITE_PASSWORD]") == true, "\(form)")
        let json = try #require(request(entries[news])["postData"] as? [String: Any])
        #expect(json["mimeType"] as? String == "application/json" && json["text"] as? String == #"{"since":7}"#, "\(json)")
        #expect(entries[news]["_kind"] as? String == "fetch")
        let bytes = try String(contentsOfFile: file, encoding: .utf8)
        for form in [password, "p%40ss+w0rd%26%3D%2B%C3%BC", "p%40ss%20w0rd%26%3D%2B%C3%BC"] {
            #expect(!bytes.contains(form), "the password appears in the HAR file as \(form)")
        }
    }

    /// A job that turns pages by `next` and follows each item's page: the next pages' requests are the job's page's,
    /// each followed page is a page of its own in the file, after the list's.
    @Test func nextAndFollowedPagesAreInTheFile() async throws {
        let server = try TestHTTPServer(routes: [
            "/list": .respond(body: #"<ul><li><a href="/item/1">one</a></li></ul><a rel="next" href="/list?page=2">next</a>"#),
            "/list?page=2": .respond(body: #"<ul><li><a href="/item/2">two</a></li></ul>"#),
            "/item/1": .respond(body: "<h1>Item 1</h1>"),
            "/item/2": .respond(body: "<h1>Item 2</h1>")
        ])
        let directory = try folder()
        let config = try write(
            #"""
            {"jobs": [{"name": "list", "url": "\#(server.url("/list"))", "next": "a[rel=next]", "maxPages": 3,
              "script": "[...document.querySelectorAll('li a')].map(a => ({url: a.href}))",
              "follow": {"field": "url", "as": "detail", "script": "document.querySelector('h1').textContent"}}]}
            """#, "config.json", in: directory)
        let file = directory.appending(path: "list.har").path
        let run = try await webparse.run(["run", config, "--har", file, "-j", "1"], environment: headless)
        #expect(run.status == 0, "\(run.stderr)")
        let log = try await har(file)
        let pages = try #require(log["pages"] as? [[String: Any]]).compactMap { $0["id"] as? String }
        // The list first; its detail pages in the order they started (they are loaded at once).
        let items = ["list \(server.url("/item/1"))", "list \(server.url("/item/2"))"]
        #expect(pages.first == "list" && pages.count == 3 && Set(pages.dropFirst()) == Set(items), "\(pages)")
        let rows = try entries(log).map { [$0["pageref"] as? String ?? "", request($0)["url"] as? String ?? ""] }
        #expect(rows.contains(["list", server.url("/list?page=2").absoluteString]), "\(rows)")
        #expect(rows.contains([items[0], server.url("/item/1").absoluteString]), "\(rows)")
        #expect(rows.contains([items[1], server.url("/item/2").absoluteString]), "\(rows)")
    }

    /// A response past the body limit (11 MiB, over the 10 MiB default) is in the file without its body, saying why;
    /// `--har-content omit` (or the config's `harContent`) writes no bodies at all.
    @Test func bodiesKeepToTheLimitsOrAreOmitted() async throws {
        let big = String(repeating: "1,", count: 11 << 19)
        let server = try TestHTTPServer(routes: [
            "/": .respond(body: #"<p id="size"></p><script>fetch("/big.json").then(r => r.text()).then(t => { size.textContent = t.length; });</script>"#),
            "/big.json": .respond(contentType: "application/json", body: "[\(big)1]")
        ])
        let directory = try folder()
        let file = directory.appending(path: "big.har").path
        let script = "document.querySelector('#size').textContent || null"
        let eval = try await webparse.run(["eval", server.url("/").absoluteString, script, "--har", file], environment: headless)
        #expect(eval.status == 0, "\(eval.stderr)")
        let entries = try entries(try await har(file))
        let json = try #require(entries.first { path($0) == "/big.json" })
        #expect(content(json)["text"] == nil)
        #expect((content(json)["comment"] as? String)?.contains("larger than the limit of 10485760 bytes") == true, "\(content(json))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)).count < 1 << 20)
        let omitted = try await webparse.run(
            ["eval", server.url("/").absoluteString, script, "--har", file, "--har-content", "omit"], environment: headless)
        #expect(omitted.status == 0, "\(omitted.stderr)")
        #expect(try self.entries(try await har(file)).allSatisfy { content($0)["text"] == nil })
        let config = try write(
            #"{"harContent": "omit", "url": "\#(server.url("/"))", "script": "document.querySelector('#size').textContent || null"}"#, "config.json",
            in: directory)
        let run = try await webparse.run(["run", config, "--har", file], environment: headless)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try self.entries(try await har(file)).allSatisfy { content($0)["text"] == nil })
        let wrong = try await webparse.run(["eval", server.url("/").absoluteString, "--har", file, "--har-content", "all"], environment: headless)
        #expect(wrong.status == 2 && wrong.stderr.contains("--har-content"), "\(wrong.stderr)")
    }
}
