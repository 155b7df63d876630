import Foundation
import TestSupport
import Testing
import WebParser

/// What the page's view shows and where it may go: theme colours, screenshots, popups, other schemes, URLs.
extension PageBridgeTests {
    static let colourPage = """
        <body style="margin:0;background:rgb(255,0,0)">
        <div style="position:absolute;left:0;top:0;width:100px;height:50px;background:rgb(0,0,255)"></div>
        <div style="height:900px"></div>
        </body>
        """

    /// Form controls take their accent from GTK's theme: on webparse's private display, from its one-line theme,
    /// as from GTK's default theme Adwaita (WebKit's own fallback is a shade off).
    @Test func formControlsHaveAdwaitasAccent() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(body: #"<body style="margin:0"><progress value=1 max=1 style="width:400px;height:40px"></progress>"#)
        ])
        let directory = FileManager.default.temporaryDirectory.appending(path: "webparse-accent-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var job = try job(server.url("/"), "document.readyState === 'complete'")
        job.page.viewport = Viewport(width: 400, height: 200)
        job.evaluation.screenshot = .init(file: directory.appending(path: "accent.png"))
        _ = try await WebParserRunner().run(job)
        #expect(try PNGImage(contentsOf: directory.appending(path: "accent.png")).pixel(x: 200, y: 2) == [53, 132, 228, 255])
    }

    @Test func aScreenshotShowsThePageAtItsViewport() async throws {
        let server = try TestHTTPServer(routes: ["/": .respond(body: Self.colourPage)])
        let directory = FileManager.default.temporaryDirectory.appending(path: "webparse-shots-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var job = try job(server.url("/"), "document.readyState === 'complete'")
        job.page.viewport = Viewport(width: 320, height: 240)
        job.evaluation.screenshot = .init(file: directory.appending(path: "page.png"))
        _ = try await WebParserRunner().run(job)
        let image = try PNGImage(contentsOf: directory.appending(path: "page.png"))
        #expect(image.width == 320 && image.height == 240)
        #expect(image.pixel(x: 10, y: 10) == [0, 0, 255, 255])
        #expect(image.pixel(x: 200, y: 200) == [255, 0, 0, 255])

        job.evaluation.screenshot = .init(file: directory.appending(path: "full.png"), fullPage: true)
        _ = try await WebParserRunner().run(job)
        let full = try PNGImage(contentsOf: directory.appending(path: "full.png"))
        #expect(full.width == 320 && full.height == 900)
        #expect(full.pixel(x: 10, y: 890) == [255, 0, 0, 255])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["full.png", "page.png"])

        job.evaluation.screenshot = .init(file: directory.appending(path: "missing/page.png"))
        await #expect {
            try await WebParserRunner().run(job)
        } throws: { error in
            guard case .screenshotFailed(let reason) = (error as? WebParserError)?.kind else { return false }
            return reason.contains("missing/page.png")
        }
    }

    /// A window a step's click opens is followed or ignored as the job says; one the page's own script opens at load
    /// is refused, as a browser's popup blocker refuses it.
    @Test func popupsAreFollowedOrIgnoredAsTheJobSays() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(body: "<title>main</title><button id='open' onclick=\"window.open('/popup')\">open</button>"),
            "/load": .respond(body: "<title>load</title><script>window.open('/popup');</script>"),
            "/popup": .respond(body: "<title>popup</title>")
        ])
        func clicking(_ script: String) throws -> WebParserJob {
            var clicking = try job(server.url("/"), script)
            clicking.evaluation.steps = [.click(selector: "#open")]
            return clicking
        }
        let messages = Messages()
        let followed = try await WebParserRunner().run(
            try clicking("location.pathname === '/popup' ? document.title : null"), onMessage: messages.handler)
        #expect(followed.data == Data(#""popup""#.utf8))
        #expect(followed.finalURL == server.url("/popup").absoluteString)
        #expect(messages.all.contains(.popupOpened(url: server.url("/popup").absoluteString, followed: true)))

        var ignoring = try clicking("document.readyState === 'complete' ? document.title : null")
        ignoring.page.popups = .ignore
        let ignoredMessages = Messages()
        let ignored = try await WebParserRunner().run(ignoring, onMessage: ignoredMessages.handler)
        #expect(ignored.data == Data(#""main""#.utf8))
        #expect(ignoredMessages.all.contains(.popupOpened(url: server.url("/popup").absoluteString, followed: false)), "\(ignoredMessages.all)")
        #expect(server.requests(for: "/popup").count == 1)

        let loadMessages = Messages()
        let refused = try await WebParserRunner().run(
            try job(server.url("/load"), "document.readyState === 'complete' ? document.title : null"), onMessage: loadMessages.handler)
        #expect(refused.data == Data(#""load""#.utf8))
        #expect(loadMessages.all.contains(.popupBlocked(url: server.url("/popup").absoluteString)), "\(loadMessages.all)")
        #expect(server.requests(for: "/popup").count == 1, "a window opened without a click is not loaded")
    }

    /// A remote page must not read local files through a followed popup, and a blank popup is nothing.
    @Test func aWebPageNeverOpensALocalFileOrABlankWindow() async throws {
        for opening in ["window.open('file:///proc/self/environ')", "window.open()", "window.open('about:blank')"] {
            let server = try TestHTTPServer(routes: [
                "/": .respond(body: "<title>main</title><script>\(opening); setTimeout(() => document.title = 'done', 300)</script>")
            ])
            let messages = Messages()
            let result = try await WebParserRunner().run(
                try job(server.url("/"), "document.title === 'done' ? document.documentElement.outerHTML : null"),
                onMessage: messages.handler)
            #expect(result.finalURL == server.url("/").absoluteString, "\(opening)")
            #expect(!String(decoding: result.data, as: UTF8.self).contains("PATH="), "\(opening)")
            #expect(!messages.all.contains { if case .popupOpened(_, true) = $0 { true } else { false } }, "\(opening): \(messages.all)")
        }
    }

    @Test func otherSchemesAreRefusedAndTheJobGoesOn() async throws {
        let page = """
            <title>before</title><a id=mail href="mailto:someone@example.com">mail</a><script>
            document.getElementById("mail").click();
            location.href = "tel:+15550100";
            setTimeout(() => { location.href = "intent://scan/#Intent;scheme=zxing;end"; document.title = "after"; }, 50);
            </script>
            """
        let server = try TestHTTPServer(routes: ["/": .respond(body: page)])
        let messages = Messages()
        let result = try await WebParserRunner().run(
            try job(server.url("/"), "document.title === 'after' ? document.title : null"),
            onMessage: messages.handler)
        #expect(result.data == Data(#""after""#.utf8))
        let refused = messages.all.compactMap { if case .navigationRefused(let url) = $0 { url } else { nil } }
        #expect(refused.contains("mailto:someone@example.com"))
        #expect(refused.contains("tel:+15550100"))
    }

    @Test func theFinalURLFollowsInPageNavigation() async throws {
        let page = "<script>setTimeout(() => { history.pushState({}, '', '/chapter/2?from=list'); document.title = 'two'; }, 100);</script>"
        let server = try TestHTTPServer(routes: ["/": .respond(body: page)])
        let result = try await WebParserRunner().run(try job(server.url("/"), "document.title === 'two' ? document.title : null"))
        #expect(result.finalURL == server.url("/chapter/2?from=list").absoluteString)
    }
}
