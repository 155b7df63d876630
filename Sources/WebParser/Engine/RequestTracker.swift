/// Which of a page's requests that deliver data are in flight, from WebKit's resource loads, made without a page
/// or a clock: the page has settled only while none is.
///
/// Documents, scripts, XHR and fetch count. What delivers no data the script reads (images, style sheets, fonts,
/// audio and video) does not, nor what stays open by design: an event stream, and any request still loading
/// after `longLived` (a long poll; websockets are no resource loads at all).
struct RequestTracker {
    /// How long a request counts as in flight at most: after that it is taken for a long poll or a stream.
    static let longLived: Duration = .seconds(5)

    /// What the attempt does for the tracker.
    enum Command: Equatable {
        /// Calls `expired(id)` after the duration.
        case expire(id: UInt64, after: Duration)
    }

    private var loading: Set<UInt64> = []

    /// Whether a request that delivers data is in flight.
    var isBusy: Bool { !loading.isEmpty }

    /// Takes what happened to the load `id`.
    mutating func handle(_ event: ResourceLoad, id: UInt64) -> [Command] {
        switch event {
        case .started(let accept):
            guard Self.deliversData(accepting: accept) else { return [] }
            loading.insert(id)
            return [.expire(id: id, after: Self.longLived)]
        case .responded(let mimeType):
            if !Self.deliversData(mimeType: mimeType) { loading.remove(id) }
            return []
        case .ended:
            loading.remove(id)
            return []
        }
    }

    /// The load `id` has been loading for `longLived`: it no longer counts.
    mutating func expired(id: UInt64) {
        loading.remove(id)
    }

    /// Whether a request whose Accept header is `accept` may deliver data (an empty one may).
    static func deliversData(accepting accept: String) -> Bool {
        let first = accept.split(separator: ",").first.map { $0.trimmingSpaces().lowercased() } ?? ""
        return
            !(["image/", "audio/", "video/", "font/"].contains { first.hasPrefix($0) }
            || first.hasPrefix("text/css") || first.hasPrefix("text/event-stream"))
    }

    /// Whether a response of `mimeType` may deliver data (an unknown one may).
    static func deliversData(mimeType: String) -> Bool {
        let type = mimeType.lowercased()
        return
            !(["image/", "audio/", "video/", "font/"].contains { type.hasPrefix($0) }
            || type == "text/css" || type == "text/event-stream" || type.hasPrefix("application/font"))
    }
}
