// Uses WebParser the way a Swift program embeds it: scrape the bundled comic site (Examples/comics/site)
// into a Decodable model, map a result with a closure, show progress from the job's states, collect values
// a user script emits, cancel a parse that would wait for a long time, and (with WebParserCore) load a
// webparse config and tell what is new in its results as `webparse run --state` does.
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
        case .loading(let progress): FileHandle.standardError.write(Data("\(label): loading \(Int(progress * 100))%\n".utf8))
        case .executingJavaScript: FileHandle.standardError.write(Data("\(label): waiting for the data\n".utf8))
        case .retrying(let attempt, let error): FileHandle.standardError.write(Data("\(label): \(error), attempt \(attempt)\n".utf8))
        case .rerunningAlone(let error): FileHandle.standardError.write(Data("\(label): \(error), again in a web process of its own\n".utf8))
        case .completed, .failed, .cancelled: FileHandle.standardError.write(Data("\(label): \(state)\n".utf8))
        }
    }
}

let parser = WebParserRunner()
do {
    // 1. Decode the comics into a Decodable model.
    let job = WebParserJob(url: site, script: comicsScript, timeout: .seconds(15))
    let comics = try await parser.parse(job, mapper: JSONMapper([Comic].self), onStateChange: progress("comics"))
    let newest = comics.max { $0.updated < $1.updated }!
    print("decoded \(comics.count) comics; newest: \(newest.title), chapter \(newest.chapter)")

    // 2. Map a result with a closure: the chapter numbers only, summed.
    let chapters = try await parser.parse(job, mapper: ClosureMapper { data in
        let list = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
        return list.compactMap { $0["chapter"] as? Int }.reduce(0, +)
    })
    print("chapters in total: \(chapters)")

    // 3. Collect the values a user script emits as the page decodes its data.
    let capture = try UserScript(contentsOf: examples.appending(path: "comics/capture.user.js"))
    let emitted = WebParserJob(url: site, evaluation: Evaluation(script: "", collect: .emitted), timeout: .seconds(15),
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
            print("\(named.name), run \(run): \(changes.isFirstRun ? "first run" : "\(changes.fresh.count) new"), \(changes.updated.seen.count) items remembered")
        }
    }
} catch {
    FileHandle.standardError.write(Data("LibraryUsage: \(error)\n".utf8))
    WebParserRunner.shutdown()
    exit(1)
}
WebParserRunner.shutdown()
