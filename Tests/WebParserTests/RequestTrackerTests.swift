import Testing
@testable import WebParser

/// Which of a page's requests keep it from having settled.
@Suite struct RequestTrackerTests {
    @Test func dataRequestsCountUntilTheyEnd() {
        var tracker = RequestTracker()
        #expect(tracker.handle(.started(accept: "*/*"), id: 1) == [.expire(id: 1, after: RequestTracker.longLived)])
        #expect(tracker.handle(.started(accept: "text/html,application/xhtml+xml,*/*;q=0.8"), id: 2).count == 1)
        #expect(tracker.isBusy)
        _ = tracker.handle(.ended, id: 1)
        #expect(tracker.isBusy, "the document is still loading")
        _ = tracker.handle(.responded(mimeType: "text/html"), id: 2)
        _ = tracker.handle(.ended, id: 2)
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
        tracker.expired(id: 7)
        #expect(!tracker.isBusy, "a long poll stops counting")
    }
}
