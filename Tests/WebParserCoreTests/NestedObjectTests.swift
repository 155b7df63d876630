import Foundation
import Testing
import WebParser
@testable import WebParserCore

/// Nested config objects (`crawl`, `extract` and its fields, `capture`, `captureLimits`, `feed`, `follow`) are read
/// by one reader through their tables: known keys with a suggestion for the others, every problem of the object at
/// once, the option's value read as the same JSON, and nothing of an object that has a problem.
@Suite struct NestedObjectTests {
    func job(_ fields: String) -> Result<Config.NamedJob?, ConfigError> {
        let text = #"{"url": "https://comics.example/", "# + fields + "}"
        return Result { () throws(ConfigError) in
            try ConfigLoader.parse(Array(text.utf8), name: "c.json", directory: URL(fileURLWithPath: "/"), environment: [:]).jobs.first
        }
    }

    /// The problems of a job of `fields` and a script (`script`: false for none).
    func problems(_ fields: String, script: Bool = true) -> [String] {
        guard case .failure(let error) = job(fields + (script ? #", "script": "1""# : "")) else { return [] }
        return error.problems.map { $0.path + ": " + $0.message }
    }

    @Test func aCrawlIsReadByItsTable() throws {
        let crawl = try #require(
            try job(#""script": "1", "crawl": {"links": "a.next", "match": "/c/", "maxPages": 20, "maxDepth": 2, "sameSite": false, "delay": 0.5}"#).get()?
                .crawl)
        #expect(crawl == Crawl(links: "a.next", match: "/c/", maxPages: 20, maxDepth: 2, sameSite: false, delay: .milliseconds(500)))
        #expect(try job(#""script": "1", "crawl": {}"#).get()?.crawl == Crawl())
    }

    @Test func everyProblemOfAnObjectIsSaidAtOnce() {
        #expect(
            problems(#""crawl": {"maxPage": 5, "match": "(", "perHost": 0, "links": "a[", "robots": "yes"}"#) == [
                #"crawl.maxPage: unknown key; did you mean "maxPages"?"#,
                #"crawl.match: expected a regular expression, got "(", which is not one"#,
                "crawl.perHost: expected a number of pages from 1 to 64, got 0",
                #"crawl.links: not a valid CSS selector: expected an attribute name after "[""#,
                #"crawl.robots: expected true or false, got "yes""#
            ])
        #expect(problems(#""crawl": [1]"#) == [#"crawl: expected an object such as {"match": "/comics/", "maxPages": 200}, got an array"#])
        #expect(
            problems(#""captureLimits": {"body": 0, "totl": 5}"#).sorted() == [
                "captureLimits.body: expected a number of MiB from 0.001 to 4096, got 0",
                #"captureLimits.totl: unknown key; did you mean "total"?"#
            ])
        #expect(
            problems(#""feed": {"titel": "title", "link": 3}"#).sorted() == [
                #"feed.link: expected a non-empty string, got 3"#,
                #"feed.titel: unknown key; did you mean "title"?"#
            ])
    }

    @Test func aViewportObjectIsReadByItsTableAndItsTextFormStays() throws {
        #expect(try job(#""script": "1", "viewport": {"width": 400, "height": 300}"#).get()?.job.page.viewport == Viewport(width: 400, height: 300))
        #expect(try job(#""script": "1", "viewport": "800x600""#).get()?.job.page.viewport == Viewport(width: 800, height: 600))
        #expect(
            problems(#""viewport": {"width": 0, "hieght": 5}"#).sorted() == [
                "viewport.height: required",
                #"viewport.hieght: unknown key; did you mean "height"?"#,
                "viewport.width: expected a number of pixels from 1 to 16384, got 0"
            ])
    }

    @Test func authIsReadByItsTableAndItsPasswordsExcludeEachOther() throws {
        let job = try #require(try job(#""script": "1", "auth": {"user": "me", "password": "secret"}"#).get()?.job)
        #expect(job.load.credentials == WebParserJob.Credentials(user: "me", password: "secret"))
        #expect(problems(#""auth": {"user": "me", "pasword": "secret"}"#) == [#"auth.pasword: unknown key; did you mean "password"?"#])
        #expect(problems(#""auth": {"user": "me", "password": "a", "passwordEnv": "B"}"#) == ["auth: give password or passwordEnv, one of them"])
        #expect(problems(#""auth": {"password": "a"}"#) == ["auth.user: required"])
    }

    @Test func anOptionGivesTheSameObjectAsJSON() {
        let here = URL(fileURLWithPath: "/")
        let field = JobFields.all.first { $0.key == "crawl" }!
        var draft = JobDraft()
        #expect(field.readOption([#"{"maxDepth": 3}"#], into: &draft, directory: here).isEmpty)
        #expect(draft.crawl == Crawl(maxDepth: 3))
        var other = JobDraft()
        #expect(
            field.readOption([#"{"maxDepth": -1}"#], into: &other, directory: here).map(\.message) == ["expected a number of links from 0 to 10000, got -1"])
        #expect(other.crawl == nil, "nothing of an object with a problem is kept")
        #expect(field.readOption(["{maxDepth"], into: &other, directory: here).first?.message.hasPrefix("expected a JSON object such as") == true)
    }

    @Test func anExtractedFieldsAttributeWinsWhateverTheKeysOrder() throws {
        for field in [#"{"attribute": "title", "selector": "a@href"}"#, #"{"selector": "a@href", "attribute": "title"}"#] {
            let extraction = try #require(try job(#""extract": {"items": "li", "fields": {"t": \#(field)}}"#).get()?.job.evaluation.extract)
            #expect(extraction.fields == [Extraction.Field(name: "t", value: .read(.init(selector: "a", attribute: "title")))], "\(field)")
        }
        #expect(
            problems(#""extract": {"fields": {"t": {"selektor": "a", "as": "date"}}}"#, script: false).sorted() == [
                #"extract.fields.t.as: expected "text" or "number" or "url" or "html" or "bool", got "date""#,
                #"extract.fields.t.selector: required: a selector relative to the item ("." for the item itself)"#,
                #"extract.fields.t.selektor: unknown key; did you mean "selector"?"#
            ])
        #expect(
            problems(#""capture": {"as": "xml"}"#).sorted() == [
                #"capture.as: expected "json" or "text" or "base64", got "xml""#,
                "capture.url: required; a regular expression for the URLs to capture"
            ])
    }
}
