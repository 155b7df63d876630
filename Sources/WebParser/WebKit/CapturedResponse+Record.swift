internal import CWebKitGTK
import FoundationEssentials

extension CapturedResponse {
    /// The response the shim reports.
    init(_ response: WKCapturedResponse) {
        let omitted = response.omitted.map { Omission(rawValue: String(cString: $0)) ?? .unreadable }
        self.init(
            kind: response.kind == WK_CAPTURE_XHR ? .xhr : response.kind == WK_CAPTURE_OTHER ? .other : .fetch, url: String(cString: response.url),
            method: String(cString: response.method), status: Int(response.status),
            mimeType: String(cString: response.mime_type), mainFrame: response.main_frame, exact: response.exact,
            size: Int(clamping: response.size),
            body: omitted == nil ? response.body.map { Data(bytes: $0, count: response.body_length) } ?? Data() : nil, omitted: omitted,
            read: response.read)
    }
}
