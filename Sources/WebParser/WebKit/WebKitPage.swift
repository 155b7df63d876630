internal import CWebKitGTK
import FoundationEssentials
import Glibc

/// A `WebPage` backed by an offscreen WebKitWebView from the C shim.
@WebKitActor
final class WebKitPage: WebPage {
    var eventHandler: ((PageEvent) -> Void)?
    /// What the page was made with.
    let options: PageSettings
    /// The page's number in its browsing context's pool (given when the pool takes it).
    var id: PagePool.PageID = 0
    /// The web process it lives in, as the pool names it.
    let process: PagePool.ProcessID
    /// The browsing context that counts the page and its web process.
    weak var owner: BrowsingContext?
    /// How many loads the page and the pages it succeeded have started in their web process.
    private(set) var loads = 0
    /// The page's decisions: which events pass, the certificate check, the fresh tab for the next job.
    private var machine = PageMachine()

    var sharesProcessWithAnotherJob: Bool { owner?.sharesProcessWithAnotherJob(id) == true }

    var title: String? { view.flatMap { wk_view_title($0) }.map { String(cString: $0) } }

    /// Whether the current load accepts an untrusted certificate.
    var trustsAnyCertificate: Bool { machine.trustsAnyCertificate }

    /// Whether the page has not been closed.
    var isOpen: Bool { view != nil }
    /// Whether the current job loads a local file, and so may navigate to other local files.
    private(set) var opensLocalFiles = false
    /// The current job's capture rules, for the bodies of WebKit's loads.
    private var captureRules: CaptureRules?
    /// Whether the current load's job records its requests' bodies.
    private var recordsBodies = false
    private var view: OpaquePointer?
    private let context: OpaquePointer
    /// Held while the view uses it.
    private let filter: ContentFilter?
    /// What runs at the start of the page's documents, and reads what it sends back.
    let bridge: PageBridge?

    /// Where a new page's view is made.
    enum Placement {
        /// In a web process of its own, `process` in the pool.
        case newProcess(PagePool.ProcessID)
        /// In `page`'s web process, with its settings and user content: the fresh tab that replaces it.
        case replacing(WebKitPage)
        /// In `page`'s web process, beside it, with settings and user content of its own.
        case beside(WebKitPage)
    }

    /// Creates the view in `context` (a `WKContext`), blocking what `filter` blocks, where `placement` says.
    init(context: OpaquePointer, options: PageSettings, filter: ContentFilter?, placement: Placement) {
        self.context = context
        self.options = options
        self.filter = filter
        let related: WebKitPage?
        let bridge: PageBridge?
        let sharesContent: Bool
        switch placement {
        case .newProcess(let process):
            (related, bridge, sharesContent) = (nil, options.makeBridge(), false)
            self.process = process
        case .replacing(let page):
            // The page's user content manager, and with it the document-start script and the token in it.
            (related, bridge, sharesContent) = (page, page.bridge, true)
            process = page.process
            owner = page.owner
        case .beside(let page):
            // A bridge of its own: script messages of a user content manager go to whichever view takes them.
            (related, bridge, sharesContent) = (page, options.makeBridge(), false)
            process = page.process
            owner = page.owner
        }
        self.bridge = bridge
        let target = Unmanaged.passRetained(CallbackTarget()).toOpaque()
        let view = options.userAgent.withOptionalCString { userAgent in
            bridge.map(\.source).withOptionalCString { startScript in
                PageErrorWatch.source.withCString { watchScript in
                    WebParserJob.isolatedWorld.withCString { watchWorld in
                        wk_view_new(
                            context,
                            WKViewOptions(
                                width: Int32(options.viewport.width),
                                height: Int32(options.viewport.height),
                                user_agent: userAgent, page_scripts: options.pageScripts,
                                media: !options.blocking.resources.contains(.media),
                                content_filter: filter?.pointer, document_start_script: startScript,
                                watch_script: watchScript, watch_world: watchWorld, webgl: options.webgl),
                            related?.view, sharesContent, CallbackTarget.callbacks, target)
                    }
                }
            }
        }
        self.view = view
        Unmanaged<CallbackTarget>.fromOpaque(target).takeUnretainedValue().page = self
    }

    func load(_ request: PageRequest) {
        guard let view else { return }
        loads += 1
        machine.loadStarting(trustsAnyCertificate: request.trustsAnyCertificate)
        opensLocalFiles = request.url.isFileURL
        // In a context with the extension, what a document captures and where it tells its pending work: each load says.
        let recording = request.recordsRequests ? WK_CAPTURE_FETCH.rawValue | WK_CAPTURE_XHR.rawValue | WK_CAPTURE_FORMS.rawValue : 0
        let kinds = (request.capture?.kinds.reduce(0) { $0 | $1.hookBit } ?? 0) | recording
        let bodyLimit = request.capture?.bodyLimit ?? (request.recordsBodies ? WebParserJob.Capture.defaultBodyLimit : 0)
        let worlds =
            (request.work?.inMainWorld == true ? WK_WORK_IN_MAIN_WORLD.rawValue : 0)
            | (request.work?.inOwnWorld == true ? WK_WORK_IN_OWN_WORLD.rawValue : 0)
        _ = wk_view_set_page_settings(
            view, request.capture != nil || request.recordsRequests, UInt64(bodyLimit), kinds, request.work?.key ?? "", worlds)
        captureRules = request.capture.flatMap(CaptureRules.init)
        recordsBodies = request.recordsBodies
        wk_view_record_resources(view, request.recordsLoads)
        if let document = request.document {
            wk_view_load_html(view, document, request.url.absoluteString)
            return
        }
        let headers = request.headers.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }
        withCStringArray(headers) { headers in
            wk_view_load_uri(view, request.url.absoluteString, headers, request.credentials?.user, request.credentials?.password)
        }
    }

    /// Whether the body of a load of `url` and `kind` is read, for the job's capture or its recorded requests.
    func wantsBody(of url: String, kind: WebParserJob.Capture.Kind) -> Bool {
        // WebKit keeps no body of the other loads (a script's fetch or XHR, whose body the script's read has).
        kind != .other && (recordsBodies || captureRules?.rule(for: url, kind: kind) != nil)
    }

    func callAsyncFunction(
        _ body: String, sourceName: String, world: String?,
        completion: @escaping @WebKitActor (JavaScriptReply) -> Void
    ) {
        guard let view else { return }
        wk_view_call_async_function(
            view, body, sourceName, world,
            { context, kind, text, error in
                let complete = CallbackBox<@WebKitActor (JavaScriptReply) -> Void>.take(context)
                let reply: JavaScriptReply =
                    switch kind {
                    case WK_JS_UNDEFINED: .undefined
                    case WK_JS_NULL: .null
                    case WK_JS_STRING: .string(Data(bytes: text!, count: strlen(text!)))
                    case WK_JS_JSON: .json(Data(bytes: text!, count: strlen(text!)))
                    case WK_JS_UNSERIALIZABLE: .unserializable
                    default: .failed(PageError(error))
                    }
                WebKitActor.assumeIsolated { complete(reply) }
            }, CallbackBox.retained(completion))
    }

    func ping(answered: @escaping @WebKitActor () -> Void) {
        guard let view else { return }
        wk_view_ping(
            view,
            { context, _ in
                let answered = CallbackBox<@WebKitActor () -> Void>.take(context)
                WebKitActor.assumeIsolated { answered() }
            }, CallbackBox.retained(answered))
    }

    func click(x: Double, y: Double) {
        guard let view else { return }
        wk_view_click(view, x, y)
    }

    func press(key: String) -> Bool {
        guard let view else { return false }
        return wk_view_press_key(view, key)
    }

    func snapshot(fullPage: Bool, to file: URL, completion: @escaping @WebKitActor (String?) -> Void) {
        guard let view else { return }
        // WebKit writes the PNG to a temporary file; it then goes to `file` as every output does: atomically over
        // a regular file (a reader never sees half a PNG), into a device or FIFO, through links.
        // The temporary file is in a folder of its own that only webparse's user can read: a logged-in page's
        // screenshot is no one else's business.
        let folder = FileManager.default.temporaryDirectory.appending(path: "webparse-snapshot-\(UUID().uuidString)")
        let partial = folder.appending(path: "page.png")
        _ = try? PrivateFiles.makeFolder(folder)
        let written: @WebKitActor (String?) -> Void = { error in
            defer { try? FileManager.default.removeItem(at: folder) }
            if let error {
                completion("cannot write \(file.path): \(error)")
                return
            }
            do {
                try AtomicFile.write(try InputFile.read(partial.path, limit: .max), to: file.path)
                completion(nil)
            } catch let failure as AtomicFile.Failure {
                completion(failure.description)
            } catch let failure as InputFile.Failure {
                completion("cannot write \(file.path): WebKit's PNG \(failure)")
            } catch {
                completion("cannot write \(file.path): \(error)")
            }
        }
        wk_view_snapshot(
            view, fullPage, partial.path,
            { context, message in
                let written = CallbackBox<@WebKitActor (String?) -> Void>.take(context)
                let error = message.map { String(cString: $0) }
                WebKitActor.assumeIsolated { written(error) }
            }, CallbackBox.retained(written))
    }

    func close() {
        close(endingProcess: true)
    }

    /// The fresh tab prepared for the job after this page's, while this page's job runs.
    private var next: WebKitPage?

    /// Says whether to prepare the fresh tab `successor(id:)` returns once this page's document has arrived:
    /// WebKit then builds the new page in the web process while this page's job goes on, so that the next job
    /// need not wait for it. A page checked out again serves another job of its tab group: what its earlier
    /// document says is dropped until the new job's document commits.
    func checkedOut(preparingSuccessor: Bool) {
        machine.checkedOut(preparingSuccessor: preparingSuccessor, afterAnotherJob: servedAJob)
        servedAJob = true
    }

    /// Whether the page was checked out before.
    private var servedAJob = false

    /// A fresh tab for the next job, numbered `id` in the pool, in this page's web process, which is then closed:
    /// the successor has no history, session storage, window name, timers or workers of this page's documents,
    /// and starts no process.
    func successor(id: PagePool.PageID) -> WebKitPage {
        let successor = next ?? WebKitPage(context: context, options: options, filter: filter, placement: .replacing(self))
        next = nil
        machine.successorTaken()
        successor.id = id
        successor.loads = loads
        close(endingProcess: false)
        return successor
    }

    /// Stops everything the page does and releases it, with its web process when `endingProcess` (even one
    /// stuck in JavaScript; the other pages in it then get `.endedWithAnotherJob`). No event follows.
    func close(endingProcess: Bool) {
        eventHandler = nil
        machine.close()
        next?.close(endingProcess: endingProcess)
        next = nil
        guard let view else { return }
        self.view = nil
        wk_view_destroy(view, !endingProcess)
    }

    isolated deinit {
        if let view { wk_view_destroy(view, false) }
    }

    /// Hands `event`, from the view's callbacks, to the page's machine and carries out what it decides.
    func deliver(_ event: PageEvent) {
        perform(machine.receive(event))
    }

    /// Carries out the machine's actions in order, until the page is closed (handing an event on may close it).
    private func perform(_ actions: [PageMachine.Action]) {
        for action in actions where view != nil {
            switch action {
            case .deliver(let event):
                eventHandler?(event)
            case .processUp:
                owner?.processUp(process)
            case .processEnded(let termination):
                eventHandler?(.processTerminated(owner?.processEnded(process, termination) ?? termination))
            case .checkCertificate(let failure):
                wk_context_check_certificate(
                    context, failure.url,
                    { context, untrusted in
                        let page = CallbackBox<WeakPage>.take(context)
                        WebKitActor.assumeIsolated { page.page?.certificateChecked(untrusted) }
                    }, CallbackBox.retained(WeakPage(page: self)))
            case .trustCertificate(let url):
                if let view, let checkedCertificate { wk_view_trust_certificate(view, checkedCertificate, url) }
            case .prepareSuccessor:
                next = WebKitPage(context: context, options: options, filter: filter, placement: .replacing(self))
            }
        }
    }

    /// The untrusted certificate the last check found, while its answer is carried out.
    private var checkedCertificate: OpaquePointer?

    /// The certificate check is over: `untrusted` is the server's certificate when it is not trusted.
    private func certificateChecked(_ untrusted: OpaquePointer?) {
        checkedCertificate = untrusted
        defer { checkedCertificate = nil }
        perform(machine.certificateChecked(untrusted: untrusted != nil))
    }
}

private extension Optional where Wrapped == String {
    func withOptionalCString<Result>(_ body: (UnsafePointer<CChar>?) -> Result) -> Result {
        switch self {
        case .some(let string): string.withCString(body)
        case .none: body(nil)
        }
    }
}

private extension WebParserJob.Capture.Kind {
    /// The kind's bit in the extension's mask of hooked kinds; 0 for what WebKit's loads report.
    var hookBit: UInt32 {
        switch self {
        case .fetch: WK_CAPTURE_FETCH.rawValue
        case .xhr: WK_CAPTURE_XHR.rawValue
        case .other: WK_CAPTURE_OTHER.rawValue
        case .document, .script, .stylesheet, .image: 0
        }
    }
}
