import Foundation
import TestSupport
import Testing

/// Jobs in order: a login through a form (CSRF token, a session cookie without an expiry), then the members'
/// pages behind it, in the same run and session.
@Suite struct JobOrderCommandTests: CommandLineTest {
    func site() throws -> TestHTTPServer {
        try TestHTTPServer(routes: [
            "/login": .handle { request in
                guard request.method == "POST" else {
                    return TestHTTPServer.Response(
                        body: """
                            <form method="post" action="/login"><input type="hidden" name="csrf" value="c5rf">
                            <input name="user" id="user"><input type="password" name="password" id="password">
                            <button type="submit" id="go">Log in</button></form>
                            """)
                }
                guard request.body == "csrf=c5rf&user=ann&password=s3cret" else {
                    return TestHTTPServer.Response(status: 403, body: "<p id='error'>wrong password</p>")
                }
                return TestHTTPServer.Response(headers: ["Set-Cookie": "session=ok; Path=/; HttpOnly"], body: "<p id='welcome'>Welcome, ann</p>")
            },
            "/members/1": .handle { request in
                TestHTTPServer.Response(body: request.cookie("session") == "ok" ? "<li>chapter 1</li>" : "<p>please log in</p>")
            },
            "/members/2": .handle { request in
                TestHTTPServer.Response(body: request.cookie("session") == "ok" ? "<li>chapter 2</li>" : "<p>please log in</p>")
            }
        ])
    }

    func config(_ server: TestHTTPServer, in directory: URL) throws -> String {
        try write(
            #"""
            {"defaults": {"retries": 0, "timeout": 10},
             "jobs": [
              {"name": "chapters", "after": "login", "urls": ["\#(server.url("/members/1"))", "\#(server.url("/members/2"))"],
               "script": "document.querySelector('li')?.textContent"},
              {"name": "login", "url": "\#(server.url("/login"))",
               "steps": [{"fill": {"#user": "ann", "#password": {"env": "SITE_PASSWORD"}}}, {"click": "#go"}],
               "script": "document.querySelector('#welcome')?.textContent"}
             ]}
            """#, "members.json", in: directory)
    }

    @Test func aLoginRunsFirstAndItsSessionCarriesTheOthers() async throws {
        let server = try site()
        let directory = try folder()
        let file = try config(server, in: directory)
        var environment = headless
        environment["SITE_PASSWORD"] = "s3cret"
        let run = try await webparse.run(["run", "-j", "4", file], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdoutText == #"{"chapters-1":"chapter 1","chapters-2":"chapter 2","login":"Welcome, ann"}"# + "\n")
        let only = try await webparse.run(["run", "--only", "chapters-2", file], environment: environment)
        #expect(only.stdoutText.contains(#""chapters-2":"chapter 2""#), "--only brings the job it runs after: \(only.stderr)")

        environment["SITE_PASSWORD"] = "wrong"
        let failed = try await webparse.run(["run", file], environment: environment)
        #expect(failed.status == 1)
        #expect(failed.stderr.contains(#"chapters-1: failed: not run: it runs after "login", which failed"#), "\(failed.stderr)")
        let records = try await webparse.run(["run", "--jsonl", file], environment: environment)
        let notRun = records.stdoutText.split(separator: "\n").first { $0.contains(#""job":"chapters-1""#) }
        #expect(notRun?.contains(#""attempts":0"#) == true && notRun?.contains(#""code":"not-run""#) == true, "\(records.stdoutText)")
        #expect(server.requests(for: "/members/1").count == 1, "a job after a failed login never loads")
    }

    @Test func unknownJobsAndCyclesAreConfigErrors() async throws {
        let directory = try folder()
        let file = try write(
            #"""
            {"jobs": [{"name": "a", "after": "b", "url": "https://example.com", "script": "1"},
                      {"name": "b", "after": ["a"], "url": "https://example.com", "script": "1"},
                      {"name": "c", "after": "logn", "url": "https://example.com", "script": "1"}]}
            """#, "order.json", in: directory)
        let bad = try await webparse.run(["validate", file], environment: headless)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("jobs[0].after: jobs wait for each other: a → b → a"), "\(bad.stderr)")
        #expect(bad.stderr.contains(#"jobs[2].after: no job is named "logn""#), "\(bad.stderr)")
    }
}
