import Foundation
import TestSupport
import Testing
import WebParser

/// An answer is final the moment nothing on the page can change it: pages that render the rest of their list later,
/// without a request (a timer, a worker, a frame's timer, an animation's end, animation frames, an idle callback),
/// are waited for and answered once they have run; pages with nothing pending are answered at once, without the
/// settle time; pages that are never still (a clock, a poll) keep the settle rule; hostile pages that try to look
/// still while a change is coming do not.
@Suite(.serialized) struct PendingWorkTests {
    /// The script of every page here: how many items the list has.
    static let count = "document.querySelectorAll('li').length || null"

    /// Adds items `from`…`to` to the page's list: the helper every page here defines.
    static let add = """
        const add = (from, to) => {
          for (let n = from; n <= to; n++) { const item = document.createElement("li"); item.textContent = "item " + n; list.appendChild(item); }
        };
        """

    func job(_ url: URL, settle: Duration = Evaluation.defaultSettle, timeout: Duration = .seconds(20)) -> WebParserJob {
        var evaluation = Evaluation(script: Self.count)
        evaluation.settle = settle
        return WebParserJob(url: url, evaluation: evaluation, timeout: timeout, retry: RetryPolicy(retries: 0))
    }

    /// The site of the four pages that gave 1 of 8 items with the fixed settle time: the first item at once, the
    /// rest later without a request.
    static func laterSite() throws -> TestHTTPServer {
        try TestHTTPServer(routes: [
            "/timer": .respond(
                body: """
                    <!doctype html><ul id="list"></ul><script>\(add)
                    fetch("/data.json").then(r => r.json()).then(() => { add(1, 1); setTimeout(() => add(2, 8), 600); });
                    </script>
                    """),
            "/worker": .respond(
                body: """
                    <!doctype html><ul id="list"></ul><script>\(add)
                    add(1, 1);
                    new Worker("/work.js").onmessage = (event) => add(2, event.data);
                    </script>
                    """),
            "/work.js": .respond(contentType: "application/javascript", body: "const end = Date.now() + 500; while (Date.now() < end) {} postMessage(8);"),
            "/frame": .respond(
                body: """
                    <!doctype html><ul id="list"></ul><script>\(add)
                    window.add = add; add(1, 1);
                    </script><iframe src="/inner"></iframe>
                    """),
            "/inner": .respond(body: "<script>setTimeout(() => parent.add(2, 8), 500);</script>"),
            "/animation": .respond(
                body: """
                    <!doctype html><style>.loading { animation: fade 500ms; } @keyframes fade { from { opacity: 0; } to { opacity: 1; } }</style>
                    <ul id="list" class="loading"></ul><script>\(add)
                    add(1, 1);
                    list.addEventListener("animationend", () => add(2, 8));
                    </script>
                    """),
            "/data.json": .respond(contentType: "application/json", body: #"{"items": 8}"#)
        ])
    }

    /// The four pages, with the default settings, on a machine whose cores are kept busy: all 8 items every time,
    /// and the result says what was waited for.
    @Test(arguments: ["/timer", "/worker", "/frame", "/animation"])
    func whatThePageRendersLaterIsWaitedFor(_ path: String) async throws {
        let server = try Self.laterSite()
        let load = CPULoad(threads: 2)
        defer { load.stop() }
        for _ in 0..<3 {
            let result = try await WebParserRunner().run(job(server.url(path)))
            #expect(String(decoding: result.data, as: UTF8.self) == "8", "\(path): \(result.settledBy ?? "")")
            #expect(result.settledBy != nil)
        }
    }

    /// Animation frames that render a list in chunks, an idle callback that renders the rest (as sites call it: with
    /// a timer where the browser has none, as WebKitGTK 2.50 has not), a scheduler that
    /// hands work over a MessageChannel (as React's does), observers whose first callback renders, IndexedDB that
    /// answers later: each is waited for.
    @Test(arguments: ["/frames", "/idle", "/channel", "/observer", "/indexeddb"])
    func otherRoutesAreWaitedFor(_ path: String) async throws {
        let server = try TestHTTPServer(routes: [
            "/frames": .respond(
                body: """
                    <!doctype html><ul id="list"></ul><script>\(Self.add)
                    let next = 1;
                    const chunk = () => { add(next, next); next += 1; if (next <= 8) requestAnimationFrame(chunk); };
                    requestAnimationFrame(chunk);
                    </script>
                    """),
            "/idle": .respond(
                body: """
                    <!doctype html><ul id="list"></ul><script>\(Self.add)
                    const idle = window.requestIdleCallback || ((callback) => setTimeout(() => callback({ timeRemaining: () => 50 }), 1));
                    add(1, 1); idle(() => add(2, 8));
                    </script>
                    """),
            "/channel": .respond(
                body: """
                    <!doctype html><ul id="list"></ul><script>\(Self.add)
                    const channel = new MessageChannel();
                    let next = 1;
                    channel.port1.onmessage = () => { const end = performance.now() + 40; while (performance.now() < end) {} add(next, next); next += 1; if (next <= 8) channel.port2.postMessage(null); };
                    channel.port2.postMessage(null);
                    </script>
                    """),
            "/observer": .respond(
                body: """
                    <!doctype html><ul id="list"></ul><div id="sentinel"></div><script>\(Self.add)
                    add(1, 1);
                    new IntersectionObserver((entries, observer) => { observer.disconnect(); setTimeout(() => add(2, 8), 100); }).observe(sentinel);
                    </script>
                    """),
            "/indexeddb": .respond(
                body: """
                    <!doctype html><ul id="list"></ul><script>\(Self.add)
                    add(1, 1);
                    const request = indexedDB.open("cache", 1);
                    request.onupgradeneeded = () => request.result.createObjectStore("lists");
                    request.onsuccess = () => {
                      const store = request.result.transaction("lists", "readwrite").objectStore("lists");
                      store.put(8, "count").onsuccess = () => { store.get("count").onsuccess = (event) => add(2, event.target.result); };
                    };
                    </script>
                    """)
        ])
        let result = try await WebParserRunner().run(job(server.url(path)))
        #expect(String(decoding: result.data, as: UTF8.self) == "8", "\(path): \(result.settledBy ?? "")")
    }

    /// A page with nothing pending is answered at once, whatever the settle time: a page whose script rendered its
    /// list from its data, a settle time of a minute, a result well within the timeout, settled by nothing pending.
    @Test func aPageWithNothingPendingIsAnsweredAtOnce() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(
                body: """
                    <!doctype html><ul id="list"></ul><script>\(Self.add)
                    fetch("/data.json").then(r => r.json()).then((data) => add(1, data.items));
                    </script>
                    """),
            "/data.json": .respond(contentType: "application/json", body: #"{"items": 3}"#)
        ])
        let result = try await WebParserRunner().run(job(server.url("/"), settle: .seconds(60), timeout: .seconds(20)))
        #expect(String(decoding: result.data, as: UTF8.self) == "3")
        #expect(result.settledBy?.hasPrefix("nothing pending") == true, "\(result.settledBy ?? "")")
    }

    /// A page with video and audio elements, which are plain elements while media is off (the default): nothing
    /// plays, and nothing is pending once the list is rendered.
    @Test func mediaElementsWhileMediaIsOffHoldNothing() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(
                body: """
                    <!doctype html><video src="/clip.mp4" autoplay muted></video><audio src="/song.mp3" autoplay></audio>
                    <ul id="list"></ul><script>\(Self.add)
                    fetch("/data.json").then(r => r.json()).then((data) => add(1, data.items));
                    </script>
                    """),
            "/data.json": .respond(contentType: "application/json", body: #"{"items": 3}"#)
        ])
        let result = try await WebParserRunner().run(job(server.url("/"), settle: .seconds(60), timeout: .seconds(20)))
        #expect(String(decoding: result.data, as: UTF8.self) == "3")
        #expect(result.settledBy?.hasPrefix("nothing pending") == true, "\(result.settledBy ?? "")")
    }

    /// Pages that are never provably still keep the settle rule, and are answered: a clock ticking beside a finished
    /// list, a page that polls its server every 300 ms, a worker that stays; a timer due beyond the look-ahead (a
    /// poll every 30 s) does not hold the answer at all.
    @Test func pagesThatAreNeverStillKeepTheSettleRule() async throws {
        let server = try TestHTTPServer(routes: [
            "/clock": .respond(
                body: """
                    <!doctype html><p id="clock"></p><ul id="list"></ul><script>\(Self.add)
                    add(1, 4); setInterval(() => { clock.textContent = new Date().toISOString(); }, 100);
                    </script>
                    """),
            "/poll": .respond(
                body: """
                    <!doctype html><p id="status"></p><ul id="list"></ul><script>\(Self.add)
                    add(1, 4);
                    const poll = () => fetch("/status").then(r => r.text()).then((text) => { status.textContent = text; setTimeout(poll, 300); });
                    poll();
                    </script>
                    """),
            "/status": .respond(contentType: "text/plain", body: "ok"),
            "/later": .respond(
                body: """
                    <!doctype html><ul id="list"></ul><script>\(Self.add)
                    add(1, 4); setTimeout(() => location.reload(), 30000);
                    </script>
                    """)
        ])
        for path in ["/clock", "/poll"] {
            let result = try await WebParserRunner().run(job(server.url(path)))
            #expect(String(decoding: result.data, as: UTF8.self) == "4", "\(path)")
            #expect(result.settledBy?.contains("stayed the same") == true, "\(path): \(result.settledBy ?? "")")
        }
        let later = try await WebParserRunner().run(job(server.url("/later"), settle: .seconds(60)))
        #expect(String(decoding: later.data, as: UTF8.self) == "4")
        #expect(later.settledBy?.hasPrefix("nothing pending") == true, "\(later.settledBy ?? "")")
    }

    /// Pages that try to look still while a change is coming: a timer set through a fresh frame's own setTimeout, a
    /// worker made from a blob, a setTimeout the page took before its own scripts could change it and calls through
    /// `Function.prototype.call`, a page that replaces setTimeout with its own scheduler. Each is waited for.
    @Test(arguments: ["/through-frame", "/blob-worker", "/captured", "/replaced"])
    func hostilePagesDoNotLookStill(_ path: String) async throws {
        let server = try TestHTTPServer(routes: [
            "/through-frame": .respond(
                body: """
                    <!doctype html><ul id="list"></ul><script>\(Self.add)
                    add(1, 1);
                    const frame = document.createElement("iframe"); document.body.appendChild(frame);
                    frame.contentWindow.setTimeout(() => add(2, 8), 600);
                    </script>
                    """),
            "/blob-worker": .respond(
                body: """
                    <!doctype html><ul id="list"></ul><script>\(Self.add)
                    add(1, 1);
                    const code = "const end = Date.now() + 500; while (Date.now() < end) {} postMessage(8);";
                    new Worker(URL.createObjectURL(new Blob([code], { type: "text/javascript" }))).onmessage = (event) => add(2, event.data);
                    </script>
                    """),
            "/captured": .respond(
                body: """
                    <!doctype html><ul id="list"></ul><script>\(Self.add)
                    const later = Object.getOwnPropertyDescriptor(window, "setTimeout").value;
                    delete window.setTimeout;
                    add(1, 1); Function.prototype.call.call(later, window, () => add(2, 8), 600);
                    </script>
                    """),
            "/replaced": .respond(
                body: """
                    <!doctype html><ul id="list"></ul><script>\(Self.add)
                    const channel = new MessageChannel(), queue = [];
                    channel.port1.onmessage = () => queue.shift()();
                    window.setTimeout = (callback) => { queue.push(callback); channel.port2.postMessage(null); };
                    add(1, 1);
                    setTimeout(() => { const end = performance.now() + 300; while (performance.now() < end) {} add(2, 8); });
                    </script>
                    """)
        ])
        let result = try await WebParserRunner().run(job(server.url(path)))
        #expect(String(decoding: result.data, as: UTF8.self) == "8", "\(path): \(result.settledBy ?? "")")
    }

    /// A page that schedules timers without end, makes workers in a loop and opens sockets by the hundred: the
    /// hook's records stay bounded and the job ends (the page is never still, so the settle rule answers it).
    @Test func aPageThatSchedulesWithoutEndStillEnds() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(
                body: """
                    <!doctype html><ul id="list"></ul><script>\(Self.add)
                    add(1, 2);
                    const flood = () => { for (let n = 0; n < 500; n++) setTimeout(() => {}, 1000 + n); setTimeout(flood, 10); };
                    flood();
                    for (let n = 0; n < 50; n++) new Worker(URL.createObjectURL(new Blob(["setInterval(() => {}, 1000)"])));
                    for (let n = 0; n < 200; n++) try { new WebSocket("ws://127.0.0.1:9/"); } catch {}
                    </script>
                    """)
        ])
        let result = try await WebParserRunner().run(job(server.url("/"), timeout: .seconds(20)))
        #expect(String(decoding: result.data, as: UTF8.self) == "2")
        #expect(result.settledBy?.contains("stayed the same") == true, "\(result.settledBy ?? "")")
    }

    /// A page that renders its rest later than the look-ahead is answered without it (its timer does not hold the
    /// answer, as a poll's would not); a longer `lookAhead` waits for it.
    @Test func aLongerLookAheadWaitsForALaterRender() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(body: "<!doctype html><ul id=\"list\"></ul><script>\(Self.add) add(1, 1); setTimeout(() => add(2, 8), 4000);</script>")
        ])
        let early = try await WebParserRunner().run(job(server.url("/")))
        #expect(String(decoding: early.data, as: UTF8.self) == "1")
        var patient = job(server.url("/"))
        patient.evaluation.lookAhead = .seconds(6)
        let later = try await WebParserRunner().run(patient)
        #expect(String(decoding: later.data, as: UTF8.self) == "8", "\(later.settledBy ?? "")")
    }

    /// A page of frames nested as deep as each frame makes another (WebKit stops making them past its limit, so the
    /// deepest never load): a load pending longer than the look-ahead does not hold the answer, which comes every
    /// run once it has stayed the same.
    @Test func aFrameThatNeverLoadsDoesNotHoldTheAnswer() async throws {
        let nest =
            "<script>const f = document.createElement('iframe'); f.srcdoc = frameElement.getAttribute('srcdoc'); document.documentElement.appendChild(f);</script>"
        let server = try TestHTTPServer(routes: [
            "/": .respond(
                body: """
                    <!doctype html><ul id="list"></ul><script>\(Self.add) setTimeout(() => add(1, 3), 300);</script>
                    <iframe srcdoc="\(nest)"></iframe>
                    """)
        ])
        let load = CPULoad()
        defer { load.stop() }
        for round in 1...4 {
            let result = try await WebParserRunner().run(job(server.url("/"), timeout: .seconds(25)))
            #expect(String(decoding: result.data, as: UTF8.self) == "3", "round \(round): \(result.settledBy ?? "")")
            #expect(result.settledBy?.contains("a frame or script loading for over 3000 ms") == true, "round \(round): \(result.settledBy ?? "")")
        }
    }

    /// A message posted to a port no one listens to is never delivered: pending longer than the look-ahead, it is
    /// work that stays, and the answer comes by the settle rule.
    @Test func aMessageNeverDeliveredDoesNotHoldTheAnswer() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(
                body: """
                    <!doctype html><ul id="list"></ul><script>\(Self.add)
                    const channel = new MessageChannel();
                    channel.port2.postMessage("hello");
                    setTimeout(() => add(1, 3), 300);
                    </script>
                    """)
        ])
        let result = try await WebParserRunner().run(job(server.url("/")))
        #expect(String(decoding: result.data, as: UTF8.self) == "3")
        #expect(result.settledBy == "the answer stayed the same for 200 ms (a message on its way pending for over 3000 ms)")
    }
}
