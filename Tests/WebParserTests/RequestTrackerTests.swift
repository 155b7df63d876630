import Testing
@testable import WebParser

/// Which of a page's requests keep it from having settled.
@Suite struct RequestTrackerTests {
    @Test func dataRequestsCountUntilTheyEnd() {
        var tracker = RequestTracker()
        #expect(tracker.handle(.started(accept: "*/*"), id: 1) == [.expire(.load(1), after: RequestTracker.longLived)])
        #expect(tracker.handle(.started(accept: "text/html,application/xhtml+xml,*/*;q=0.8"), id: 2).count == 1)
        #expect(tracker.isBusy)
        _ = tracker.handle(.ended(url: "http://a.test/data"), id: 1)
        #expect(tracker.isBusy, "the document is still loading")
        _ = tracker.handle(.responded(mimeType: "text/html"), id: 2)
        _ = tracker.handle(.ended(url: "http://a.test/"), id: 2)
        #expect(!tracker.isBusy)
    }

    /// The page's own document counts until it is shown; the page then follows the rest of its load itself. A frame's
    /// document counts until it ends.
    @Test func thePagesOwnDocumentCountsUntilItIsShown() {
        var tracker = RequestTracker()
        _ = tracker.handle(.started(accept: "text/html", mainDocument: true), id: 1)
        _ = tracker.handle(.responded(mimeType: "text/html"), id: 1)
        #expect(tracker.isBusy)
        tracker.documentReplaced()
        #expect(!tracker.isBusy, "the page counts the rest of its document")
        _ = tracker.handle(.started(accept: "text/html"), id: 2)
        tracker.documentReplaced()
        #expect(tracker.isBusy, "a frame's document counts until it ends")
        _ = tracker.handle(.ended(url: "http://a.test/frame"), id: 2)
        _ = tracker.handle(.ended(url: "http://a.test/"), id: 1)
        #expect(!tracker.isBusy)
    }

    @Test func whatDeliversNoDataOrStaysOpenDoesNotCount() {
        var tracker = RequestTracker()
        for (id, accept) in [
            (1, "image/png,image/svg+xml,image/*;q=0.8"), (2, "text/css,*/*;q=0.1"), (3, "text/event-stream"),
            (4, "video/*"), (5, "font/woff2")
        ] {
            #expect(tracker.handle(.started(accept: accept), id: UInt64(id)) == [], "\(accept)")
        }
        #expect(!tracker.isBusy)
        _ = tracker.handle(.started(accept: ""), id: 6)
        #expect(tracker.isBusy, "a request without an Accept header may deliver data")
        _ = tracker.handle(.responded(mimeType: "text/event-stream"), id: 6)
        #expect(!tracker.isBusy, "an event stream stays open by design")
        _ = tracker.handle(.started(accept: "*/*"), id: 7)
        tracker.expired(.load(7))
        #expect(!tracker.isBusy, "a long poll stops counting")
    }

    /// A script's read counts from the request until its body came; once WebKit's load of its URL ended, its body is
    /// due, and it counts however long the page takes to pass it on.
    @Test func aScriptsReadCountsUntilItsBodyCame() {
        var tracker = RequestTracker()
        let read = ScriptRead(id: 7, method: "GET", url: "http://a.test/api/list")
        #expect(tracker.started(read) == [.expire(.read(7), after: RequestTracker.longLived)])
        #expect(tracker.isBusy && !tracker.awaitsBodies)
        _ = tracker.handle(.started(accept: "*/*"), id: 1)
        _ = tracker.handle(.ended(url: "http://a.test/api/other"), id: 1)
        #expect(!tracker.awaitsBodies, "another URL's load ended")
        _ = tracker.handle(.started(accept: "*/*"), id: 2)
        _ = tracker.handle(.ended(url: "http://a.test/api/list"), id: 2)
        #expect(tracker.isBusy && tracker.awaitsBodies, "the load ended: its body is due")
        tracker.expired(.read(7))
        #expect(tracker.isBusy && tracker.awaitsBodies, "a due body does not expire")
        tracker.ended(read: 7)
        #expect(!tracker.isBusy && !tracker.awaitsBodies)

        _ = tracker.started(ScriptRead(id: 8, method: "GET", url: "http://a.test/poll"))
        tracker.expired(.read(8))
        #expect(!tracker.isBusy, "a read whose request is still loading after a while is a long poll")
        _ = tracker.started(ScriptRead(id: 9, method: "GET", url: "http://a.test/api/list"))
        _ = tracker.handle(.ended(url: "http://a.test/api/list"), id: 3)
        tracker.documentReplaced()
        #expect(!tracker.isBusy && !tracker.awaitsBodies, "the reads of a document that is gone never end")
        tracker.bodyWanted()
        #expect(tracker.isBusy && tracker.awaitsBodies, "WebKit reads a body for the capture")
        tracker.bodyRead()
        #expect(!tracker.isBusy)
    }
}
