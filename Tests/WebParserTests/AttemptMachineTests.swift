import Foundation
import Testing
@testable import WebParser

/// The attempt's decisions, event by event, without WebKit, a fake page or a clock.
@Suite struct AttemptMachineTests {
    let url = URL(string: "http://example.test/list")!

    func machine(deadline: ContinuousClock.Instant? = nil, _ configure: (inout WebParserJob) -> Void = { _ in }) -> AttemptMachine {
        var job = WebParserJob(url: url, evaluation: Evaluation(script: "document.title", pollInterval: .milliseconds(50)), timeout: .seconds(5))
        configure(&job)
        return AttemptMachine(job: job, deadline: deadline)
    }

    /// Whether `body`, a step's call, waits for an element (or a condition) to be ready before it acts.
    static func waitsForAnElement(_ body: String) -> Bool {
        let kinds = ["click", "fill", "select", "check", "press", "submit", "scrollTo", "waitFor", "waitForSelector"]
        return kinds.contains { body.contains(#""kind":"\#($0)""#) }
    }

    /// The actions in words, for comparing.
    func words(_ actions: [AttemptMachine.Action]) -> [String] {
        actions.map { action in
            switch action {
            case .schedule(.deadline, let timeout): "watch \(timeout)"
            case .load: "load"
            case .evaluate(let body, let document): "evaluate \(body.utf8.count > 1000 ? "whole" : "repeat") in \(document)"
            case .schedule(.evaluation, let delay): "evaluate after \(delay)"
            case .schedule(.request(.load(let id)), let delay): "expire request \(id) after \(delay)"
            case .schedule(.request(.read(let id)), let delay): "expire read \(id) after \(delay)"
            case .notify(let body):
                body.contains(".pageQuiet(true, ")
                    ? "notify busy"
                    : body.contains(".pageQuiet(false, ")
                        ? "notify quiet" : body.contains(".setResponses(") ? "give responses" : "install script"
            case .readPageError(let document): "read page error in \(document)"
            case .checkBlocked(let document): "check blocked in \(document)"
            case .callStep(let body, let document): "step call \(Self.waitsForAnElement(body) ? "waiting" : "direct") in \(document)"
            case .click(let x, let y): "click \(x),\(y)"
            case .press(let key): "press \(key)"
            case .schedule(.step(let timer), let delay): "step timer \(timer) after \(delay)"
            case .findNext(_, let call): "find next \(call)"
            case .loadNext(let url): "load \(url.absoluteString)"
            case .cancel(.evaluation): "cancel later evaluation"
            case .cancel(let timer): "cancel \(timer)"
            case .report(let state): "report \(state)"
            case .tell(let message): "tell \(message)"
            case .explain: "explain"
            case .snapshot: "snapshot"
            case .end(.success(let result)?):
                "succeed \(String(decoding: result.data, as: UTF8.self)) at \(result.url)" + (result.isComplete ? "" : " (cut short)")
            case .end(.failure(let error)?): "fail \(error)"
            case .end(nil): "end cancelled"
            }
        }
    }

    func string(_ text: String) -> JavaScriptReply { .string(Data(text.utf8)) }

    func json(_ text: String) -> JavaScriptReply { .json(Data(text.utf8)) }

    /// Steps run once each, in order, after the commit: after each action the page is asked once it has run what
    /// the action set off; a navigation WebKit was asked for by then is waited for, and the next step runs at once
    /// otherwise; a call the page cut short runs again in the new document; the script runs after the last step.
    @Test func stepsRunOnceInOrderAcrossNavigations() {
        var attempt = machine {
            $0.evaluation.steps = [.click(selector: "#go"), .fill(selector: "#q", value: "x"), .press(key: "Enter", selector: nil)]
        }
        let page = url.absoluteString
        _ = attempt.start(now: .now)
        _ = attempt.handle(.page(.started(url: page)))
        #expect(words(attempt.handle(.page(.committed(url: page, httpStatus: 200)))) == ["install script", "step call waiting in 1"])
        #expect(words(attempt.handle(.page(.finished(url: page)))) == [])
        #expect(
            words(attempt.handle(.stepReply(json(#"{"kind": "clickAt", "x": 10, "y": 20}"#), document: 1)))
                == ["click 10.0,20.0", "step call direct in 1"])
        // The click navigates: WebKit is asked before the page's answer, and the next step waits for the new document.
        _ = attempt.handle(.page(.navigationAsked(url: "http://example.test/next")))
        #expect(words(attempt.handle(.stepReply(json(#"{"kind": "clickCheck", "holds": true}"#), document: 1))) == ["step timer 1 after 1.0 seconds"])
        _ = attempt.handle(.page(.started(url: page + "next")))
        #expect(words(attempt.handle(.stepDue(timer: 1))) == [])
        #expect(words(attempt.handle(.page(.committed(url: page + "next", httpStatus: 200)))) == ["step call waiting in 2"])
        // The page goes away while the fill waits: it is asked again in the next document, not counted as done.
        _ = attempt.handle(.page(.started(url: page + "again")))
        #expect(words(attempt.handle(.stepReply(.failed(PageError(domain: "WebKitJavascriptError", code: 0, message: "gone")), document: 2))) == [])
        #expect(words(attempt.handle(.page(.committed(url: page + "again", httpStatus: 200)))) == ["step call waiting in 3"])
        #expect(words(attempt.handle(.stepReply(json(#"{"kind": "done"}"#), document: 2))) == [], "a stale reply")
        #expect(words(attempt.handle(.stepReply(json(#"{"kind": "done"}"#), document: 3))) == ["step call direct in 3"])
        // A frame's navigation (WebKit does not say whose): given a second to start in the page, then taken for a frame's.
        _ = attempt.handle(.page(.navigationAsked(url: "http://example.test/next")))
        #expect(words(attempt.handle(.stepReply(json(#"{"kind": "clickCheck", "holds": true}"#), document: 3))) == ["step timer 2 after 1.0 seconds"])
        #expect(words(attempt.handle(.stepDue(timer: 2))) == ["step call waiting in 3"], "a key waits for the page to settle")
        #expect(words(attempt.handle(.stepReply(json(#"{"kind": "focused"}"#), document: 3))) == ["press Return", "step call direct in 3"])
        // A fragment: WebKit is asked, and the URL changes in place.
        _ = attempt.handle(.page(.navigationAsked(url: "http://example.test/next")))
        #expect(words(attempt.handle(.stepReply(json(#"{"kind": "clickCheck", "holds": true}"#), document: 3))) == ["step timer 3 after 1.0 seconds"])
        #expect(words(attempt.handle(.page(.urlChanged(page + "#top")))) == ["report executingJavaScript", "evaluate whole in 3"])
        #expect(words(attempt.handle(.stepDue(timer: 3))) == [], "a stale timer")
    }

    /// A step that cannot be done fails the attempt naming the step and the page; a time-out says which step
    /// was running; a script that was running when its document went is not run again.
    @Test func aFailingOrStuckStepNamesItself() {
        let page = url.absoluteString
        var failing = machine { $0.evaluation.steps = [.waitForSelector("#a"), .select(selector: "#s", option: "B")] }
        _ = failing.start(now: .now)
        _ = failing.handle(.page(.committed(url: page, httpStatus: 200)))
        #expect(
            words(failing.handle(.stepReply(json(#"{"kind": "done"}"#), document: 1))) == ["install script", "step call waiting in 1"], "a wait is not checked")
        #expect(
            words(failing.handle(.stepReply(json(#"{"kind": "error", "message": "the element is not a <select> (div)"}"#), document: 1)))
                == [##"fail step 2 (select "B" in "#s") failed: the element is not a <select> (div) (\##(page))"##])

        var stuck = machine { $0.evaluation.steps = [.click(selector: "#never")] }
        _ = stuck.start(now: .now)
        _ = stuck.handle(.page(.committed(url: page, httpStatus: 200)))
        #expect(words(stuck.handle(.timedOut)) == [##"fail timed out after 5 s while running step 1 (click "#never") (\##(page))"##])

        var evaluating = machine { $0.evaluation.steps = [.evaluate(script: "form.submit(); await later"), .click(selector: "#b")] }
        _ = evaluating.start(now: .now)
        _ = evaluating.handle(.page(.committed(url: page, httpStatus: 200)))
        _ = evaluating.handle(.page(.started(url: page + "posted")))
        #expect(
            words(evaluating.handle(.page(.committed(url: page + "posted", httpStatus: 200)))) == ["step call waiting in 2"],
            "the next step, not the script again")
    }

    /// Pagination: each page's result, then the next page; a page that still shows the last page's data is
    /// read again; lists are concatenated; the last page ends the job.
    @Test func pagesAreReadUntilTheLastAndTheirListsJoined() {
        var attempt = machine { $0.evaluation.pagination = Pagination(next: .selector("a.next"), maxPages: 3) }
        let page = url.absoluteString
        _ = attempt.start(now: .now)
        _ = attempt.handle(.page(.committed(url: page, httpStatus: 200)))
        #expect(words(attempt.handle(.reply(string(#"[1,2]"#), document: 1))) == ["cancel later evaluation", "find next 1"])
        #expect(
            words(attempt.handle(.nextFound(json(#"{"kind": "nextPage", "url": "http://127.0.0.1:9/page2"}"#), call: 1)))
                == ["watch 5.0 seconds", "load http://127.0.0.1:9/page2"])
        _ = attempt.handle(.page(.started(url: "http://127.0.0.1:9/page2")))
        #expect(
            words(attempt.handle(.page(.committed(url: "http://127.0.0.1:9/page2", httpStatus: 200))))
                == ["cancel later evaluation", "evaluate whole in 2"])
        #expect(words(attempt.handle(.reply(string(#"[3]"#), document: 2))) == ["cancel later evaluation", "find next 2"])
        #expect(
            words(attempt.handle(.nextFound(json(#"{"kind": "clickAt", "x": 5, "y": 6}"#), call: 2)))
                == ["watch 5.0 seconds", "click 5.0,6.0", "evaluate repeat in 2"])
        #expect(words(attempt.handle(.reply(string(#"[3]"#), document: 2))) == ["evaluate after 0.05 seconds"])
        #expect(
            words(attempt.handle(.reply(string(#"[4]"#), document: 2))) == ["succeed [1,2,3,4] at http://127.0.0.1:9/page2"],
            "the third page is the most")

        var repeating = machine { $0.evaluation.pagination = Pagination(next: .selector("a.next")) }
        _ = repeating.start(now: .now)
        _ = repeating.handle(.page(.committed(url: page, httpStatus: 200)))
        _ = repeating.handle(.reply(string(#"[{"a":1}]"#), document: 1))
        _ = repeating.handle(.nextFound(json(#"{"kind": "clickAt", "x": 1, "y": 1}"#), call: 1))
        #expect(words(repeating.handle(.reply(string(#"[{"a":1}]"#), document: 1))) == ["evaluate after 0.05 seconds"])
        #expect(words(repeating.handle(.timedOut)) == [#"succeed [{"a":1}] at \#(page) (cut short)"#], "a time-out keeps the pages read")

        var failing = machine { $0.evaluation.pagination = Pagination(next: .selector("a.next")) }
        _ = failing.start(now: .now)
        _ = failing.handle(.page(.committed(url: page, httpStatus: 200)))
        _ = failing.handle(.reply(string("[1]"), document: 1))
        _ = failing.handle(.nextFound(json(#"{"kind": "nextPage", "url": "http://127.0.0.1:9/gone"}"#), call: 1))
        #expect(
            words(failing.handle(.page(.committed(url: "http://127.0.0.1:9/gone", httpStatus: 404))))
                == ["succeed [1] at http://127.0.0.1:9/gone (cut short)"], "a next page that cannot be read ends with the pages read")

        var hostile = machine { $0.evaluation.pagination = Pagination(next: .script("document.querySelector('a').href")) }
        _ = hostile.start(now: .now)
        _ = hostile.handle(.page(.committed(url: page, httpStatus: 200)))
        _ = hostile.handle(.reply(string("[1]"), document: 1))
        #expect(
            words(hostile.handle(.nextFound(json(#"{"kind": "nextPage", "url": "file:///etc/passwd"}"#), call: 1)))
                == ["succeed [1] at \(page) (cut short)"], "no local file is loaded; the result holds the page read")
    }

    /// A job that captures takes its answer only once every body its capture wants has come: WebKit reports a fetch's
    /// load before the page's thread has passed its body on (seconds later on a busy page), and the job would end
    /// with the load's record, without its body. The page is read again once the body came.
    @Test func anAnswerWaitsForTheBodiesOfLoadsThatEnded() {
        var attempt = machine {
            $0.capture = WebParserJob.Capture(rules: [.init(url: "/api/", body: .json)])
            $0.evaluation.settle = .zero
        }
        let page = url.absoluteString
        _ = attempt.start(now: .now)
        _ = attempt.handle(.page(.committed(url: page, httpStatus: 200)))
        let read = ScriptRead(id: 1 << 24 | 1, method: "GET", url: "http://example.test/api/list")
        #expect(words(attempt.handle(.page(.traffic(.readStarted(read))))) == ["expire read \(read.id) after 5.0 seconds", "notify busy"])
        _ = attempt.handle(.page(.traffic(.resource(id: 2, .started(accept: "*/*")))))
        _ = attempt.handle(.page(.traffic(.resource(id: 2, .ended(url: read.url)))))
        _ = attempt.handle(.page(.finished(url: page)))
        #expect(words(attempt.handle(.reply(string("[1,2]"), document: 1))) == [], "the body is on its way: the answer waits")
        #expect(words(attempt.handle(.requestExpired(.read(read.id)))) == [], "a body that is due does not expire")
        let response = CapturedResponse(
            kind: .fetch, url: read.url, method: "GET", status: 200, mimeType: "application/json", mainFrame: true, exact: true, size: 5,
            body: Data("[1,2]".utf8), read: read.id)
        #expect(words(attempt.handle(.page(.traffic(.captured(response))))) == ["notify quiet", "evaluate repeat in 1"])
        #expect(words(attempt.handle(.reply(string("[1,2]"), document: 1))) == ["succeed [1,2] at \(page)"])
    }

    /// At the timeout, an answer held for bodies that never came is the result, cut short; a script of the responses
    /// is never given the record of a load whose read is on its way (it has no body yet), and gets the records again
    /// once they changed.
    @Test func aScriptOfTheResponsesNeverSeesALoadWhoseBodyIsOnItsWay() {
        var attempt = machine {
            $0.capture = WebParserJob.Capture(rules: [.init(url: "/api/", body: .json)])
            $0.evaluation.script = "(responses) => responses.map(r => r.body)"
        }
        let page = url.absoluteString
        _ = attempt.start(now: .now)
        _ = attempt.handle(.page(.committed(url: page, httpStatus: 200)))
        _ = attempt.handle(.page(.finished(url: page)))
        let read = ScriptRead(id: 1 << 24 | 1, method: "GET", url: "http://example.test/api/list")
        #expect(words(attempt.handle(.page(.traffic(.readStarted(read))))) == ["expire read \(read.id) after 5.0 seconds", "notify busy"])
        let load = WebParserRequest(
            url: read.url, method: "GET", status: 200, mimeType: "application/json", kind: .other, started: Date(), responded: Date(),
            ended: Date(), failure: nil, requestHeaders: [], responseHeaders: [], bodySize: 5, body: nil, bodyIsExact: false)
        _ = attempt.handle(.page(.traffic(.resource(id: 2, .ended(url: read.url)))))
        #expect(
            words(attempt.handle(.page(.traffic(.recorded(load, bodyWanted: false, mainDocument: false))))) == [],
            "the load's record is not shown while its read is on its way")
        let response = CapturedResponse(
            kind: .fetch, url: read.url, method: "GET", status: 200, mimeType: "application/json", mainFrame: true, exact: true, size: 5,
            body: Data("[1,2]".utf8), read: read.id)
        let actions = attempt.handle(.page(.traffic(.captured(response))))
        #expect(words(actions) == ["give responses", "notify quiet"])
        guard case .notify(let body) = actions.first else { return }
        #expect(body.contains(#""kind":"fetch""#) && !body.contains(#""kind":"other""#), "\(body)")
        _ = attempt.handle(.page(.traffic(.readStarted(ScriptRead(id: 1 << 24 | 2, method: "GET", url: "http://example.test/api/more")))))
        _ = attempt.handle(.page(.traffic(.resource(id: 3, .ended(url: "http://example.test/api/more")))))
        _ = attempt.handle(.reply(string("[[1,2]]"), document: 1))
        #expect(
            words(attempt.handle(.timedOut)) == ["succeed [[1,2]] at \(page) (cut short)"],
            "the answer held for a body that never came is the result at the timeout")
    }

    /// The page is told when its data requests start and stop being in flight, and every evaluation says so too;
    /// what delivers no data does not count, and a request loading too long stops counting.
    @Test func requestsInFlightAreToldToThePage() {
        var attempt = machine()
        _ = attempt.start(now: .now)
        // The attempt's first document request is reported once: a crawl's host counts its delay from it.
        #expect(
            words(attempt.handle(.page(.traffic(.resource(id: 1, .started(accept: "text/html"))))))
                == ["report requested", "expire request 1 after 5.0 seconds", "notify busy"])
        _ = attempt.handle(.page(.committed(url: url.absoluteString, httpStatus: 200)))
        #expect(words(attempt.handle(.page(.traffic(.resource(id: 2, .started(accept: "*/*")))))) == ["expire request 2 after 5.0 seconds"])
        #expect(words(attempt.handle(.page(.traffic(.resource(id: 3, .started(accept: "image/png,image/*;q=0.8")))))) == [])
        #expect(words(attempt.handle(.page(.traffic(.resource(id: 1, .ended(url: url.absoluteString)))))) == [], "request 2 is still in flight")
        #expect(words(attempt.handle(.requestExpired(.load(2)))) == ["notify quiet"])
        #expect(words(attempt.handle(.page(.traffic(.resource(id: 4, .started(accept: "")))))) == ["expire request 4 after 5.0 seconds", "notify busy"])
        guard case .evaluate(let body, _)? = attempt.handle(.reply(.null, document: 1)).first else {
            Issue.record("expected an evaluation")
            return
        }
        #expect(
            body.contains(".slice(200, true, \"withoutScripts\", -1)"),
            "the evaluation says requests are in flight, what can change the document, and the settle time")
    }

    /// A document whose response asks for a refresh, or one the job's user scripts run in, is never taken as still,
    /// and the page learns the refresh's delay; with the page's scripts off, one is still once loaded.
    @Test func whatCanChangeTheDocumentIsToldToThePage() throws {
        func firstBody(refresh: String? = nil, _ change: (inout WebParserJob) -> Void = { _ in }) -> String {
            var attempt = machine(change)
            _ = attempt.start(now: .now)
            let actions = attempt.handle(.page(.committed(url: url.absoluteString, httpStatus: 200, refresh: refresh)))
            guard case .evaluate(let body, _)? = actions.first(where: { if case .evaluate = $0 { true } else { false } }) else {
                Issue.record("expected an evaluation, got \(words(actions))")
                return ""
            }
            return body
        }
        let userScript = try UserScript(source: "// ==UserScript==\n// @name s\n// ==/UserScript==\n", fileName: "s.user.js")
        #expect(firstBody().contains(".slice(200, false, \"withoutScripts\", -1)"))
        #expect(firstBody(refresh: "2; url=/next").contains(".slice(200, false, \"never\", 2000)"))
        #expect(firstBody(refresh: "0.4").contains(".slice(200, false, \"never\", 400)"))
        #expect(firstBody(refresh: "soon").contains(".slice(200, false, \"never\", 0)"), "a delay that is no number refreshes at once")
        #expect(firstBody { $0.page.userScripts = [userScript] }.contains(".slice(200, false, \"never\", -1)"))
        #expect(firstBody { $0.page.pageScripts = false }.contains(".slice(200, false, \"loaded\", -1)"))
    }

    /// After steps that acted, an answer equal to the one just before the first of them must hold longer; one
    /// that changed is taken as it settled.
    @Test func anAnswerTheStepsDidNotChangeMustHoldLonger() {
        func afterClick() -> AttemptMachine {
            var attempt = machine { $0.evaluation.steps = [.click(selector: "#filter")] }
            _ = attempt.start(now: .now)
            #expect(words(attempt.handle(.page(.committed(url: url.absoluteString, httpStatus: 200)))) == ["install script", "step call waiting in 1"])
            #expect(
                words(attempt.handle(.stepReply(json(#"{"kind": "clickAt", "x": 1, "y": 2, "before": "[\"all\"]"}"#), document: 1)))
                    == ["click 1.0,2.0", "step call direct in 1"], "where did the click land?")
            #expect(
                words(attempt.handle(.stepReply(json(#"{"kind": "clickCheck", "holds": true}"#), document: 1)))
                    == ["report executingJavaScript", "evaluate repeat in 1"])
            return attempt
        }
        var unchanged = afterClick()
        guard case .evaluate(let body, _)? = unchanged.handle(.reply(string(#"["all"]"#), document: 1)).first else {
            Issue.record("expected another evaluation")
            return
        }
        #expect(body.contains(".slice(1000, "), "the same answer must now hold for 1 s")
        #expect(words(unchanged.handle(.reply(string(#"["all"]"#), document: 1))) == [#"succeed ["all"] at \#(url.absoluteString)"#])
        var changed = afterClick()
        #expect(words(changed.handle(.reply(string(#"["manga"]"#), document: 1))) == [#"succeed ["manga"] at \#(url.absoluteString)"#])
    }

    /// A click that landed on something else (its element moved before the click arrived) is made again, a few
    /// times; one followed by a new document is not checked.
    @Test func aClickThatMissedItsMovingElementIsMadeAgain() {
        var attempt = machine { $0.evaluation.steps = [.click(selector: "#moving")] }
        _ = attempt.start(now: .now)
        _ = attempt.handle(.page(.committed(url: url.absoluteString, httpStatus: 200)))
        for _ in 1...3 {
            #expect(
                words(attempt.handle(.stepReply(json(#"{"kind": "clickAt", "x": 1, "y": 2}"#), document: 1)))
                    == ["click 1.0,2.0", "step call direct in 1"])
            #expect(
                words(attempt.handle(.stepReply(json(#"{"kind": "clickCheck", "holds": false}"#), document: 1)))
                    == ["step call waiting in 1"], "the click step again")
        }
        _ = attempt.handle(.stepReply(json(#"{"kind": "clickAt", "x": 1, "y": 2}"#), document: 1))
        #expect(
            words(attempt.handle(.stepReply(json(#"{"kind": "clickCheck", "holds": false}"#), document: 1)))
                == [##"fail step 1 (click "#moving") failed: its element moved away from each of 4 clicks before the click arrived (\##(url.absoluteString))"##]
        )

        var navigating = machine { $0.evaluation.steps = [.click(selector: "a")] }
        _ = navigating.start(now: .now)
        _ = navigating.handle(.page(.committed(url: url.absoluteString, httpStatus: 200)))
        _ = navigating.handle(.stepReply(json(#"{"kind": "clickAt", "x": 1, "y": 2}"#), document: 1))
        _ = navigating.handle(.page(.started(url: url.absoluteString + "2")))
        #expect(
            words(navigating.handle(.page(.committed(url: url.absoluteString + "2", httpStatus: 200))))
                == ["report executingJavaScript", "evaluate whole in 2"])
    }

    /// An `if` step's branch runs in its place, named by it; a step still waiting at the time-out says why.
    @Test func anIfStepsBranchRunsInItsPlaceAndAWaitSaysWhy() {
        var attempt = machine {
            $0.evaluation.steps = [.when(.selector("#login"), then: [.click(selector: "#go")], otherwise: []), .waitForSelector("#done")]
        }
        _ = attempt.start(now: .now)
        #expect(words(attempt.handle(.page(.committed(url: url.absoluteString, httpStatus: 200)))) == ["step call direct in 1"])
        #expect(
            words(attempt.handle(.stepReply(json(#"{"kind": "decided", "holds": true}"#), document: 1)))
                == [##"tell stepDecided(step: "1", if "#login", holds: true)"##, "install script", "step call waiting in 1"])
        #expect(
            words(attempt.handle(.stepReply(json(#"{"kind": "waiting", "text": "an element matches, but it is disabled"}"#), document: 1)))
                == ["step call waiting in 1"], "a call that waited a slice is made again")
        #expect(
            words(attempt.handle(.timedOut))
                == [##"fail timed out after 5 s while running step 1.then.1 (click "#go") (\##(url.absoluteString)): an element matches, but it is disabled"##])
    }

    /// `if` steps nest: a branch's own `if` decides in its turn, and its steps are named by their whole place.
    @Test func nestedIfStepsAreNamedByTheirPlace() {
        let inner = Step.when(.script("window.admin"), then: [], otherwise: [.click(selector: "#ask")])
        var attempt = machine { $0.evaluation.steps = [.when(.selector("#login"), then: [inner], otherwise: [])] }
        _ = attempt.start(now: .now)
        _ = attempt.handle(.page(.committed(url: url.absoluteString, httpStatus: 200)))
        #expect(
            words(attempt.handle(.stepReply(json(#"{"kind": "decided", "holds": true}"#), document: 1)))
                == [##"tell stepDecided(step: "1", if "#login", holds: true)"##, "step call direct in 1"])
        #expect(
            words(attempt.handle(.stepReply(json(#"{"kind": "decided", "holds": false}"#), document: 1)))
                == [##"tell stepDecided(step: "1.then.1", if script "window.admin", holds: false)"##, "install script", "step call waiting in 1"])
        #expect(words(attempt.handle(.timedOut)).first?.contains(##"running step 1.then.1.else.1 (click "#ask")"##) == true)
    }

    @Test func aLoadThenEvaluationsUntilTheDataIsThere() {
        var attempt = machine()
        #expect(words(attempt.start(now: .now)) == ["watch 5.0 seconds", "load"])
        #expect(words(attempt.handle(.page(.started(url: url.absoluteString)))) == [])
        #expect(
            words(attempt.handle(.page(.committed(url: url.absoluteString, httpStatus: 200))))
                == ["report executingJavaScript", "evaluate whole in 1"])
        #expect(words(attempt.handle(.page(.finished(url: url.absoluteString)))) == [])
        #expect(words(attempt.handle(.reply(.null, document: 1))) == ["evaluate repeat in 1", "read page error in 1"])
        #expect(words(attempt.handle(.reply(string("\"Title\""), document: 1))) == ["succeed \"Title\" at \(url.absoluteString)"])
        #expect(attempt.hasEnded)
        #expect(words(attempt.handle(.timedOut)) == [], "nothing after the end")
    }

    @Test func aNewDocumentGetsTheWholeScriptAndStaleRepliesAreIgnored() {
        var attempt = machine()
        _ = attempt.start(now: .now)
        _ = attempt.handle(.page(.committed(url: "http://example.test/first", httpStatus: 200)))
        #expect(
            words(attempt.handle(.page(.committed(url: "http://example.test/second", httpStatus: 200))))
                == ["cancel later evaluation", "evaluate whole in 2"])
        #expect(words(attempt.handle(.reply(string("\"old\""), document: 1))) == [])
        #expect(words(attempt.handle(.reply(.json(Data(#"{"kind":"notInstalled"}"#.utf8)), document: 2))) == ["evaluate whole in 2"])
        #expect(
            words(attempt.handle(.reply(.failed(PageError(domain: "WebKitJavascriptError", code: 1, message: "gone")), document: 2)))
                == ["evaluate after 0.05 seconds"])
        #expect(words(attempt.handle(.evaluationDue)) == ["evaluate whole in 2"])
    }

    /// A page whose script sends it elsewhere as it loads (`location.replace`): WebKit is asked to navigate before the
    /// old document's answer arrives, and that answer is not taken; once the page's load starts, none of the old
    /// document's is. A navigation that proves a frame's (its document starts loading, the page's does not) or stays
    /// in the document holds nothing; one nothing follows holds a few answers only.
    @Test func anAnswerOfAPageOnItsWayElsewhereIsNotTaken() {
        let first = "http://example.test/moving"
        var moving = machine()
        _ = moving.start(now: .now)
        _ = moving.handle(.page(.committed(url: first, httpStatus: 200)))
        _ = moving.handle(.page(.navigationAsked(url: "http://example.test/new-home")))
        #expect(words(moving.handle(.reply(string("\"Moving\""), document: 1))) == ["evaluate after 0.05 seconds"])
        _ = moving.handle(.page(.started(url: first)))
        #expect(words(moving.handle(.evaluationDue)) == ["evaluate repeat in 1"])
        #expect(words(moving.handle(.reply(string("\"Moving\""), document: 1))) == ["evaluate after 0.05 seconds"], "still the old document")
        _ = moving.handle(.page(.committed(url: "http://example.test/new-home", httpStatus: 200)))
        #expect(words(moving.handle(.reply(string("\"New home\""), document: 2))) == ["succeed \"New home\" at http://example.test/new-home"])

        var framed = machine()
        _ = framed.start(now: .now)
        _ = framed.handle(.page(.committed(url: first, httpStatus: 200)))
        _ = framed.handle(.page(.navigationAsked(url: "http://ads.example/frame")))
        _ = framed.handle(.page(.traffic(.resource(id: 7, .started(accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")))))
        #expect(words(framed.handle(.reply(string("\"Title\""), document: 1))) == ["succeed \"Title\" at \(first)"], "a frame's navigation")

        var fragment = machine()
        _ = fragment.start(now: .now)
        _ = fragment.handle(.page(.committed(url: first, httpStatus: 200)))
        _ = fragment.handle(.page(.navigationAsked(url: first + "#top")))
        _ = fragment.handle(.page(.urlChanged(first + "#top")))
        #expect(words(fragment.handle(.reply(string("\"Title\""), document: 1))) == ["succeed \"Title\" at \(first)#top"])

        // A load that starts and ends without a document (a form posted to a 204): the page stays where it was.
        var stays = machine()
        _ = stays.start(now: .now)
        _ = stays.handle(.page(.committed(url: first, httpStatus: 200)))
        _ = stays.handle(.page(.started(url: first)))
        #expect(words(stays.handle(.reply(string("\"Title\""), document: 1))) == ["evaluate after 0.05 seconds"])
        let cancelled = PageLoadFailure(url: first, error: PageError(domain: "WebKitNetworkError", code: 302, message: "cancelled"))
        _ = stays.handle(.page(.failed(cancelled)))
        _ = stays.handle(.page(.finished(url: first)))
        for _ in 0..<AttemptLoad.leavingReads { _ = stays.handle(.reply(string("\"Title\""), document: 1)) }
        #expect(words(stays.handle(.reply(string("\"Title\""), document: 1))) == ["succeed \"Title\" at \(first)"])

        var nothing = machine()
        _ = nothing.start(now: .now)
        _ = nothing.handle(.page(.committed(url: first, httpStatus: 200)))
        _ = nothing.handle(.page(.navigationAsked(url: "http://example.test/cancelled")))
        for _ in 0..<AttemptLoad.leavingReads {
            #expect(words(nothing.handle(.reply(string("\"Title\""), document: 1))) == ["evaluate after 0.05 seconds"])
        }
        #expect(words(nothing.handle(.reply(string("\"Title\""), document: 1))) == ["succeed \"Title\" at \(first)"])
    }

    /// A 403, 429 or 503 document is read once it has loaded: a page of bot protection fails as blocked, an ordinary
    /// error page with its status; an answer for a document gone is ignored.
    @Test func anErrorPageThatMayBeBotProtectionIsReadOnceLoaded() {
        let address = url.absoluteString
        for (service, expected) in [
            ("Cloudflare challenge", "fail blocked by bot protection (Cloudflare challenge, 503) (\(address))"),
            (nil, "fail HTTP status 503 (\(address))")
        ] {
            var attempt = machine()
            _ = attempt.start(now: .now)
            #expect(words(attempt.handle(.page(.committed(url: address, httpStatus: 503, retryAfter: "7")))) == [])
            #expect(words(attempt.handle(.page(.finished(url: address)))) == ["check blocked in 1"])
            #expect(words(attempt.handle(.blockChecked(service, document: 0))) == [], "another document's answer")
            #expect(words(attempt.handle(.blockChecked(service, document: 1))) == [expected])
        }
        // A challenge that passed and loaded the page in its place: the page is judged on its own.
        var passed = machine()
        _ = passed.start(now: .now)
        _ = passed.handle(.page(.committed(url: address, httpStatus: 403)))
        _ = passed.handle(.page(.committed(url: address, httpStatus: 200)))
        #expect(!words(passed.handle(.page(.finished(url: address)))).contains("check blocked in 1"))
        // An error page that never finishes loading fails with its status at the timeout.
        var stalled = machine()
        _ = stalled.start(now: .now)
        _ = stalled.handle(.page(.committed(url: address, httpStatus: 503)))
        #expect(words(stalled.handle(.timedOut)) == ["fail HTTP status 503 (\(address))"])
    }

    @Test func failuresEndTheAttemptWithTheirKind() {
        var notFound = machine()
        _ = notFound.start(now: .now)
        #expect(
            words(notFound.handle(.page(.committed(url: url.absoluteString, httpStatus: 404))))
                == ["fail HTTP status 404 (\(url.absoluteString))"])
        var superseded = machine()
        _ = superseded.start(now: .now)
        let replaced = PageLoadFailure(url: url.absoluteString, error: PageError(domain: "WebKitNetworkError", code: 302, message: "replaced"))
        #expect(words(superseded.handle(.page(.failed(replaced)))) == [], "a newer navigation took over")
        #expect(words(superseded.handle(.page(.finished(url: url.absoluteString)))) == [])
        var crashed = machine()
        _ = crashed.start(now: .now)
        #expect(words(crashed.handle(.page(.processTerminated(.crashed)))).first?.contains("before the page arrived") == true)
        var unsupported = machine { $0.url = URL(string: "ftp://example.test/")! }
        #expect(words(unsupported.start(now: .now)).first?.hasPrefix("fail unsupported URL") == true)
    }

    /// The page's own last uncaught error is read while the script waits, and a time-out says it: a page that
    /// crashed before it rendered its data is most often why the data never came.
    @Test func theTimeoutSaysThePagesLastError() {
        var attempt = machine()
        _ = attempt.start(now: .now)
        _ = attempt.handle(.page(.committed(url: url.absoluteString, httpStatus: 200)))
        _ = attempt.handle(.page(.finished(url: url.absoluteString)))
        #expect(words(attempt.handle(.reply(.null, document: 1))) == ["evaluate repeat in 1", "read page error in 1"])
        _ = attempt.handle(.pageErrorRead("Uncaught TypeError: x is undefined (http://example.test/app.js:3:9)", document: 1))
        _ = attempt.handle(.pageErrorRead(nil, document: 1))
        _ = attempt.handle(.pageErrorRead("Uncaught Error: from an older document", document: 0))
        guard case .end(.failure(let error)?)? = attempt.handle(.timedOut).last else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.pageError == "Uncaught TypeError: x is undefined (http://example.test/app.js:3:9)")
        #expect("\(error)".hasSuffix("; the page's last error: Uncaught TypeError: x is undefined (http://example.test/app.js:3:9)"), "\(error)")
    }

    @Test func theTimeoutSaysThePhaseAndWhatTheScriptLastAnswered() {
        var attempt = machine()
        _ = attempt.start(now: .now)
        _ = attempt.handle(.page(.committed(url: url.absoluteString, httpStatus: 200)))
        _ = attempt.handle(.page(.finished(url: url.absoluteString)))
        _ = attempt.handle(.reply(.json(Data(#"{"kind":"pending","text":"waitFor returned false"}"#.utf8)), document: 1))
        #expect(
            words(attempt.handle(.timedOut))
                == ["fail timed out after 5 s while waiting for the script's result (\(url.absoluteString)): waitFor returned false"])
    }

    @Test func emittedValuesAreCollectedUntilDoneOrTheTimeout() {
        let script = try! UserScript(source: "// ==UserScript==\n// @name s\n// ==/UserScript==\nwebparse.emit(1)", fileName: "s.user.js")
        var done = machine {
            $0.evaluation.script = ""; $0.page.userScripts = [script]; $0.evaluation.collect = .emitted
        }
        _ = done.start(now: .now)
        #expect(words(done.handle(.page(.committed(url: url.absoluteString, httpStatus: 200)))) == [], "no script to evaluate")
        #expect(words(done.handle(.page(.message(.emitted(Data("1".utf8)))))) == ["tell emitted(json: 1 bytes)"])
        #expect(words(done.handle(.page(.message(.done)))) == ["succeed [1] at \(url.absoluteString)"])
        var cut = machine {
            $0.evaluation.script = ""; $0.page.userScripts = [script]; $0.evaluation.collect = .emitted
        }
        _ = cut.start(now: .now)
        _ = cut.handle(.page(.message(.emitted(Data("2".utf8)))))
        #expect(words(cut.handle(.timedOut)) == ["succeed [2] at \(url.absoluteString) (cut short)"])
    }

    @Test func aScreenshotIsWrittenBeforeTheAttemptSucceeds() {
        var attempt = machine { $0.evaluation.screenshot = .init(file: URL(fileURLWithPath: "/tmp/shot.png")) }
        _ = attempt.start(now: .now)
        _ = attempt.handle(.page(.committed(url: url.absoluteString, httpStatus: 200)))
        #expect(words(attempt.handle(.reply(string("1"), document: 1))) == ["cancel later evaluation", "snapshot"])
        #expect(words(attempt.handle(.reply(string("2"), document: 1))) == [], "the result is already there")
        #expect(words(attempt.snapshotWritten(error: "disk full")) == ["fail screenshot failed: disk full (\(url.absoluteString))"])
    }

    /// While the screenshot is written, the result is there: a time-out or the process's end is the
    /// screenshot's failure, said so, and the page's other events change nothing.
    @Test func aScreenshotThatIsNotWrittenFailsAsTheScreenshot() {
        func finishing() -> AttemptMachine {
            var attempt = machine { $0.evaluation.screenshot = .init(file: URL(fileURLWithPath: "/tmp/shot.png")) }
            _ = attempt.start(now: .now)
            _ = attempt.handle(.page(.committed(url: url.absoluteString, httpStatus: 200)))
            _ = attempt.handle(.reply(string("1"), document: 1))
            return attempt
        }
        var late = finishing()
        #expect(words(late.handle(.page(.committed(url: url.absoluteString, httpStatus: 500)))) == [])
        #expect(
            words(late.handle(.timedOut))
                == ["fail screenshot failed: WebKit did not write it within the job's timeout (5 s) (\(url.absoluteString))"])
        var crashed = finishing()
        #expect(words(crashed.handle(.page(.processTerminated(.crashed)))) == ["fail the page's web process crashed (\(url.absoluteString))"])
        #expect(crashed.hasEnded)
    }

    /// An attempt whose deadline passed before its page came ends before it loads.
    @Test func anAttemptPastItsDeadlineEndsBeforeItLoads() {
        let now = ContinuousClock.now
        var late = machine(deadline: now)
        #expect(words(late.start(now: now)) == ["fail timed out after 5 s while waiting for the server (\(url.absoluteString))"])
        #expect(words(late.start(now: now)) == [])
    }

    /// The first watch ends at the attempt's deadline when that comes before the job's timeout; the next page's
    /// load gets the whole timeout.
    @Test func theFirstWatchEndsByTheDeadline() {
        let now = ContinuousClock.now
        var early = machine(deadline: now + .seconds(2))
        #expect(words(early.start(now: now)) == ["watch 2.0 seconds", "load"])
        var later = machine(deadline: now + .seconds(60))
        #expect(words(later.start(now: now)) == ["watch 5.0 seconds", "load"])
    }

    @Test func cancellationEndsTheAttemptOnce() {
        var attempt = machine()
        _ = attempt.start(now: .now)
        #expect(words(attempt.cancel()) == ["end cancelled"])
        #expect(words(attempt.cancel()) == [])
    }
}
