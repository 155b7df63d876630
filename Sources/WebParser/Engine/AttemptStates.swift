import Synchronization

/// The states one attempt reports, in order and without going back: `loading` with a progress that only
/// grows, then `executingJavaScript` once; loading events after that (the page's last resources arriving
/// while the script already runs) are dropped, so that a progress bar built on the states never goes back.
final class AttemptStates: Sendable {
    private struct Seen {
        var progress = -1.0
        var executing = false
    }

    private let report: @Sendable (WebParserState) -> Void
    private let seen = Mutex(Seen())

    /// Passes the states that keep the order on to `report`.
    init(_ report: @escaping @Sendable (WebParserState) -> Void) {
        self.report = report
    }

    /// Reports `state` if it moves the attempt forward.
    @Sendable func record(_ state: WebParserState) {
        let forward = seen.withLock { seen -> Bool in
            switch state {
            case .loading(let progress):
                guard !seen.executing, progress > seen.progress else { return false }
                seen.progress = progress
            case .executingJavaScript:
                guard !seen.executing else { return false }
                seen.executing = true
            default:
                break
            }
            return true
        }
        if forward { report(state) }
    }
}
