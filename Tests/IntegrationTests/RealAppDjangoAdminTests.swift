import Foundation
import TestSupport
import Testing

/// webparse on the Django admin (Django from PyPI, pinned), unmodified: a login form with a CSRF token and a
/// session cookie, its stylesheets and scripts (jQuery among them), a changelist ten to a page and a change page per
/// group. A login job runs first; the pages behind it come in the same session. Answers are checked against the
/// groups in the app's database, at one page at a time and at the default `-j`, three times each.
@Suite(.serialized) struct RealAppDjangoAdminTests: CommandLineTest {
    static let concurrencies: [[String]] = [["-j", "1"], []]

    /// The Django admin over a database of its own in `directory`; the database's path.
    func start(in directory: URL) throws -> (RealApplication, database: String) {
        let script = RealApplication.fixtures.appending(path: "django_admin_site.py").path
        let app = try RealApplication("Django 5.2.20's admin", program: "python3") { [script, String($0), directory.path] }
        return (app, directory.appending(path: "db.sqlite3").path)
    }

    /// The groups in the app's database: id and name.
    func groups(in database: String, where condition: String = "1") throws -> [(id: Int, name: String)] {
        let rows = try #require(try RealApplication.truth(["sql", database, "select id, name from auth_group where \(condition) order by name"]) as? [[Any]])
        return rows.map { ($0[0] as? Int ?? -1, $0[1] as? String ?? "") }
    }

    /// The config: the login, then `jobs` (JSON objects, comma-separated) after it.
    func config(_ app: RealApplication, _ jobs: String, in directory: URL) throws -> String {
        try write(
            #"""
            {"defaults": {"retries": 0, "timeout": 30}, "jobs": [
             {"name": "login", "url": "\#(app.base)/admin/login/?next=/admin/",
              "steps": [{"if": "#login-form", "then": [
                {"fill": {"#id_username": "admin", "#id_password": "real-app-password"}}, {"click": "input[type=submit]"}]}],
              "waitFor": "location.pathname == '/admin/'", "script": "document.querySelector('#user-tools strong')?.textContent ?? null"},
             \#(jobs)]}
            """#, "admin.json", in: directory)
    }

    /// The groups' list, page after page (the paginator's next number), each with its change page's name (`follow`).
    static let groupsJob = #"""
        {"name": "groups", "after": "login", "url": "/admin/auth/group/",
         "extract": {"items": "#result_list tbody tr", "fields": {"name": "th a", "url": "th a@href"}},
         "next": ".paginator .this-page + a:not(.showall)", "maxPages": 10,
         "follow": {"field": "url", "extract": {"fields": {"name": "input#id_name@value"}}}}
        """#

    @Test(arguments: concurrencies) func theGroupsBehindTheLoginPageAfterPageWithTheirOwnPages(concurrency: [String]) async throws {
        let directory = try folder()
        let (app, database) = try start(in: directory)
        defer { app.stop() }
        let config = try config(app, Self.groupsJob.replacingOccurrences(of: #""url": "/"#, with: #""url": "\#(app.base)/"#), in: directory)
        let truth = try groups(in: database)
        #expect(truth.count == 45)
        for round in 1...3 {
            let run = try await webparse.run(["run", config] + concurrency, environment: headless)
            #expect(run.status == 0, "round \(round) \(concurrency): \(run.stderr)")
            let output = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "\(run.stdoutText) \(run.stderr)")
            #expect(output["login"] as? String == "admin", "round \(round) \(concurrency): \(output["login"] ?? "nothing") \(run.stderr)")
            let items = try #require(output["groups"] as? [[String: Any]], "\(output)")
            #expect(items.map { $0["name"] as? String ?? "" } == truth.map(\.name), "round \(round) \(concurrency)")
            #expect(items.map { ($0["detail"] as? [String: String])?["name"] ?? "" } == truth.map(\.name), "round \(round) \(concurrency)")
        }
    }

    /// A crawl of the groups' section behind the login: every list page and every group's change page, none lost.
    @Test(arguments: concurrencies) func aCrawlOfTheSectionBehindTheLoginReadsEveryGroup(concurrency: [String]) async throws {
        let directory = try folder()
        let (app, database) = try start(in: directory)
        defer { app.stop() }
        let config = try config(
            app,
            #"""
            {"name": "section", "after": "login", "url": "\#(app.base)/admin/auth/group/",
             "script": "document.querySelector('#id_name')?.value ?? document.querySelector('.paginator .this-page')?.textContent ?? null",
             "crawl": {"match": "/admin/auth/group/([?]p=[0-9]+|[0-9]+/change/([?]_changelist_filters=p%3D[0-9]+)?)$", "perHost": 4}}
            """#, in: directory)
        let truth = try groups(in: database)
        for round in 1...3 {
            let run = try await webparse.run(["run", config] + concurrency, environment: headless)
            #expect(run.status == 0, "round \(round) \(concurrency): \(run.stderr)")
            let output = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "\(run.stdoutText) \(run.stderr)")
            let pages = try #require(output["section"] as? [String: Any], "\(output)")
            let failed = pages.filter { !($0.value is String) }
            #expect(failed.isEmpty, "round \(round) \(concurrency): \(failed)")
            // A change page by its path (the list a link came from is in its query), with the name it showed.
            var read: [Int: Set<String>] = [:]
            for (url, value) in pages {
                guard let path = URLComponents(string: url)?.path, path.hasSuffix("/change/"), let name = value as? String else { continue }
                let id = Int(path.split(separator: "/").dropLast().last ?? "") ?? -1
                read[id, default: []].insert(name)
            }
            #expect(read == Dictionary(uniqueKeysWithValues: truth.map { ($0.id, Set([$0.name])) }), "round \(round) \(concurrency)")
            let lists = Set(pages.keys.filter { $0.contains("?p=") })
            #expect(lists == Set((1...5).map { "\(app.base)/admin/auth/group/?p=\($0)" }), "round \(round) \(concurrency)")
        }
    }

    /// `--state --new-only` with a session folder that keeps the login: each run reports the groups added to the
    /// database since the last, with their change pages followed, and nothing when none was added.
    @Test(arguments: concurrencies) func eachRunReportsTheGroupsAddedSinceTheLast(concurrency: [String]) async throws {
        let directory = try folder()
        let (app, database) = try start(in: directory)
        defer { app.stop() }
        let config = try config(app, Self.groupsJob.replacingOccurrences(of: #""url": "/"#, with: #""key": "name", "url": "\#(app.base)/"#), in: directory)
        let (state, session) = (directory.appending(path: "admin.state").path, directory.appending(path: "session").path)
        let arguments = ["run", config, "--state", state, "--new-only", "--session", session]
        let first = try await webparse.run(arguments + concurrency, environment: headless)
        #expect(first.status == 0 && first.stdout.isEmpty, "\(first.stdoutText) \(first.stderr)")
        for round in 1...3 {
            let names = (1...round).map { "Chapter \(45 + round * 10 + $0)" }
            for name in names {
                let inserted = try RealApplication.truth(["run", database, "insert into auth_group (name) values ('\(name)')"])
                #expect(inserted as? Int == 1)
            }
            let added = try groups(in: database, where: "name in (\(names.map { "'\($0)'" }.joined(separator: ", ")))")
            let run = try await webparse.run(arguments + concurrency, environment: headless)
            #expect(run.status == 0, "round \(round) \(concurrency): \(run.stderr)")
            let output = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "\(run.stdoutText) \(run.stderr)")
            let items = try #require(output["groups"] as? [[String: Any]], "\(output)")
            #expect(Set(items.map { $0["name"] as? String ?? "" }) == Set(added.map(\.name)), "round \(round) \(concurrency): \(items)")
            #expect(items.allSatisfy { ($0["detail"] as? [String: String])?["name"] == $0["name"] as? String }, "\(items)")
            let again = try await webparse.run(arguments + concurrency, environment: headless)
            #expect(again.status == 0 && again.stdout.isEmpty, "round \(round), nothing added: \(again.stdoutText) \(again.stderr)")
        }
    }
}
