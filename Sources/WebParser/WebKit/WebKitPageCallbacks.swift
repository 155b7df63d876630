internal import CWebKitGTK
import FoundationEssentials

// How a WebKitPage's view reaches it: the C shim's callbacks and the weak ways back to the page they carry.

/// A weak way back to a page, for a callback that may come after it is gone.
@WebKitActor
final class WeakPage {
    weak var page: WebKitPage?

    init(page: WebKitPage) {
        self.page = page
    }
}

/// What the C callbacks of one view carry: a weak way back to its page.
@WebKitActor
final class CallbackTarget {
    weak var page: WebKitPage?

    nonisolated init() {}

    /// Hands `event` to the page behind `context`, if it is still there.
    nonisolated static func deliver(_ event: PageEvent, to context: UnsafeMutableRawPointer?) {
        let target = Unmanaged<CallbackTarget>.fromOpaque(context!).takeUnretainedValue()
        WebKitActor.assumeIsolated { target.page?.deliver(event) }
    }

    /// Hands `text`, a message from the page's bridge, to the page; false when it is not the bridge's or no
    /// one listens any more.
    nonisolated static func receive(_ text: String, at context: UnsafeMutableRawPointer?) -> Bool {
        let target = Unmanaged<CallbackTarget>.fromOpaque(context!).takeUnretainedValue()
        return WebKitActor.assumeIsolated {
            guard let page = target.page, page.eventHandler != nil, let message = page.bridge?.message(from: text) else { return false }
            page.deliver(.message(message))
            return true
        }
    }

    /// The view callbacks of the C shim, each handing what WebKit says to the page behind its context (a retained
    /// `CallbackTarget`, released with the view).
    nonisolated static var callbacks: WKViewCallbacks {
        WKViewCallbacks(
            load_changed: { context, event, uri, status, retryAfter, refresh in
                let event = PageEvent.loadEvent(
                    event, url: String(cString: uri!), httpStatus: Int(status),
                    retryAfter: retryAfter.map { String(cString: $0) }, refresh: refresh.map { String(cString: $0) })
                CallbackTarget.deliver(event, to: context)
            },
            load_failed: { context, uri, error in
                let failure = PageLoadFailure(url: String(cString: uri!), error: PageError(error))
                CallbackTarget.deliver(.failed(failure), to: context)
            },
            progress_changed: { context, progress in
                CallbackTarget.deliver(.progress(progress), to: context)
            },
            process_terminated: { context, reason in
                let termination: ProcessTermination =
                    switch reason {
                    case WK_PROCESS_EXCEEDED_MEMORY_LIMIT: .exceededMemoryLimit
                    case WK_PROCESS_ENDED_BY_ANOTHER_VIEW: .endedWithAnotherJob
                    default: MemoryGuard.shared.killedAWebProcessRecently ? .exceededMemoryLimit : .crashed
                    }
                CallbackTarget.deliver(.processTerminated(termination), to: context)
            },
            allow_navigation: { context, uri in
                let url = String(cString: uri!)
                let opensLocalFiles = CallbackTarget.read(context, { $0.opensLocalFiles }) == true
                guard NavigationPolicy.allows(navigationTo: url, localFiles: opensLocalFiles) else {
                    CallbackTarget.deliver(.navigationRefused(url: url), to: context)
                    return false
                }
                CallbackTarget.deliver(.navigationAsked(url: url), to: context)
                return true
            },
            allow_response: { context, mimeType, displayable in
                guard displayable else {
                    CallbackTarget.deliver(.responseRefused(mimeType: String(cString: mimeType!)), to: context)
                    return false
                }
                return true
            },
            uri_changed: { context, uri in
                CallbackTarget.deliver(.urlChanged(String(cString: uri!)), to: context)
            },
            script_message: { context, message in
                CallbackTarget.receive(String(cString: message!), at: context)
            },
            popup: { context, uri, opener, userGesture in
                let url = String(cString: uri!)
                // As a browser's popup blocker does: a window no user's action opened (the page's own script at load,
                // a timer) is refused; a step's click is a user's action.
                guard userGesture else {
                    CallbackTarget.deliver(.popupBlocked(url: url), to: context)
                    return false
                }
                let follows =
                    CallbackTarget.read(context, { $0.options.followsPopups }) == true
                    && NavigationPolicy.follows(popupTo: url, from: String(cString: opener!))
                CallbackTarget.deliver(.popupOpened(url: url, followed: follows), to: context)
                return follows
            },
            allow_certificate: { context, _ in
                guard CallbackTarget.read(context, { $0.trustsAnyCertificate }) == true else { return false }
                CallbackTarget.deliver(.certificateTrusted, to: context)
                return true
            },
            resource_changed: { context, id, event, text in
                let load: ResourceLoad =
                    switch event {
                    case WK_RESOURCE_STARTED: .started(accept: String(cString: text!))
                    case WK_RESOURCE_DOCUMENT_STARTED: .started(accept: String(cString: text!), mainDocument: true)
                    case WK_RESOURCE_RESPONDED: .responded(mimeType: String(cString: text!))
                    default: .ended(url: String(cString: text!))
                    }
                CallbackTarget.deliver(.traffic(.resource(id: UInt64(id), load)), to: context)
            },
            resource_wanted: { context, uri, mimeType, mainDocument in
                let (url, kind) = (String(cString: uri!), WebParserJob.Capture.Kind(mimeType: String(cString: mimeType!), mainDocument: mainDocument))
                let wanted = CallbackTarget.read(context) { $0.wantsBody(of: url, kind: kind) } ?? false
                if wanted { CallbackTarget.deliver(.traffic(.bodyWanted(mainDocument: mainDocument)), to: context) }
                return wanted
            },
            resource_recorded: { context, record in
                let record = record!.pointee
                CallbackTarget.deliver(
                    .traffic(.recorded(WebParserRequest(record), bodyWanted: record.body_wanted, mainDocument: record.main_document)), to: context)
            },
            response_captured: { context, response in
                CallbackTarget.deliver(.traffic(.captured(CapturedResponse(response!.pointee))), to: context)
            },
            read_started: { context, read, method, uri in
                CallbackTarget.deliver(.traffic(.readStarted(ScriptRead(id: read, method: String(cString: method!), url: String(cString: uri!)))), to: context)
            },
            read_ended: { context, read in
                CallbackTarget.deliver(.traffic(.readEnded(id: read)), to: context)
            },
            request_sent: { context, method, url, contentType, body, length in
                let sent = WebParserRequest.SentBody(contentType: String(cString: contentType!), body: body.map { Data(bytes: $0, count: length) } ?? Data())
                CallbackTarget.deliver(.traffic(.requestSent(sent, method: String(cString: method!), url: String(cString: url!))), to: context)
            },
            release: { context in
                Unmanaged<CallbackTarget>.fromOpaque(context!).release()
            })
    }

    /// Reads something of the page behind `context`; nil once the page is gone.
    nonisolated static func read<Value: Sendable>(
        _ context: UnsafeMutableRawPointer?,
        _ value: @WebKitActor (WebKitPage) -> Value
    ) -> Value? {
        let target = Unmanaged<CallbackTarget>.fromOpaque(context!).takeUnretainedValue()
        return WebKitActor.assumeIsolated { target.page.map(value) }
    }
}

extension PageEvent {
    /// The event of a view's `load-changed` signal.
    static func loadEvent(_ event: WKLoadEvent, url: String, httpStatus: Int, retryAfter: String?, refresh: String?) -> PageEvent {
        switch event {
        case WK_LOAD_STARTED: .started(url: url)
        case WK_LOAD_REDIRECTED: .redirected(url: url)
        case WK_LOAD_COMMITTED: .committed(url: url, httpStatus: httpStatus, retryAfter: retryAfter, refresh: refresh)
        default: .finished(url: url)
        }
    }
}
