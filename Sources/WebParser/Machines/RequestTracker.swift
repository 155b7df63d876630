/// Which of a page's requests that deliver data are in flight, from WebKit's resource loads and, for a job that
/// captures, from the scripts' reads its hook reports; made without a page or a clock: the page has settled only
/// while none is.
///
/// Documents, scripts, XHR and fetch count; the page's own document only until it is shown: from then on the page
/// itself counts it, as loading until its parser has read the whole of it (`document.readyState`), which it knows
/// before WebKit's report of the load's end can reach webparse and be told back. What delivers no data the script
/// reads (images, style sheets, fonts, audio and video) does not, nor what stays open by design: an event stream,
/// and any request still loading after `longLived` (a long poll; websockets are no resource loads at all).
///
/// A script's read (a fetch, an XHR sent) counts from the moment the script makes the request until its body has
/// reached webparse: its record comes from the page's own thread, after WebKit has reported the load's end, and a
/// page busy with its own work (a large app's first render on a loaded machine) may send it seconds later. Once
/// WebKit has reported the end of a load of the read's URL, the read is *due*: its body is on its way and it
/// counts until it arrives, however long that takes. Bodies WebKit reads for the capture count too.
struct RequestTracker {
    /// How long a request counts as in flight at most: after that it is taken for a long poll or a stream.
    static let longLived: Duration = .seconds(5)

    /// A request the tracker follows: one of WebKit's loads, or one of the scripts' reads, by its number.
    enum Request: Hashable, Sendable {
        case load(UInt64)
        case read(UInt64)
    }

    /// What the attempt does for the tracker.
    enum Command: Equatable {
        /// Calls `expired(request)` after the duration.
        case expire(Request, after: Duration)
    }

    private var loading: Set<UInt64> = []
    /// The last load of the page's own document that started.
    private var mainDocument: UInt64?
    /// The scripts' reads whose records have not come, in the order they started.
    private(set) var reads: [ScriptRead] = []
    /// The reads, by number, whose load WebKit reported ended: they no longer expire.
    private var due: Set<UInt64> = []
    /// How many loads' bodies WebKit is reading for the capture.
    private var bodiesBeingRead = 0

    /// Whether a request that delivers data is in flight, or a body is on its way.
    var isBusy: Bool { !loading.isEmpty || !reads.isEmpty || bodiesBeingRead > 0 }

    /// Whether a body that the capture wants is still on its way though its load has ended: a read whose load
    /// WebKit reported ended, or a body WebKit is reading. The records are incomplete until none is.
    var awaitsBodies: Bool { !due.isEmpty || bodiesBeingRead > 0 }

    /// Takes what happened to the load `id`.
    mutating func handle(_ event: ResourceLoad, id: UInt64) -> [Command] {
        switch event {
        case .started(let accept, let isMainDocument):
            if isMainDocument { mainDocument = id }
            guard Self.deliversData(accepting: accept) else { return [] }
            loading.insert(id)
            return [.expire(.load(id), after: Self.longLived)]
        case .responded(let mimeType):
            if !Self.deliversData(mimeType: mimeType) { loading.remove(id) }
            return []
        case .ended(let url):
            loading.remove(id)
            if let read = reads.first(where: { $0.url == url && !due.contains($0.id) }) { due.insert(read.id) }
            return []
        }
    }

    /// A script started `read`.
    mutating func started(_ read: ScriptRead) -> [Command] {
        reads.append(read)
        return [.expire(.read(read.id), after: Self.longLived)]
    }

    /// The read numbered `id` ended: its record came, or there is none to come.
    mutating func ended(read id: UInt64) {
        reads.removeAll { $0.id == id }
        due.remove(id)
    }

    /// A new document replaced the page's: the reads of the old one will never end, and the page follows the rest of
    /// its own document's load.
    mutating func documentReplaced() {
        reads.removeAll()
        due.removeAll()
        if let mainDocument { loading.remove(mainDocument) }
        mainDocument = nil
    }

    /// WebKit started reading a load's body for the capture.
    mutating func bodyWanted() {
        bodiesBeingRead += 1
    }

    /// WebKit read a load's body for the capture.
    mutating func bodyRead() {
        bodiesBeingRead = max(bodiesBeingRead - 1, 0)
    }

    /// `request` has been in flight for `longLived`: it no longer counts, unless it is a read whose body is due.
    mutating func expired(_ request: Request) {
        switch request {
        case .load(let id):
            loading.remove(id)
        case .read(let id) where !due.contains(id):
            reads.removeAll { $0.id == id }
        case .read:
            break
        }
    }

    /// Whether a request whose Accept header is `accept` is a document's (a page's, or a frame's): WebKit asks for
    /// HTML first.
    static func isDocument(accepting accept: String) -> Bool {
        accept.lowercased().hasPrefix("text/html")
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
