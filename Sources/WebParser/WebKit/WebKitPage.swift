internal import CWebKitGTK
import FoundationEssentials

/// A `WebPage` backed by an offscreen WebKitWebView (`WebKitView`): the page's shell, which hands the view's events to
/// its machine (`PageMachine`) and carries out what it decides, and keeps the fresh tab for the next job.
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

    var title: String? { view?.title }

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
    private var view: WebKitView?
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
        view = WebKitView(
            context: context, options: options, bridge: bridge, filter: filter, related: related?.view, sharesContent: sharesContent,
            target: target)
        Unmanaged<CallbackTarget>.fromOpaque(target).takeUnretainedValue().page = self
    }

    func load(_ request: PageRequest) {
        guard let view else { return }
        loads += 1
        machine.loadStarting(trustsAnyCertificate: request.trustsAnyCertificate)
        opensLocalFiles = request.url.isFileURL
        captureRules = request.capture.flatMap(CaptureRules.init)
        recordsBodies = request.recordsBodies
        view.load(request)
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
        view?.callAsyncFunction(body, sourceName: sourceName, world: world, completion: completion)
    }

    func ping(answered: @escaping @WebKitActor () -> Void) {
        view?.ping(answered: answered)
    }

    func click(x: Double, y: Double) {
        view?.click(x: x, y: y)
    }

    func press(key: String) -> Bool {
        view?.press(key: key) ?? false
    }

    func snapshot(_ screenshot: WebParserJob.Screenshot, completion: @escaping @WebKitActor (String?) -> Void) {
        guard let view else { return }
        let destination = SnapshotFile(to: screenshot.file, confined: screenshot.confined)
        view.snapshot(fullPage: screenshot.fullPage, to: destination.partial.path) { error in completion(destination.finish(webKitError: error)) }
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
        view.destroy(keepingProcess: !endingProcess)
    }

    isolated deinit {
        view?.destroy(keepingProcess: true)
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
                if let view, let checkedCertificate { view.trust(checkedCertificate, for: url) }
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
