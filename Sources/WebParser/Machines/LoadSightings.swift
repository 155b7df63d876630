/// What WebKit was seen doing for an attempt's page, kept to say what happened when a load ends without a document:
/// whether the tab's earlier page was still loading, the loads that started, where the server redirected them, the
/// policy decisions on them, and how far the main document's request got.
struct LoadSightings: Equatable {
    /// How far the main document's request got.
    private enum Request: Equatable {
        /// None was sent.
        case none
        /// Request `id` left; no response came.
        case sent(id: UInt64)
        /// The response of request `id` came, of `mimeType`.
        case responded(id: UInt64, mimeType: String)
        /// Request `id` ended at `url`, after any redirect.
        case ended(id: UInt64, url: String, mimeType: String?)
    }

    private var endedEarlierLoad = false
    private var starts: [String] = []
    private var redirects: [String] = []
    private var refusedNavigations: [String] = []
    private var request = Request.none

    /// WebKit ended the load the tab still had in progress, as this attempt's load was asked for.
    mutating func earlierLoadEnded() {
        endedEarlierLoad = true
    }

    /// A load of `url` started.
    mutating func started(_ url: String) {
        starts.append(url)
    }

    /// The server redirected the load to `url`.
    mutating func redirected(_ url: String) {
        redirects.append(url)
    }

    /// webparse's policy refused the navigation to `url`.
    mutating func navigationRefused(_ url: String) {
        refusedNavigations.append(url)
    }

    /// The main document's request numbered `id` left.
    mutating func mainRequestSent(id: UInt64) {
        request = .sent(id: id)
    }

    /// The response of the load numbered `id` came, of `mimeType`: the main document's, if that is its request.
    mutating func responded(id: UInt64, mimeType: String) {
        if case .sent(id) = request { request = .responded(id: id, mimeType: mimeType) }
    }

    /// The load numbered `id` ended at `url`: the main document's, if that is its request.
    mutating func ended(id: UInt64, url: String) {
        switch request {
        case .sent(id): request = .ended(id: id, url: url, mimeType: nil)
        case .responded(id, let mimeType): request = .ended(id: id, url: url, mimeType: mimeType)
        default: break
        }
    }

    /// What was seen, in words: "its load started (URL), was redirected to URL, its request was sent and no
    /// response came".
    var description: String {
        let tab = endedEarlierLoad ? "the tab's earlier page was still loading, and WebKit ended that load first; " : ""
        guard let first = starts.first else { return tab + "no load of it started in the tab" }
        var parts = [starts.count == 1 ? "its load started (\(first))" : "\(starts.count) loads started (\(starts.joined(separator: ", ")))"]
        if !redirects.isEmpty { parts.append("was redirected to \(redirects.joined(separator: ", then "))") }
        if !refusedNavigations.isEmpty { parts.append("webparse refused to go to \(refusedNavigations.joined(separator: ", "))") }
        switch request {
        case .none: parts.append("no request for its document was made")
        case .sent: parts.append("its document's request was sent and no response came")
        case .responded(_, let mimeType): parts.append("its document's response came (\(mimeType.isEmpty ? "no content type" : mimeType)) and was not shown")
        case .ended(_, let url, nil): parts.append("its document's request ended at \(url) with no response")
        case .ended(_, let url, let mimeType?):
            parts.append("its document's response came from \(url) (\(mimeType.isEmpty ? "no content type" : mimeType)) and was not shown")
        }
        return tab + parts.joined(separator: ", ")
    }
}
