internal import CWebKitGTK
import FoundationEssentials
import Glibc

/// The shim's offscreen WebKitWebView: what a page asks of WebKit, as plain calls. It decides nothing; the page
/// (`WebKitPage`) does.
@WebKitActor
struct WebKitView {
    private let view: OpaquePointer

    /// A view in `context` (a `WKContext`) made with `options`, running `bridge`'s script at every document's start
    /// and the page's error watch in webparse's own world, blocking what `filter` blocks; in `related`'s web
    /// process when given (sharing its user content when `sharesContent`). Its events go to `callbacks` with
    /// `target`.
    init(
        context: OpaquePointer, options: PageSettings, bridge: PageBridge?, filter: ContentFilter?, related: WebKitView?, sharesContent: Bool,
        target: UnsafeMutableRawPointer
    ) {
        view = options.userAgent.withOptionalCString { userAgent in
            bridge.map(\.source).withOptionalCString { startScript in
                PageErrorWatch.source.withCString { watchScript in
                    WebParserJob.isolatedWorld.withCString { watchWorld in
                        wk_view_new(
                            context,
                            WKViewOptions(
                                width: Int32(options.viewport.width), height: Int32(options.viewport.height),
                                user_agent: userAgent, page_scripts: options.pageScripts,
                                media: !options.blocking.resources.contains(.media),
                                content_filter: filter?.pointer, document_start_script: startScript,
                                watch_script: watchScript, watch_world: watchWorld, webgl: options.webgl),
                            related?.view, sharesContent, CallbackTarget.callbacks, target)!
                    }
                }
            }
        }
    }

    /// The title of the document the view shows.
    var title: String? { wk_view_title(view).map { String(cString: $0) } }

    /// WebKit may not have a load's body yet when the load ends (seen for a worker's script): it is asked for once
    /// more this much later.
    static let lateBodyRetry = Duration.milliseconds(100)

    /// Loads `request`: tells the web process extension what the page's documents capture and where they tell
    /// their pending work, then loads the document given, or the URL with the request's headers and credentials.
    func load(_ request: PageRequest) {
        let recording = request.recordsRequests ? WK_CAPTURE_FETCH.rawValue | WK_CAPTURE_XHR.rawValue | WK_CAPTURE_FORMS.rawValue : 0
        let kinds = (request.capture?.kinds.reduce(0) { $0 | $1.hookBit } ?? 0) | recording
        let bodyLimit = request.capture?.bodyLimit ?? (request.recordsBodies ? WebParserJob.Capture.defaultBodyLimit : 0)
        let worlds =
            (request.work?.inMainWorld == true ? WK_WORK_IN_MAIN_WORLD.rawValue : 0)
            | (request.work?.inOwnWorld == true ? WK_WORK_IN_OWN_WORLD.rawValue : 0)
        _ = wk_view_set_page_settings(
            view, request.capture != nil || request.recordsRequests, UInt64(bodyLimit), kinds, request.work?.key ?? "", worlds)
        wk_view_record_resources(view, request.recordsLoads, UInt32(Self.lateBodyRetry.milliseconds))
        if let document = request.document {
            wk_view_load_html(view, document, request.url.absoluteString)
            return
        }
        let headers = request.headers.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }
        withCStringArray(headers) { headers in
            wk_view_load_uri(view, request.url.absoluteString, headers, request.credentials?.user, request.credentials?.password)
        }
    }

    /// Calls `body` as an async function in `world` (nil: the page's), named `sourceName` in errors.
    func callAsyncFunction(_ body: String, sourceName: String, world: String?, completion: @escaping @WebKitActor (JavaScriptReply) -> Void) {
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

    /// Calls `answered` once the view's web process answers.
    func ping(answered: @escaping @WebKitActor () -> Void) {
        wk_view_ping(
            view,
            { context, _ in
                let answered = CallbackBox<@WebKitActor () -> Void>.take(context)
                WebKitActor.assumeIsolated { answered() }
            }, CallbackBox.retained(answered))
    }

    /// Clicks the point of the viewport, in CSS pixels.
    func click(x: Double, y: Double) {
        wk_view_click(view, x, y)
    }

    /// Presses the key named `key` (GDK's names); false when there is none of that name.
    func press(key: String) -> Bool {
        wk_view_press_key(view, key)
    }

    /// Writes a PNG of the viewport (or of the whole page) to `path`, then calls `written` with WebKit's error, if any.
    func snapshot(fullPage: Bool, to path: String, written: @escaping @WebKitActor (String?) -> Void) {
        wk_view_snapshot(
            view, fullPage, path,
            { context, message in
                let written = CallbackBox<@WebKitActor (String?) -> Void>.take(context)
                let error = message.map { String(cString: $0) }
                WebKitActor.assumeIsolated { written(error) }
            }, CallbackBox.retained(written))
    }

    /// Lets the current load go on with `certificate`, which a check found untrusted, for `url`.
    func trust(_ certificate: OpaquePointer, for url: String) {
        wk_view_trust_certificate(view, certificate, url)
    }

    /// Releases the view, keeping its web process when `keepingProcess` (else ending it, even one stuck in
    /// JavaScript).
    func destroy(keepingProcess: Bool) {
        wk_view_destroy(view, keepingProcess)
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
