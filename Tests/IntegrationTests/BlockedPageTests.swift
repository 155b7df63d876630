import Foundation
import TestSupport
import Testing

/// Pages of bot protection services, written as the services write them (their status, title, scripts and
/// elements), are told apart from ordinary error pages: code `blocked`, not retried unless `retryBlocked`, counted
/// apart at the end of the run. Scripts of other hosts are typed so that the browser does not fetch them.
@Suite struct BlockedPageTests: CommandLineTest {
    static let pages: [String: TestHTTPServer.Route] = [
        "/cloudflare": .respond(
            status: 403, headers: ["cf-mitigated": "challenge", "Server": "cloudflare"],
            body:
                #"<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><div class="main-wrapper"><noscript>Enable JavaScript and cookies to continue</noscript></div><script src="/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1?ray=8e1"></script></body></html>"#
        ),
        "/cloudflare-block": .respond(
            status: 403,
            body: #"<!DOCTYPE html><title>Attention Required! | Cloudflare</title><div id="cf-wrapper"><h1>Sorry, you have been blocked</h1></div>"#),
        "/datadome": .respond(
            status: 403,
            body:
                #"<html><head><title>example.com</title></head><body><script>var dd={'rt':'c','cid':'AHrlqAAA'}</script><script type="text/x-blocked" src="https://ct.captcha-delivery.com/c.js"></script></body></html>"#
        ),
        "/akamai": .respond(
            status: 403,
            body:
                "<HTML><HEAD><TITLE>Access Denied</TITLE></HEAD><BODY><H1>Access Denied</H1>You don't have permission to access this server.<P>Reference&#32;&#35;18&#46;5e1c2117&#46;1733300000&#46;1a2b3c<P>https&#58;&#47;&#47;errors&#46;edgesuite&#46;net&#47;18&#46;5e1c2117</BODY></HTML>"
        ),
        "/perimeterx": .respond(
            status: 403,
            body:
                #"<html><head><title>Access to this page has been denied</title></head><body><div id="px-captcha"></div><script type="text/x-blocked" src="https://client.px-cloud.net/PXabc/main.min.js"></script></body></html>"#
        ),
        "/aws-waf": .respond(
            status: 405,
            body:
                #"<html><head><title></title><script type="text/x-blocked" src="https://abc.token.awswaf.com/abc/challenge.js"></script></head><body><div id="captcha-container"></div><script>AwsWafIntegration.getToken()</script></body></html>"#
        ),
        "/hcaptcha": .respond(
            status: 429,
            body:
                #"<html><title>One more step</title><form><div class="h-captcha" data-sitekey="x"></div></form><script type="text/x-blocked" src="https://js.hcaptcha.com/1/api.js"></script></html>"#
        ),
        "/forbidden": .respond(
            status: 403,
            body:
                "<html><title>403 Forbidden</title><h1>Forbidden</h1><p>You don't have permission to access this resource. Protected by Cloudflare.</p></html>"),
        "/unavailable": .respond(
            status: 503, headers: ["Retry-After": "1"], body: "<html><title>Service Unavailable</title><h1>Down for maintenance</h1></html>"),
        "/login": .respond(
            body:
                #"<title>Sign in</title><form><input name=user><div class="g-recaptcha"></div></form><script type="text/x-blocked" src="https://www.google.com/recaptcha/api.js"></script>"#
        )
    ]

    @Test func botProtectionIsNamedAndOrdinaryErrorPagesAreNot() async throws {
        let server = try TestHTTPServer(routes: Self.pages)
        let jobs = Self.pages.keys.sorted().map { path in
            #"{"name": "\#(path.dropFirst())", "url": "\#(server.url(path))", "script": "document.title", "retries": 0, "timeout": 20}"#
        }
        let config = try write(#"{"concurrency": 2, "jobs": [\#(jobs.joined(separator: ","))]}"#, "sites.json", in: try folder())
        let run = try await webparse.run(["run", config, "--jsonl"], environment: headless)
        #expect(run.status == 1, "\(run.stderr)")
        let records = try run.stdoutText.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let byJob = Dictionary(uniqueKeysWithValues: records.compactMap { record in (record["job"] as? String).map { ($0, record) } })
        let expected = [
            "cloudflare": ("Cloudflare challenge", 403), "cloudflare-block": ("Cloudflare challenge", 403), "datadome": ("DataDome", 403),
            "akamai": ("Akamai", 403), "perimeterx": ("PerimeterX (HUMAN)", 403), "aws-waf": ("AWS WAF", 405), "hcaptcha": ("hCaptcha challenge", 429)
        ]
        for (job, (service, status)) in expected {
            let record = byJob[job]
            #expect(record?["code"] as? String == "blocked", "\(job): \(String(describing: record))")
            #expect(record?["httpStatus"] as? Int == status, "\(job)")
            #expect(
                (record?["error"] as? String)?.contains("blocked by bot protection (\(service), \(status))") == true, "\(job): \(String(describing: record))")
        }
        #expect(byJob["forbidden"]?["code"] as? String == "http-status", "an ordinary 403 is no false alarm")
        #expect(byJob["unavailable"]?["code"] as? String == "http-status", "an ordinary 503 is no false alarm")
        #expect(
            byJob["login"]?["status"] as? String == "ok" && byJob["login"]?["result"] as? String == "Sign in", "a CAPTCHA on a page that loaded is the page")
        #expect(run.stderr.contains("webparse run: 7 of 10 jobs were blocked by bot protection"), "\(run.stderr)")
    }

    @Test func aBlockedPageIsRetriedOnlyWhenTheJobSaysSo() async throws {
        let server = try TestHTTPServer(routes: Self.pages)
        let directory = try folder()
        let once = try write(#"{"url": "\#(server.url("/cloudflare"))", "script": "1", "retries": 2, "retryDelay": 0}"#, "once.json", in: directory)
        let run = try await webparse.run(["run", once], environment: headless)
        #expect(run.status == 1 && run.stderr.contains("blocked by bot protection (Cloudflare challenge, 403)"), "\(run.stderr)")
        #expect(server.requests(for: "/cloudflare").count == 1, "not retried by default")
        let again = try write(
            #"{"url": "\#(server.url("/cloudflare"))", "script": "1", "retries": 2, "retryDelay": 0, "retryBlocked": true}"#, "again.json", in: directory)
        let retried = try await webparse.run(["run", again], environment: headless)
        #expect(retried.status == 1, "\(retried.stderr)")
        #expect(server.requests(for: "/cloudflare").count == 4, "three attempts more")
    }
}
