import Foundation
import Testing
@testable import WebParser
@testable import WebParserCore

/// The values steps typed from the environment, kept out of a HAR file in every form a request carries them.
@Suite struct HARRedactionTests {
    func request(url: String, sent: (type: String, body: String)? = nil, responseBody: String? = nil) -> WebParserRequest {
        var request = WebParserRequest(
            url: url, method: sent == nil ? "GET" : "POST", status: 200, mimeType: "text/html", kind: .document, started: Date(), ended: Date(),
            requestHeaders: [.init(name: "Authorization", value: "Bearer tok-9f8e7d")], responseHeaders: [], bodyIsExact: true)
        request.sent = sent.map { WebParserRequest.SentBody(contentType: $0.type, body: Data($0.body.utf8)) }
        request.body = responseBody.map { Data($0.utf8) }
        return request
    }

    /// A form's field whose value is a secret, however short, becomes `[env NAME]`, readable in the text as in the
    /// fields; a longer secret is replaced anywhere, as typed and as forms and URLs encode it.
    @Test func secretsAreReplacedInEveryFormTheyTake() throws {
        let redaction = HARRedaction(secrets: ["PIN": "42", "PASSWORD": "p@ss w0rd&ü", "TOKEN": "tok-9f8e7d"])
        let form = redaction.redacted(
            request(url: "http://example.test/login", sent: ("application/x-www-form-urlencoded", "user=ann&pin=42&password=p%40ss+w0rd%26%C3%BC&n=420")))
        #expect(String(decoding: try #require(form.sent?.body), as: UTF8.self) == "user=ann&pin=[env PIN]&password=[env PASSWORD]&n=420")
        let json = redaction.redacted(request(url: "http://example.test/api", sent: ("application/json", #"{"password":"p@ss w0rd&ü","pin":42}"#)))
        #expect(String(decoding: try #require(json.sent?.body), as: UTF8.self) == #"{"password":"[env PASSWORD]","pin":42}"#, "a short one is left in text")
        let query = redaction.redacted(request(url: "http://example.test/search?pin=42&q=p%40ss%20w0rd%26%C3%BC&page=42x"))
        #expect(query.url == "http://example.test/search?pin=%5Benv%20PIN%5D&q=%5Benv%20PASSWORD%5D&page=42x", "\(query.url)")
        #expect(query.requestHeaders.first?.value == "Bearer [env TOKEN]")
        let echoed = redaction.redacted(request(url: "http://example.test/", responseBody: "<p>Welcome back, your token is tok-9f8e7d</p>"))
        #expect(String(decoding: try #require(echoed.body), as: UTF8.self) == "<p>Welcome back, your token is [env TOKEN]</p>")
    }

    /// Without secrets, a request is written as it is.
    @Test func withoutSecretsNothingChanges() {
        let given = request(url: "http://example.test/?a=1", sent: ("application/x-www-form-urlencoded", "a=b+c"))
        #expect(HARRedaction(secrets: [:]).redacted(given) == given)
    }
}
