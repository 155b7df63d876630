// Uses WebParser the way a Swift program embeds it: scrape the bundled comic site (Examples/comics/site)
// into a Decodable model, map a result with a closure, show progress from the job's states, collect values
// a user script emits, cancel a parse that would wait for a long time, and (with WebParserCore) load a
// webparse config and tell what is new in its results as `webparse run --state` does, crawl a site's archive by its
// links and follow each chapter of a list to its own page (on the recipes' site, Examples/recipes/serve.py).
//
// stdout gets one line per step, for people and for Scripts/test.sh; progress goes to stderr.
import Foundation
import WebParserCore
import WebParser

/// One comic of the site's list.
struct Comic: Decodable, Sendable {
    var title: String
    var chapter: Int
    var updated: String
}

/// The comic site that ships with webparse: a page that renders its list with JavaScript.
let examples = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let site = examples.appending(path: "comics/site/index.html")

let comicsScript = """
    Array.from(document.querySelectorAll('#app .comic'), comic => ({
      title: comic.querySelector('.title').textContent,
      chapter: Number(comic.dataset.chapter),
      updated: comic.querySelector('time').dateTime
    }))
    """

/// Prints the job's states on stderr, as a progress display would.
func progress(_ label: String) -> @Sendable (WebParserState) -> Void {
    { state in
        switch state {
        case .started: FileHandle.standardError.write(Data("\(label): started\n".utf8))
        case .requested: break
        case .loading(let progress): FileHandle.standardError.write(Data("\(label): loading \(Int(progress * 100))%\n".utf8))
        case .executingJavaScript: FileHandle.standardError.write(Data("\(label): waiting for the data\n".utf8))
        case .retrying(let attempt, let error): FileHandle.standardError.write(Data("\(label): \(error), attempt \(attempt)\n".utf8))
        case .rerunningAlone(let error): FileHandle.standardError.write(Data("\(label): \(error), again in a web process of its own\n".utf8))
        case .completed, .failed, .cancelled: FileHandle.standardError.write(Data("\(label): \(state)\n".utf8))
        }
    }
}

/// The recipes' comic site (Examples/recipes/serve.py) on a free port, for as long as the program runs.
func startRecipesSite() throws -> (site: Process, base: String) {
    let site = Process()
    site.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    site.arguments = [examples.appending(path: "recipes/serve.py").path, "0"]
    let output = Pipe()
    site.standardOutput = output
    try site.run()
    // "recipes site on http://127.0.0.1:PORT/"
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")), case let chunk = output.fileHandleForReading.availableData, !chunk.isEmpty { line += chunk }
    let base = String(decoding: line, as: UTF8.self).split(separator: " ").last.map { String($0.dropLast(2)) } ?? ""
    return (site, base)
}

let parser = WebParserRunner()
let recipes = try startRecipesSite()
do {
    // 1. Decode the comics into a Decodable model.
    let job = WebParserJob(url: site, script: comicsScript, timeout: .seconds(15))
    let comics = try await parser.parse(job, mapper: JSONMapper([Comic].self), onStateChange: progress("comics"))
    let newest = comics.max { $0.updated < $1.updated }!
    print("decoded \(comics.count) comics; newest: \(newest.title), chapter \(newest.chapter)")

    // 2. Map a result with a closure: the chapter numbers only, summed.
    let chapters = try await parser.parse(
        job,
        mapper: ClosureMapper { data in
            let list = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
            return list.compactMap { $0["chapter"] as? Int }.reduce(0, +)
        })
    print("chapters in total: \(chapters)")

    // 3. Collect the values a user script emits as the page decodes its data.
    let capture = try UserScript(contentsOf: examples.appending(path: "comics/capture.user.js"))
    let emitted = WebParserJob(
        url: site, evaluation: Evaluation(script: "", collect: .emitted), timeout: .seconds(15),
        page: PageSettings(userScripts: [capture]))
    let captured = try await parser.parse(emitted, mapper: JSONMapper([Comic].self))
    print("captured \(captured.count) comics from the page's own decoding")

    // 4. Cancel a parse that waits for data that never comes: it ends at once, with CancellationError.
    let endless = WebParserJob(url: site, script: "document.querySelector('.never')", timeout: .seconds(60))
    let task = Task { try await parser.run(endless, onStateChange: progress("endless")) }
    try await Task.sleep(for: .milliseconds(500))
    let cancelledAt = ContinuousClock.now
    task.cancel()
    do {
        _ = try await task.value
        print("the endless parse was not cancelled")
    } catch is CancellationError {
        print("cancelled in under a second: \(ContinuousClock.now - cancelledAt < .seconds(1))")
    }

    // 5. Load the bundled config and track its items across two runs, as `webparse run --state` does.
    let config = try ConfigLoader.load(path: examples.appending(path: "comics/config.json").path)
    var state = StateFile()
    for named in config.jobs {
        for run in 1...2 {
            let result = try await parser.run(named.job)
            let changes = try ChangeTracker.changes(in: result.data, since: state.jobs[named.name], tracking: named.tracking, at: Date())
            state.jobs[named.name] = changes.updated
            print(
                "\(named.name), run \(run): \(changes.isFirstRun ? "first run" : "\(changes.fresh.count) new"), \(changes.updated.seen.count) items remembered")
        }
    }

    // 6. Crawl the archive: every page its "Older" links reach, each read for its chapters, two pages at once.
    let pages = WebParserPages(parser: parser, concurrency: 2)
    let archive = WebParserJob(url: URL(string: recipes.base + "/archive/1")!, script: "Array.from(document.querySelectorAll('li a'), a => a.textContent)")
    let crawled = try await Crawler(pages: pages).crawl(Crawl(match: "/archive/"), job: archive, name: "archive")
    let chapterCount = try crawled.pages.reduce(0) { count, page in count + (try JSONSerialization.jsonObject(with: page.result.get()) as! [Any]).count }
    print("crawled \(crawled.pages.count) archive pages: \(chapterCount) chapters, \(crawled.failed) failed")

    // 7. Follow each chapter of the archive's first page to its own page, whose script writes its summary.
    var list = archive
    list.evaluation = Evaluation(script: "Array.from(document.querySelectorAll('li a'), a => ({title: a.textContent, url: a.href}))")
    let first = try await pages.run(list, label: "list")
    let summary = WebParserJob(
        url: list.url, script: "({date: document.querySelector('time').dateTime, summary: document.querySelector('.summary').textContent || null})")
    let followed = await Follower(pages: pages).follow(Follow(field: "url", job: summary), in: first.data, base: URL(string: first.finalURL)!, name: "chapters")
    let items = try JSONSerialization.jsonObject(with: followed.list) as! [[String: Any]]
    let detail = items[0]["detail"] as! [String: String]
    print("followed \(items.count) chapters; \(items[0]["title"]!), \(detail["date"]!): \(detail["summary"]!)")
} catch {
    FileHandle.standardError.write(Data("LibraryUsage: \(error)\n".utf8))
    WebParserRunner.shutdown()
    recipes.site.terminate()
    exit(1)
}
WebParserRunner.shutdown()
recipes.site.terminate()
