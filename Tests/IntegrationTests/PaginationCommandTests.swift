import Foundation
import TestSupport
import Testing

/// Pagination from a config, and the hourly update check that reads one page instead of all of them.
@Suite struct PaginationCommandTests: CommandLineTest {
    /// Three pages of chapters behind "next" links; the first page's chapters can change.
    func site(_ firstPage: Shared<[String]>) throws -> TestHTTPServer {
        @Sendable func page(_ items: [String], next: Int?) -> String {
            "<ul>" + items.map { "<li>\($0)</li>" }.joined() + "</ul>" + (next.map { "<a class='next' href='/list/\($0)'>next</a>" } ?? "")
        }
        return try TestHTTPServer(routes: [
            "/list/1": .handle { _ in TestHTTPServer.Response(body: page(firstPage.value, next: 2)) },
            "/list/2": .respond(body: page(["c3", "c4"], next: 3)),
            "/list/3": .respond(body: page(["c5", "c6"], next: nil))
        ])
    }

    @Test func anUpdateCheckStopsAtTheFirstPageItHasSeen() async throws {
        let firstPage = Shared(["c1", "c2"])
        let server = try site(firstPage)
        let directory = try folder()
        let config = try write(
            #"""
            {"url": "\#(server.url("/list/1"))", "retries": 0, "next": "a.next", "stopAtSeen": true,
             "script": "[...document.querySelectorAll('li')].map((li) => li.textContent)"}
            """#, "chapters.json", in: directory)
        let state = directory.appending(path: "chapters.state").path

        let all = try await webparse.run(["run", config], environment: headless)
        #expect(all.status == 0, "\(all.stderr)")
        #expect(all.stdoutText == #"["c1","c2","c3","c4","c5","c6"]"# + "\n")

        let first = try await webparse.run(["run", "--state", state, "--new-only", config], environment: headless)
        #expect(first.status == 0 && first.stdout.isEmpty, "\(first.stderr)")
        #expect(server.requests(for: "/list/3").count == 2, "the first run with a state reads every page")

        let unchanged = try await webparse.run(["run", "--state", state, "--new-only", config], environment: headless)
        #expect(unchanged.status == 0 && unchanged.stdout.isEmpty, "\(unchanged.stderr)")
        #expect(server.requests(for: "/list/2").count == 2, "nothing new on the first page: the second is never loaded")

        firstPage.value = ["c0", "c1", "c2"]
        let fresh = try await webparse.run(["run", "--state", state, "--new-only", config], environment: headless)
        #expect(fresh.status == 0, "\(fresh.stderr)")
        #expect(fresh.stdoutText == #"["c0"]"# + "\n")
        #expect(
            server.requests(for: "/list/2").count == 3 && server.requests(for: "/list/3").count == 2,
            "a new item on the first page: the second is read, and all seen, so the third is not")
    }

    @Test func paginationFieldsAreChecked() async throws {
        let directory = try folder()
        let config = try write(#"{"url": "https://example.com", "script": "1", "maxPages": 0, "stopAtSeen": true}"#, "bad.json", in: directory)
        let bad = try await webparse.run(["validate", config], environment: headless)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("maxPages: expected a number of pages from 1 to 1000, got 0"), "\(bad.stderr)")
        #expect(bad.stderr.contains("stopAtSeen: goes with next"), "\(bad.stderr)")
    }
}
