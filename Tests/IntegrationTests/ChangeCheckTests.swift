import Foundation
import TestSupport
import Testing

/// Change checks run after run from cron, with a state file: `when` conditions, confirmed removals, health and its
/// notices, `every`, and `status`, against a shop whose page is rendered by its script from an API.
@Suite(.serialized) struct ChangeCheckTests: CommandLineTest {
    /// A shop as such sites are written: an empty `<div id="app">` that its script fills from `/api/products`, a product
    /// at a time; the test sets the products and can make the API answer 503.
    final class Shop: Sendable {
        let products = Shared<[(sku: String, name: String, price: Int, stock: String)]>([])
        let failing = Shared(false)
        let server: TestHTTPServer

        init() throws {
            let (products, failing) = (products, failing)
            server = try TestHTTPServer(routes: [
                "/shop": .handle { _ in
                    TestHTTPServer.Response(
                        body: """
                            <!doctype html><title>Shop</title><div id="app">Loading…</div>
                            <script>
                            fetch('/api/products').then(r => { if (!r.ok) throw new Error('HTTP ' + r.status); return r.json(); }).then(list => {
                              const app = document.getElementById('app');
                              app.textContent = '';
                              list.forEach((p, i) => setTimeout(() => {
                                app.insertAdjacentHTML('beforeend', `<div class="product" data-sku="${p.sku}"><h2>${p.name}</h2>
                                  <span class="price">$${p.price}.00</span><span class="stock">${p.stock}</span></div>`);
                              }, 20 * i));
                            }).catch(e => { document.getElementById('app').textContent = 'Sorry: ' + e.message; });
                            </script>
                            """)
                },
                "/api/products": .handle { _ in
                    guard !failing.value else { return TestHTTPServer.Response(status: 503, body: "down for maintenance") }
                    let list = products.value.map { #"{"sku":"\#($0.sku)","name":"\#($0.name)","price":\#($0.price),"stock":"\#($0.stock)"}"# }
                    return TestHTTPServer.Response(headers: ["Content-Type": "application/json"], body: "[" + list.joined(separator: ",") + "]")
                }
            ])
        }

        /// Sets the shop's products: each name's price, "Sold out" for a negative one.
        func show(_ prices: [(String, Int)]) {
            products.value = prices.map { name, price in (name.lowercased(), name, abs(price), price < 0 ? "Sold out" : "In stock") }
        }
    }

    /// The shop's config: its products as `{sku, name, price, stock}`, waited for until the page has them all (or says
    /// it is sorry, which is a failure), with `extra` fields.
    func config(_ shop: Shop, _ extra: String, in directory: URL) throws -> String {
        try write(
            #"""
            {"name": "shop", "url": "\#(shop.server.url("/shop"))", "key": "sku", "retries": 0, "timeout": 10,
             "script": "() => { const app = document.getElementById('app'); if (app.textContent.startsWith('Sorry')) throw new Error(app.textContent); const p = [...document.querySelectorAll('.product')]; return p.length === \#(shop.products.value.count) ? p.map(e => ({sku: e.dataset.sku, name: e.querySelector('h2').textContent, price: Number(e.querySelector('.price').textContent.replace(/[^0-9.]/g, '')), stock: e.querySelector('.stock').textContent})) : null; }"
             \#(extra)}
            """#, "shop-\(shop.products.value.count).json", in: directory)
    }

    func run(_ config: String, _ state: String, _ extra: [String] = []) async throws -> ProcessRunner.Outcome {
        try await webparse.run(["run", "--state", state, "--new-only"] + extra + [config], environment: headless)
    }

    func names(_ output: ProcessRunner.Outcome) -> [String] {
        let list = (try? JSONSerialization.jsonObject(with: output.stdout)) as? [[String: Any]]
        return list?.compactMap { $0["name"] as? String } ?? []
    }

    @Test func aPriceDropIsReportedWhenItHappensNotWhileItLasts() async throws {
        let shop = try Shop()
        let directory = try folder()
        let state = directory.appending(path: "shop.state").path
        shop.show([("Widget", 350), ("Gadget", 500), ("Doohickey", 120)])
        let config = try config(shop, #", "when": "item.price < 300 && item.stock !== 'Sold out'""#, in: directory)
        let first = try await run(config, state)
        #expect(first.status == 0 && first.stdout.isEmpty, "the first run records and reports nothing: \(first.stderr)")
        var reported: [[String]] = []
        for prices in [[("Widget", 250)], [("Widget", 240)], [("Widget", 400)], [("Widget", 200)], [("Widget", -200)], [("Widget", 190)]] {
            shop.show(prices + [("Gadget", 500), ("Doohickey", 120)])
            let run = try await run(config, state)
            #expect(run.status == 0, "\(run.stderr)")
            reported.append(names(run))
        }
        #expect(reported == [["Widget"], [], [], ["Widget"], [], ["Widget"]], "true, still true, false, true, sold out, back: three times")
        shop.show([("Widget", 190), ("Gadget", 500), ("Doohickey", 120), ("Gizmo", 99), ("Thing", 999)])
        let new = try await run(try self.config(shop, #", "when": "item.price < 300 && item.stock !== 'Sold out'""#, in: directory), state)
        #expect(names(new) == ["Gizmo"], "a new item that holds; not one that does not")
        shop.show([("Widget", 180), ("Gadget", 500), ("Doohickey", 120), ("Gizmo", 99), ("Thing", 999)])
        let changed = try await run(try self.config(shop, #", "when": "item.price < 300""#, in: directory), state, ["--report", "changed", "--jsonl"])
        let lines = changed.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.count == 1 && lines[0].contains(#""change":"changed""#) && lines[0].contains(#""price":180"#), "\(changed.stdoutText)")
    }

    @Test func aConditionThatFailsForSomeItemsIsSaidAndTheOthersAreReported() async throws {
        let shop = try Shop()
        let directory = try folder()
        let state = directory.appending(path: "shop.state").path
        shop.show([("Widget", 350), ("Gadget", 500), ("Doohickey", 350)])
        let when = #", "when": "item.sku === 'widget' ? (() => { for (;;); })() : item.sku === 'gadget' ? missingGlobal < 1 : item.price < 300""#
        _ = try await run(try config(shop, when, in: directory), state)
        shop.show([("Widget", 100), ("Gadget", 100), ("Doohickey", 100)])
        let run = try await run(try config(shop, when, in: directory), state)
        #expect(run.status == 0)
        #expect(names(run) == ["Doohickey"], "\(run.stdoutText) \(run.stderr)")
        #expect(
            run.stderr.contains(#"webparse: shop: when: it ran longer than 1 s and was stopped, for the item "widget"; it is not reported"#), "\(run.stderr)")
        #expect(run.stderr.contains(#"ReferenceError: Can't find variable: missingGlobal, for the item "gadget""#), "\(run.stderr)")
        let bad = try write(#"{"url": "https://a.test/", "script": "1", "when": "item.price <"}"#, "bad.json", in: directory)
        let validated = try await webparse.run(["validate", bad])
        #expect(validated.status == 2 && validated.stderr.contains("when: expected a JavaScript expression over item"), "\(validated.stderr)")
    }

    @Test func anItemMissingOnceIsNotRemovedAndOneMissingTwiceIsOnce() async throws {
        let shop = try Shop()
        let directory = try folder()
        let state = directory.appending(path: "shop.state").path
        let all = [("Widget", 350), ("Gadget", 500), ("Doohickey", 120)]
        shop.show(all)
        _ = try await run(try config(shop, "", in: directory), state)
        shop.show([("Widget", 350)])
        let halfServed = try await run(try config(shop, "", in: directory), state, ["--report", "all", "--jsonl"])
        #expect(halfServed.status == 0 && halfServed.stdout.isEmpty, "missing once: \(halfServed.stdoutText)")
        shop.show(all)
        let back = try await run(try config(shop, "", in: directory), state, ["--report", "all", "--jsonl"])
        #expect(back.stdout.isEmpty, "back, and seen before: \(back.stdoutText)")
        shop.show([("Widget", 350), ("Gadget", 500)])
        _ = try await run(try config(shop, "", in: directory), state, ["--report", "removed", "--jsonl"])
        let endpoint = try TestHTTPServer(routes: ["/": .handle { _ in TestHTTPServer.Response(body: "") }])
        let feed = directory.appending(path: "shop.atom").path
        let gone = try await run(
            try config(shop, "", in: directory), state,
            ["--report", "removed", "--jsonl", "--feed", feed, "--notify", "json://127.0.0.1:\(endpoint.url("/").port!)/"])
        #expect(
            gone.stdoutText == #"{"job":"shop","item":{"name":"Doohickey","price":120,"sku":"doohickey","stock":"In stock"},"change":"removed"}"# + "\n",
            "\(gone.stdoutText) \(gone.stderr)")
        let message = endpoint.requests.first.flatMap { try? JSONSerialization.jsonObject(with: Data($0.body.utf8)) as? [String: Any] }
        #expect(message?["title"] as? String == "webparse: shop: 1 removed" && message?["message"] as? String == "removed: Doohickey", "\(message ?? [:])")
        #expect(try String(contentsOfFile: feed, encoding: .utf8).contains("<title>Removed: Doohickey</title>"))
        let after = try await run(try config(shop, "", in: directory), state, ["--report", "removed", "--jsonl"])
        #expect(after.stdout.isEmpty, "said once")
    }

    @Test func threeFailingRunsThenAGoodOneSendTwoNoticesAndNoChange() async throws {
        let shop = try Shop()
        let directory = try folder()
        let state = directory.appending(path: "shop.state").path
        let endpoint = try TestHTTPServer(routes: ["/": .handle { _ in TestHTTPServer.Response(body: "") }])
        let notify = ["--notify", "json://127.0.0.1:\(endpoint.url("/").port!)/", "--report", "all"]
        shop.show([("Widget", 350), ("Gadget", 500)])
        let config = try config(shop, "", in: directory)
        _ = try await run(config, state, notify)
        shop.failing.value = true
        var codes: [Int32] = []
        for _ in 1...3 {
            let failed = try await run(config, state, notify)
            codes.append(failed.status)
            #expect(failed.stdout.isEmpty && failed.stderr.contains("Sorry: HTTP 503"), "\(failed.stderr)")
        }
        #expect(codes == [1, 1, 1])
        let status = try await webparse.run(["status", "--json", state])
        let health = try #require((try JSONSerialization.jsonObject(with: status.stdout) as? [[String: Any]])?.first)
        #expect(health["health"] as? String == "failing" && health["code"] as? String == "script-failed" && health["failures"] as? Int == 3, "\(health)")
        shop.failing.value = false
        let recovered = try await run(config, state, notify)
        #expect(recovered.status == 0 && recovered.stdout.isEmpty, "no change is reported: \(recovered.stdoutText) \(recovered.stderr)")
        let messages = endpoint.requests.compactMap { try? JSONSerialization.jsonObject(with: Data($0.body.utf8)) as? [String: Any] }
        #expect(messages.map { $0["title"] as? String } == ["webparse: shop is failing", "webparse: shop recovered"], "\(messages)")
        #expect((messages.first?["message"] as? String)?.contains("shop failed 1 run in a row (script-failed, since ") == true, "\(messages)")
        let table = try await webparse.run(["status", state])
        #expect(table.status == 0 && table.stdoutText.hasPrefix("JOB   HEALTH  LAST SUCCESS"), "\(table.stdoutText)")
        #expect(table.stdoutText.split(separator: "\n").last?.hasPrefix("shop  ok      20") == true, "\(table.stdoutText)")
    }

    @Test func eachJobRunsAtItsOwnPaceFromOneCronLine() async throws {
        let page = TestHTTPServer.Route.handle { _ in TestHTTPServer.Response(body: "<ul><li>Chapter 1</li><li>Chapter 2</li></ul>") }
        let site = try TestHTTPServer(routes: ["/news": page, "/daily": page, "/quick": page])
        let directory = try folder()
        let state = directory.appending(path: "pace.state").path
        let config = try write(
            #"""
            {"defaults": {"retries": 0, "script": "[...document.querySelectorAll('li')].map(e => e.textContent)"}, "jobs": [
              {"name": "news", "url": "\#(site.url("/news"))"},
              {"name": "daily", "url": "\#(site.url("/daily"))", "every": "1d", "jitter": "1h"},
              {"name": "quick", "url": "\#(site.url("/quick"))", "every": "2s"}
            ]}
            """#, "pace.json", in: directory)
        let first = try await webparse.run(["run", "--state", state, "--jsonl", config], environment: headless)
        #expect(first.status == 0 && first.stdoutText.split(separator: "\n").count == 3, "\(first.stdoutText) \(first.stderr)")
        let loads = { site.requests.map(\.path) }
        #expect(Set(loads()) == ["/news", "/daily", "/quick"])

        let second = try await webparse.run(["run", "--state", state, "--jsonl", "-v", config], environment: headless)
        #expect(second.status == 0, "\(second.stderr)")
        let records = second.stdoutText.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let daily = try #require(records.first { $0["job"] as? String == "daily" })
        #expect(daily["status"] as? String == "not-due" && (daily["due"] as? String)?.hasSuffix("Z") == true, "\(daily)")
        #expect(second.stderr.contains("webparse: daily: not due until "), "\(second.stderr)")
        #expect(loads().filter { $0 == "/daily" }.count == 1, "a job that is not due is not loaded")
        #expect(loads().filter { $0 == "/news" }.count == 2)

        // The quick job is due again once its two seconds are over: the state says when.
        let status = try await webparse.run(["status", "--json", state])
        let quick = try #require((try JSONSerialization.jsonObject(with: status.stdout) as? [[String: Any]])?.first { $0["job"] as? String == "quick" })
        let due = try #require((quick["due"] as? String).flatMap { try? Date($0, strategy: .iso8601) })
        while Date() <= due.addingTimeInterval(1) { try await Task.sleep(for: .milliseconds(200)) }
        let third = try await webparse.run(["run", "--state", state, "--new-only", config], environment: headless)
        #expect(third.status == 0, "\(third.stderr)")
        #expect(loads().filter { $0 == "/quick" }.count >= 2 && loads().filter { $0 == "/daily" }.count == 1)
        let all = try await webparse.run(["run", "--state", state, "--new-only", "--all", config], environment: headless)
        #expect(all.status == 0 && loads().filter { $0 == "/daily" }.count == 2, "--all runs every job")
    }

    @Test func anOlderStateFileIsReadAndCarriedOn() async throws {
        let shop = try Shop()
        let directory = try folder()
        let state = directory.appending(path: "old.state").path
        shop.show([("Widget", 350), ("Gadget", 500)])
        try #"""
        {"version": 2, "jobs": {"shop": {"seen": ["k:\"widget\""], "contents": {"k:\"widget\"": "{\"name\":\"Widget\",\"price\":300,\"sku\":\"widget\",\"stock\":\"In stock\"}"},
          "lastResult": "x", "lastSuccess": "2026-11-01T00:00:00Z", "consecutiveFailures": 0}}}
        """#.write(toFile: state, atomically: true, encoding: .utf8)
        let run = try await run(try config(shop, "", in: directory), state, ["--report", "all", "--jsonl"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdoutText.split(separator: "\n")
        #expect(
            lines.count == 2 && lines[0].contains(#""change":"added""#) && lines[0].contains("Gadget") && lines[1].contains(#""before":{"#), "\(run.stdoutText)"
        )
        let saved = try String(contentsOfFile: state, encoding: .utf8)
        #expect(saved.contains(#""version" : 3"#) && saved.contains(#""listed" : 2"#))
    }
}
