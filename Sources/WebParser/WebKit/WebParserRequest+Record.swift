internal import CWebKitGTK
import FoundationEssentials

extension WebParserRequest {
    /// The load the shim reports.
    init(_ record: WKResourceRecord) {
        let mimeType = String(cString: record.mime_type)
        self.init(
            url: String(cString: record.url), method: String(cString: record.method), status: Int(record.status), mimeType: mimeType,
            kind: WebParserJob.Capture.Kind(mimeType: mimeType, mainDocument: record.main_document), started: Self.date(record.started),
            responded: record.responded == 0 ? nil : Self.date(record.responded), ended: Self.date(record.ended),
            failure: record.failure.map { String(cString: $0) }, requestHeaders: Self.headers(record.request_headers),
            responseHeaders: Self.headers(record.response_headers), bodySize: record.encoded_length < 0 ? nil : Int(record.encoded_length),
            body: record.body.map { Data(bytes: $0, count: record.body_length) }, bodyIsExact: true)
    }

    private static func date(_ microseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(microseconds) / 1_000_000)
    }

    private static func headers(_ list: UnsafePointer<UnsafePointer<CChar>?>?) -> [Header] {
        guard let list else { return [] }
        var headers: [Header] = []
        var index = 0
        while let name = list[index], let value = list[index + 1] {
            headers.append(Header(name: String(cString: name), value: String(cString: value)))
            index += 2
        }
        return headers
    }
}
