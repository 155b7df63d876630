import FoundationEssentials
import Synchronization
import WebParser

/// How much webparse says on stderr.
package enum Verbosity: Sendable, Equatable {
    /// Errors only.
    case quiet
    /// Progress when stderr is a terminal, and errors.
    case normal
    /// Progress always, and errors.
    case verbose
}

/// Tells people on stderr how each job is going: a line per job's step with `-v`, one progress line that updates in
/// place on a terminal (`ProgressLine`), failures always.
package struct ProgressReporter: Sendable {
    package let showsProgress: Bool
    /// Whether details of results are told too (`-v`).
    package let isVerbose: Bool
    /// The progress line, on a terminal without `-v` or `-q`.
    package let line: ProgressLine?

    package init(verbosity: Verbosity) {
        showsProgress = verbosity == .verbose || (verbosity == .normal && StandardStreams.stderrIsTerminal)
        isVerbose = verbosity == .verbose
        line = verbosity == .normal && StandardStreams.stderrIsTerminal ? ProgressLine() : nil
    }

    /// `count` more pages are known to come: the run's jobs, the pages a follow or a crawl found.
    package func know(_ count: Int) {
        line?.know(count)
    }

    /// `count` pages known to come will not.
    package func forget(_ count: Int) {
        line?.forget(count)
    }

    /// Ends the progress line, at the end of the run.
    package func end() {
        line?.end()
    }

    /// The observer for job `name`'s states.
    package func observer(for name: String) -> @Sendable (WebParserState) -> Void {
        if let line {
            return { state in
                switch state {
                case .completed: line.finished(failed: false)
                case .failed: line.finished(failed: true)
                default: break
                }
            }
        }
        guard showsProgress else { return { _ in } }
        return { state in
            switch state {
            case .started: StandardStreams.tell("webparse: \(name): started")
            case .requested, .loading: break
            case .executingJavaScript: StandardStreams.tell("webparse: \(name): page loaded, waiting for the script's result")
            case .rerunningAlone(let error):
                StandardStreams.tell(
                    "webparse: \(name): \(error.kind.detail); it runs again in a fresh tab in a web process of its own, in the time left of the attempt, and that does not count as an attempt"
                )
            case .retrying(let attempt, let error): StandardStreams.tell("webparse: \(name): \(error.kind.detail); attempt \(attempt) follows")
            case .completed: StandardStreams.tell("webparse: \(name): done")
            case .failed, .cancelled: break
            }
        }
    }

    /// The handler for what job `name`'s page says: console lines (captured only when the job asks) and user
    /// scripts' exceptions always; windows opened, navigations refused, and steps' decisions and waits with progress.
    /// Emitted values are data, not news: they go to stdout or nowhere.
    package func messageHandler(for name: String) -> @Sendable (WebParserMessage) -> Void {
        let showsProgress = self.showsProgress
        // A page that opens windows on a timer opens thousands: said once a page.
        let blocked = Mutex(false)
        return { message in
            switch message {
            case .console(let line): StandardStreams.tell("webparse: \(name): \(line)")
            case .userScriptFailed(let failure): StandardStreams.tellError("webparse: \(name): warning: \(failure)")
            case .popupOpened(let url, let followed) where showsProgress:
                StandardStreams.tell(
                    "webparse: \(name): the page opened a window for \(URLRedaction.redact(url))" + (followed ? "; loading it in its place" : "; ignored"))
            case .popupBlocked(let url) where showsProgress:
                guard
                    blocked.withLock({ told in
                        defer { told = true }; return !told
                    })
                else { return }
                StandardStreams.tell(
                    "webparse: \(name): the page opened a window for \(URLRedaction.redact(url)) without a click; refused, as a popup blocker refuses "
                        + "it (said once a page)")
            case .navigationRefused(let url) where showsProgress:
                StandardStreams.tell("webparse: \(name): not following \(URLRedaction.redact(url)) (not a web page)")
            case .stepDecided(let place, let step, let holds) where showsProgress:
                StandardStreams.tell("webparse: \(name): step \(place) (\(step)): \(holds ? "true, running its then steps" : "false, running its else steps")")
            case .stepWaited(let place, let step, let waited) where showsProgress:
                StandardStreams.tell("webparse: \(name): step \(place) (\(step)): \(waited) before it acted")
            default: break
            }
        }
    }

    /// Says so when job `name` ran out of time before its user scripts said they were done, and what it kept.
    /// Also, with `-v`, what made the answer final and how many items an extraction left out for lacking a
    /// required field.
    package func warnIfCutShort(_ name: String, _ result: WebParserResult) {
        if isVerbose, let settledBy = result.settledBy { StandardStreams.tell("webparse: \(name): settled: \(settledBy)") }
        if isVerbose, result.itemsLeftOut > 0 {
            let count = result.itemsLeftOut
            StandardStreams.tell("webparse: \(name): \(count) item\(count == 1 ? "" : "s") left out: a required field was missing or empty")
        }
        guard let reason = result.cutShort else { return }
        StandardStreams.tell("webparse: \(name): warning: \(reason)")
    }

    /// With `-v`, says that the environment's locale is one the C library lacks: webparse then works in C.UTF-8 (and
    /// GTK has nothing to warn about), and pages still get the locale's language.
    package func tellAboutLocale(_ locale: SystemLocale = .current) {
        guard isVerbose, !locale.missing.isEmpty else { return }
        let names = locale.missing.joined(separator: ", ")
        StandardStreams.tell(
            "webparse: the locale \(names) is not installed (locale -a lists those that are); webparse works in C.UTF-8, "
                + "and pages get the language \(locale.languages.joined(separator: ", ")) unless a job names its own")
    }

    /// Explains why job `name` failed, and for how many runs in a row when that is more than one.
    package func jobFailed(_ name: String, _ error: Error, runsInARow: Int = 1) {
        let streak = runsInARow > 1 ? "failed \(runsInARow) runs in a row" : "failed"
        StandardStreams.tellError("webparse: \(name): \(streak): \(error)")
    }
}
