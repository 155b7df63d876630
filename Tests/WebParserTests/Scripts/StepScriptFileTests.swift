import Foundation
import Testing

@testable import WebParser

/// `step.js`, as `StepScript` calls it, on small documents: what each step does to the page and answers.
struct StepScriptFileTests {
    /// The quiet state of the job's page, the same in every call as in an attempt.
    let quiet = PageQuiet()

    /// `step`'s call in `page` (requests in flight or not), read as the attempt reads it.
    func run(_ step: Step, in page: ScriptPage, settle: Duration = .zero, busy: Bool = false) throws -> StepScript.Reply {
        let preamble = quiet.preamble(busy: busy, document: .unknown)
        let body = try #require(StepScript.body(of: step, settle: settle, preamble: preamble))
        return StepScript.meaning(of: .json(Data(try page.call(body).utf8)))
    }

    @Test func fillTypesIntoTheFieldAsAUserWould() throws {
        let page = try ScriptPage(
            """
            page.show(page.element("form", {}, [page.element("input", { id: "q", name: "q" })]));
            page.events = [];
            for (const type of ["input", "change"]) document.querySelector("#q").addEventListener(type, (event) => page.events.push(event.type));
            """)
        #expect(try run(.fill(selector: "#q", value: "comics"), in: page) == .done)
        #expect(try page.evaluate("document.querySelector('#q').value") == "\"comics\"")
        #expect(try page.evaluate("page.events") == "[\"input\",\"change\"]")
        #expect(try page.evaluate("document.activeElement.id") == "\"q\"")
    }

    @Test func aButtonARenderAddsLaterIsClickedOnceItIsThere() throws {
        let page = try ScriptPage(
            """
            page.show(page.element("ul", {}, [page.element("li", {}, ["one"])]));
            setTimeout(() => page.show(page.element("button", { class: "more" }, ["More"])), 300);
            """)
        #expect(try run(.click(selector: "button.more"), in: page) == .clickAt(x: 60, y: 20))
        #expect(try page.evaluate("page.now") == "300")
    }

    @Test func aStepThatFindsNothingSaysWhatItWaitsFor() throws {
        let page = try ScriptPage("page.show(page.element(\"p\", {}, [\"empty\"]));")
        #expect(try run(.click(selector: "#more"), in: page) == .waiting("no element matches \"#more\""))
        #expect(try run(.click(selector: "p##"), in: page) == .failed("not a valid CSS selector: p##"))
    }

    @Test func aCoveredOrDisabledElementIsNotClicked() throws {
        let covered = try ScriptPage(
            """
            page.show(page.element("button", { id: "go" }, ["Go"]), page.element("div", { id: "consent", class: "banner" }, ["Accept"]));
            """)
        #expect(try run(.click(selector: "#go"), in: covered) == .waiting("an element matches, but it is covered by div#consent.banner"))
        let disabled = try ScriptPage("page.show(page.element(\"button\", { id: \"go\", disabled: \"\" }, [\"Go\"]));")
        #expect(try run(.click(selector: "#go"), in: disabled) == .waiting("an element matches, but it is disabled"))
        let hidden = try ScriptPage(
            "page.show(page.element(\"div\", { id: \"menu\" }, [page.element(\"a\", { id: \"go\" }, [\"Go\"])])); document.querySelector(\"#menu\").style.display = \"none\";"
        )
        #expect(try run(.click(selector: "#go"), in: hidden) == .waiting("an element matches, but it is not visible (display: none on div#menu)"))
    }

    @Test func aStepWaitsForThePageToBeQuietForItsSettleTime() throws {
        let page = try ScriptPage("page.show(page.element(\"input\", { id: \"q\" }));")
        #expect(
            try run(.fill(selector: "#q", value: "x"), in: page, settle: .milliseconds(300), busy: true)
                == .waiting("the element is ready, but the page was still loading data"))
        #expect(try page.evaluate("document.querySelector('#q').value") == "\"\"")
        #expect(try run(.fill(selector: "#q", value: "x"), in: page, settle: .milliseconds(300), busy: false) == .done)
    }

    /// A page whose extension says a timer is due until `until` ms (never, with nil: something always pending).
    func scheduling(until: Int?) throws -> ScriptPage {
        try ScriptPage(
            """
            page.show(page.element("button", { id: "more" }, ["More"]));
            window[\(JavaScriptSyntax.literal(quiet.workKey))] = () => \(until.map { "page.now >= \($0)" } ?? "false")
              ? { busy: null, dueIn: 0, never: null } : { busy: "a timer due soon", dueIn: 50, never: null };
            """)
    }

    @Test func anActionWaitsForWhatThePageScheduledAndSaysWhat() throws {
        let page = try scheduling(until: 500)
        let body = try #require(
            StepScript.body(of: .click(selector: "#more"), settle: .milliseconds(200), preamble: quiet.preamble(busy: false, document: .unknown)))
        let reply = JavaScriptReply.json(Data(try page.call(body).utf8))
        #expect(StepScript.meaning(of: reply) == .clickAt(x: 60, y: 20))
        #expect(try Int(page.evaluate("page.now"))! >= 500)
        let waited = try #require(StepScript.effect(of: reply).waited)
        // From when the element was ready on a page quiet for the settle time, 200 ms after the page began.
        #expect(waited.what == "a timer due soon" && waited.duration == .milliseconds(300))
        // Nothing pending any more: the next step acts at once, and says nothing.
        let next = JavaScriptReply.json(Data(try page.call(body).utf8))
        #expect(StepScript.meaning(of: next) == .clickAt(x: 60, y: 20) && StepScript.effect(of: next).waited == nil)
    }

    @Test func workThatNeverEndsHoldsAnActionForTheLookAheadAtMostAndSettleZeroNotAtAll() throws {
        let forever = try scheduling(until: nil)
        var reply = try run(.click(selector: "#more"), in: forever, settle: .milliseconds(200))
        for _ in 0..<10 where reply == .waiting("the element is ready, but the page was waiting for a timer due soon") {
            reply = try run(.click(selector: "#more"), in: forever, settle: .milliseconds(200))
        }
        #expect(reply == .clickAt(x: 60, y: 20))
        let now = try Int(forever.evaluate("page.now"))!
        #expect(now >= 3200 && now < 3500, "acted after \(now) ms: the settle time, then the look-ahead")
        let atOnce = try scheduling(until: nil)
        #expect(try run(.click(selector: "#more"), in: atOnce) == .clickAt(x: 60, y: 20))
        #expect(try atOnce.evaluate("page.now") == "0")
    }

    @Test func checkAndSelectActOnlyWhenTheyChangeSomething() throws {
        let page = try ScriptPage(
            """
            page.show(page.element("input", { id: "terms", type: "checkbox", checked: "" }),
              page.element("select", { id: "sort" }, [page.element("option", { value: "1" }, ["Newest"]), page.element("option", { value: "2" }, [" Oldest "])]));
            """)
        let check = try page.call(
            try #require(
                StepScript.body(of: .check(selector: "#terms", checked: true), settle: .zero, preamble: quiet.preamble(busy: false, document: .unknown))))
        #expect(StepScript.effect(of: .json(Data(check.utf8))).acted == false)
        #expect(try run(.select(selector: "#sort", option: "Oldest"), in: page) == .done)
        #expect(try page.evaluate("document.querySelector('#sort').value") == "\"2\"")
        #expect(try run(.select(selector: "#sort", option: "Cheapest"), in: page) == .waiting("the <select> has no option \"Cheapest\" yet"))
    }

    @Test func anIfStepDecidesOnceItsAnswerHasStayedTheSame() throws {
        let page = try ScriptPage("setTimeout(() => page.show(page.element(\"div\", { id: \"cookie-banner\" })), 100);")
        let banner = Step.when(.selector("#cookie-banner"), then: [], otherwise: [])
        #expect(try run(banner, in: page, settle: .milliseconds(300)) == .decided(true))
        #expect(try Int(page.evaluate("page.now"))! >= 400)
        let script = Step.when(.script("() => document.querySelectorAll('div').length > 1"), then: [], otherwise: [])
        #expect(try run(script, in: page, settle: .milliseconds(200)) == .decided(false))
        let flapping = try ScriptPage(
            """
            const toggle = () => { const found = document.querySelector("#popup"); if (found) found.remove(); else page.show(page.element("div", { id: "popup" })); setTimeout(toggle, 100); };
            toggle();
            """)
        #expect(
            try run(.when(.selector("#popup"), then: [], otherwise: []), in: flapping, settle: .milliseconds(200))
                == .waiting("the condition had not given the same answer for 200 ms"))
    }

    @Test func anEvaluateStepRunsTheJobsCodeAndSaysWhyItFailed() throws {
        let page = try ScriptPage()
        #expect(try run(.evaluate(script: "window.opened = true;"), in: page) == .done)
        #expect(try page.evaluate("window.opened") == "true")
        #expect(try run(.evaluate(script: "throw new Error('the menu is gone');"), in: page) == .failed("the menu is gone"))
    }

    @Test func theNextPageIsALinksURLAButtonsPointOrNone() throws {
        let page = try ScriptPage(
            "page.show(page.element(\"a\", { class: \"next\", href: \"/list?page=2\" }, [\"Next\"]), page.element(\"button\", { id: \"more\" }, [\"More\"]));")
        func next(_ next: Pagination.Next) throws -> StepScript.Reply {
            StepScript.meaning(of: .json(Data(try page.call(StepScript.nextPage(next)).utf8)))
        }
        #expect(try next(.selector("a.next")) == .load(URL(string: "http://example.test/list?page=2")!))
        #expect(try next(.selector("#more")) == .clickAt(x: 60, y: 20))
        #expect(try next(.selector("a.previous")) == .lastPage)
        #expect(try next(.script("document.querySelector('a.next').getAttribute('href')")) == .load(URL(string: "http://example.test/list?page=2")!))
        #expect(try next(.script("null")) == .lastPage)
    }

    @Test func theClickCheckSaysWhetherTheClickLandedOnItsElement() throws {
        let page = try ScriptPage(
            """
            page.show(page.element("button", { id: "go" }, ["Go"]), page.element("p", { id: "other" }));
            document.querySelector("#other").rect = { left: 10, top: 100, width: 100, height: 20 };
            """)
        let check = StepScript.actionCheck(preamble: quiet.preamble(busy: false, document: .unknown))
        #expect(try run(.click(selector: "#go"), in: page) == .clickAt(x: 60, y: 20))
        try page.evaluate("setTimeout(() => dispatchEvent(Object.assign(new Event('click'), { target: document.querySelector('#go') })), 50);")
        #expect(StepScript.meaning(of: .json(Data(try page.call(check).utf8))) == .clickLanded(true))
        #expect(try run(.click(selector: "#go"), in: page) == .clickAt(x: 60, y: 20))
        try page.evaluate("setTimeout(() => dispatchEvent(Object.assign(new Event('click'), { target: document.querySelector('#other') })), 50);")
        #expect(StepScript.meaning(of: .json(Data(try page.call(check).utf8))) == .clickLanded(false))
    }

    /// A press and a release that reached two elements (the page re-rendered between them, on a busy machine) bring
    /// no click: the click missed, and is made again; a click the page stopped before webparse saw it counts as
    /// landed.
    @Test func aReleaseWithoutAClickIsAClickThatMissed() throws {
        let page = try ScriptPage("page.show(page.element(\"button\", { id: \"go\" }, [\"Go\"]));")
        let check = StepScript.actionCheck(preamble: quiet.preamble(busy: false, document: .unknown))
        #expect(try run(.click(selector: "#go"), in: page) == .clickAt(x: 60, y: 20))
        try page.evaluate("setTimeout(() => dispatchEvent(new Event('mouseup')), 50);")
        #expect(StepScript.meaning(of: .json(Data(try page.call(check).utf8))) == .clickLanded(false))
        #expect(try Int(page.evaluate("page.now"))! < 500, "without waiting the whole second")
        #expect(try run(.click(selector: "#go"), in: page) == .clickAt(x: 60, y: 20))
        #expect(StepScript.meaning(of: .json(Data(try page.call(check).utf8))) == .clickLanded(true), "nothing came: stopped by the page")
    }
}
