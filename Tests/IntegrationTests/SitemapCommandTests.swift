import Foundation
import Synchronization
import TestSupport
import Testing

/// A crawl with `"sitemap"` adds the pages a site's sitemaps list, on real WebKit loads: the sitemaps its
/// `robots.txt` names, an index, a gzip'd file served as a download, within the crawl's rules; what is wrong with a
/// sitemap is a warning, never a failed crawl. `run` and the workers of a queue read the same pages.
@Suite struct SitemapCommandTests: CommandLineTest {
    /// A shop whose home page lists one product with its script (as a React or Vue shop's does), whose other
    /// products (`/product/2`, `/product/3`) and its orphan clearance page only its sitemaps list: an index that
    /// `robots.txt` names with the absolute URL sites write, a gzip'd sitemap on the shop's CDN, one with a page
    /// `robots.txt` disallows and a page of another host, one that answers 404 and one cut off mid-file.
    static func shop() throws -> (shop: TestHTTPServer, cdn: TestHTTPServer) {
        let cdnURL = Mutex("")
        let page = { (title: String) -> TestHTTPServer.Route in .respond(body: "<title>\(title)</title><h1>\(title)</h1>") }
        let urlset = { @Sendable (paths: [String], host: String) in
            #"<?xml version="1.0" encoding="UTF-8"?>\#n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\#n"#
                + paths.map { "<url><loc>\($0.hasPrefix("http") ? $0 : "http://" + host + $0)</loc><lastmod>2026-12-01</lastmod></url>\n" }
                .joined() + "</urlset>\n"
        }
        let shop = try TestHTTPServer(routes: [
            "/": .respond(
                body: """
                    <!doctype html><html><head><title>shop</title></head><body><div id="app"></div>
                    <script>setTimeout(() => { app.innerHTML = '<a href="/product/1">Product 1</a>'; }, 100);</script></body></html>
                    """),
            "/product/1": page("product 1"), "/product/2": page("product 2"), "/product/3": page("product 3"),
            "/clearance": page("clearance"), "/private/stock": page("stock"),
            "*": .handle { request in
                let host = request.headers["host"] ?? "127.0.0.1"
                switch request.path {
                case "/robots.txt":
                    return .init(
                        headers: ["Content-Type": "text/plain"],
                        body: "User-agent: *\nDisallow: /private/\n\nSitemap: http://\(host)/sitemap_index.xml\n")
                case "/sitemap_index.xml":
                    let files = [cdnURL.withLock { $0 }] + ["/sitemap-more.xml", "/sitemap-gone.xml", "/sitemap-cut.xml"].map { "http://\(host)\($0)" }
                    return .init(
                        headers: ["Content-Type": "application/xml"],
                        body: #"<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"#
                            + files.map { "<sitemap><loc>\($0)</loc></sitemap>" }.joined() + "</sitemapindex>")
                case "/sitemap-more.xml":
                    return .init(
                        headers: ["Content-Type": "text/xml"],
                        body: urlset(["/clearance", "/private/stock", "http://localhost:1/elsewhere", "/product/1"], host))
                case "/sitemap-cut.xml":
                    return .init(headers: ["Content-Type": "application/xml"], body: String(urlset(["/product/3", "/product/4"], host).prefix(200)))
                case "/named.xml":
                    return .init(headers: ["Content-Type": "application/xml"], body: urlset(["/clearance"], host))
                default:
                    return .init(status: 404, body: "not found")
                }
            }
        ])
        let products = try gzip(urlset(["/product/2", "/product/3"], "127.0.0.1:\(shop.port)"))
        let cdn = try TestHTTPServer(routes: [
            "/sitemaps/products.xml.gz": .bytes(contentType: "application/x-gzip", headers: [:], body: products)
        ])
        cdnURL.withLock { $0 = cdn.url("/sitemaps/products.xml.gz").absoluteString }
        return (shop, cdn)
    }

    /// The crawl of `server` from its home page by `crawl`: its pages by path, what it said on stderr, its exit status.
    func crawl(_ server: TestHTTPServer, _ crawl: String) async throws -> (pages: [String: String], stderr: String, status: Int32) {
        let config = try write(
            #"{"url": "\#(server.url("/"))", "script": "document.title", "retries": 0, "timeout": 15, "crawl": \#(crawl)}"#, "shop.json",
            in: try folder())
        let run = try await webparse.run(["run", config], environment: headless)
        let pages = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: String], "\(run.stdoutText) \(run.stderr)")
        return (Dictionary(uniqueKeysWithValues: pages.map { (URL(string: $0.key)?.path ?? $0.key, $0.value) }), run.stderr, run.status)
    }

    @Test func theSitemapsRobotsTxtNamesAddTheirPagesWithinTheCrawlsRules() async throws {
        let (shop, cdn) = try Self.shop()
        let (pages, stderr, status) = try await crawl(shop, #"{"sitemap": true}"#)
        #expect(status == 0, "\(stderr)")
        #expect(
            pages == ["/": "shop", "/product/1": "product 1", "/product/2": "product 2", "/product/3": "product 3", "/clearance": "clearance"],
            "\(stderr)")
        let warnings = stderr.split(separator: "\n").filter { $0.contains("sitemap") }
        #expect(warnings.count == 2, "\(stderr)")
        #expect(warnings.contains { $0.contains("warning: sitemap \(shop.url("/sitemap-gone.xml")) answered HTTP status 404: not read") }, "\(stderr)")
        #expect(warnings.contains { $0.contains("warning: sitemap \(shop.url("/sitemap-cut.xml")) line ") && $0.contains("1 entry read from it") }, "\(stderr)")
        #expect(shop.requests(for: "/private/stock").isEmpty && cdn.requests(for: "/sitemaps/products.xml.gz").count == 1)
        let (linked, _, _) = try await crawl(shop, "{}")
        #expect(Set(linked.keys) == ["/", "/product/1"], "without sitemap, only what links lead to")
    }

    @Test func aNamedSitemapIsReadAndAMissingOneIsAWarning() async throws {
        let (shop, _) = try Self.shop()
        let (pages, stderr, status) = try await crawl(shop, #"{"sitemap": "/named.xml", "maxDepth": 0}"#)
        #expect(status == 0 && Set(pages.keys) == ["/"], "maxDepth 0 holds sitemap pages too: \(stderr)")
        let (named, _, _) = try await crawl(shop, #"{"sitemap": "/named.xml"}"#)
        #expect(Set(named.keys) == ["/", "/product/1", "/clearance"])
        let bare = try TestHTTPServer(routes: [
            "/": .respond(body: "<title>home</title>"),
            "/endless.xml": .endless(contentType: "application/xml", head: "<urlset>", chunk: "<url><loc>/a</loc></url>\n")
        ])
        let (home, stderr2, status2) = try await crawl(bare, #"{"sitemap": true}"#)
        #expect(status2 == 0 && Set(home.keys) == ["/"], "\(stderr2)")
        #expect(stderr2.contains("warning: sitemap \(bare.url("/sitemap.xml")) answered HTTP status 404: not read"), "\(stderr2)")
        let (endless, stderr3, status3) = try await crawl(bare, #"{"sitemap": "/endless.xml"}"#)
        #expect(status3 == 0 && Set(endless.keys) == ["/"], "\(stderr3)")
        #expect(
            stderr3.contains("warning: sitemap \(bare.url("/endless.xml")) is larger than 50 MiB, the sitemaps protocol's limit: not read"), "\(stderr3)")
    }

    /// Three workers share the crawl: the start's item queues the sitemaps' pages as `run` reads them, each once.
    @Test func workersQueueTheSitemapsPagesAsRunReadsThem() async throws {
        let (shop, cdn) = try Self.shop()
        let directory = try folder()
        let job = #"{"name": "shop", "url": "\#(shop.url("/"))", "script": "document.title", "timeout": 10, "retries": 0, "crawl": {"sitemap": true}}"#
        let run = try await webparse.run(["run", try write(job, "shop.json", in: directory)], environment: headless)
        let crawled = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "\(run.stderr)")
        let redis = try RedisServer()
        try redis.cli(["RPUSH", "shop", job])
        let stderr = try await work(3, redis.url(queue: "shop"), ["-j", "2"])
        let urls = try redis.cli(["LRANGE", "shop:results", "0", "-1"]).split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["url"] as? String
        }
        #expect(urls.count == crawled.count && Set(urls) == Set(crawled.keys), "\(urls.sorted()) against \(crawled.keys.sorted())")
        #expect(crawled.count == 5 && stderr.contains("sitemap-gone.xml answered HTTP status 404"), "\(stderr)")
        #expect(cdn.requests(for: "/sitemaps/products.xml.gz").count == 2, "once for run, once for the workers")
    }

    /// `text`, gzip'd by `gzip`.
    static func gzip(_ text: String) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(filePath: "/bin/gzip")
        process.arguments = ["-c"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Array(bytes)
    }

    /// With `--state`, the second crawl of a 200-page site whose sitemap says 10 pages changed loads those 10
    /// documents (and the start page, `robots.txt` and the sitemap), whether the start page links to them or not,
    /// reports them as changed, and keeps the other pages' results; a third crawl with nothing changed loads no page
    /// but the start.
    @Test func aCrawlWithStateLoadsOnlyThePagesTheSitemapSaysChanged() async throws {
        let editions = Mutex([Int](repeating: 1, count: 201))
        let server = try TestHTTPServer(routes: [
            // The home page links to the first 20 pages, as an archive's front page does.
            "/": .respond(body: "<title>archive</title><h1>archive</h1>" + (1...20).map { #"<a href="/page/\#($0)">\#($0)</a>"# }.joined()),
            "/robots.txt": .respond(contentType: "text/plain", body: "User-agent: *\nAllow: /\n"),
            "*": .handle { request in
                let host = request.headers["host"] ?? "127.0.0.1"
                let now = editions.withLock { $0 }
                if request.path == "/sitemap.xml" {
                    let entries = (1...200).map { "<url><loc>http://\(host)/page/\($0)</loc><lastmod>2026-12-0\(now[$0])</lastmod></url>" }
                    return .init(headers: ["Content-Type": "application/xml"], body: "<urlset>" + entries.joined(separator: "\n") + "</urlset>")
                }
                guard request.path.hasPrefix("/page/"), let number = Int(request.path.dropFirst(6)), (1...200).contains(number) else {
                    return .init(status: 404, body: "not found")
                }
                return .init(body: "<title>page \(number), edition \(now[number])</title>")
            }
        ])
        let directory = try folder()
        let config = try write(
            #"{"name": "archive", "url": "\#(server.url("/"))", "script": "document.title", "retries": 0, "timeout": 15, "crawl": {"sitemap": true, "perHost": 4}}"#,
            "archive.json", in: directory)
        let state = directory.appending(path: "archive.state").path
        let run = { () async throws -> ProcessRunner.Outcome in
            try await webparse.run(["run", "--state", state, "--new-only", "--report", "changed", "-j", "4", "-v", config], environment: headless)
        }
        let first = try await run()
        #expect(first.status == 0 && first.stdoutText.isEmpty, "\(first.stdoutText)")
        #expect(server.requests.filter { $0.path.hasPrefix("/page/") }.count == 200)
        let changed = [3, 15, 50, 51, 99, 120, 150, 177, 190, 200]
        editions.withLock { for number in changed { $0[number] = 2 } }
        let before = server.requests.count
        let second = try await run()
        let asked = server.requests.dropFirst(before).map(\.path)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(Set(asked) == Set(["/", "/robots.txt", "/sitemap.xml"] + changed.map { "/page/\($0)" }) && asked.count == 13, "\(asked.sorted())")
        let records = try #require(try JSONSerialization.jsonObject(with: second.stdout) as? [[String: Any]], "\(second.stdoutText)")
        let titles = records.compactMap { ($0["item"] as? [String: Any])?["result"] as? String }
        #expect(Set(titles) == Set(changed.map { "page \($0), edition 2" }) && records.count == 10, "\(second.stdoutText)")
        #expect(second.stderr.contains("190 pages not loaded: unchanged in the sitemaps since the last crawl"), "\(second.stderr)")
        let beforeThird = server.requests.count
        let third = try await run()
        #expect(third.status == 0 && third.stdoutText.isEmpty, "\(third.stdoutText)")
        #expect(!server.requests.dropFirst(beforeThird).contains { $0.path.hasPrefix("/page/") })
        let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(filePath: state))) as? [String: Any]
        let archive = (saved?["jobs"] as? [String: Any])?["archive"] as? [String: Any]
        #expect((archive?["lastmods"] as? [String: String])?.count == 200 && (archive?["seen"] as? [String])?.count == 201)
        let plain = try await webparse.run(["run", "--state", state, config], environment: headless)
        let all = try #require(try JSONSerialization.jsonObject(with: plain.stdout) as? [String: String], "\(plain.stdoutText)")
        #expect(all.count == 201 && all[server.url("/page/50").absoluteString] == "page 50, edition 2", "the whole site, its unchanged pages' results standing")
    }
}
