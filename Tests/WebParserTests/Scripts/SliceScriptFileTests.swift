import Foundation
import Testing

@testable import WebParser

/// `slice.js`, as `PageScript` sends it, on small documents: when an answer is final, and what a pending or a wrong
/// one says.
struct SliceScriptFileTests {
    /// `script`'s calls in `page`, one slice after another as the attempt makes them, until one is not empty (10 at
    /// most), read as the attempt reads them.
    func outcome(of script: PageScript, in page: ScriptPage, settle: Duration, busy: Bool = false) throws -> PageScript.Outcome {
        var installed = false
        for _ in 0..<10 {
            let body = script.body(installed: installed, busy: busy, document: .unknown, settle: settle)
            let outcome = script.outcome(of: .json(Data(try page.call(body).utf8)))
            guard case .empty = outcome else { return outcome }
            installed = true
        }
        return script.outcome(of: .json(Data(try page.call(script.body(installed: true, busy: busy, document: .unknown, settle: settle)).utf8)))
    }

    /// A page whose list grows one item every 100 ms up to `count`, as a page that renders its data in chunks.
    func growingList(_ count: Int) throws -> ScriptPage {
        try ScriptPage(
            """
            page.show(page.element("ul", { id: "chapters" }));
            let added = 0;
            const add = () => { document.querySelector("#chapters").append(page.element("li", {}, ["Chapter " + ++added])); if (added < \(count)) setTimeout(add, 100); };
            setTimeout(add, 100);
            """)
    }

    let chapters = "Array.from(document.querySelectorAll('#chapters li'), (li) => li.textContent)"

    @Test func aListThatGrowsItemByItemIsTakenOnceItHasStayedTheSame() throws {
        let page = try growingList(8)
        let outcome = try outcome(of: PageScript(chapters), in: page, settle: .milliseconds(300))
        let expected = "[" + (1...8).map { "\"Chapter \($0)\"" }.joined(separator: ",") + "]"
        #expect(outcome == .value(Data(expected.utf8), settledBy: "the answer stayed the same for 300 ms", title: ""))
    }

    @Test func settleZeroTakesTheFirstAnswer() throws {
        let page = try growingList(8)
        let outcome = try outcome(of: PageScript(chapters), in: page, settle: .zero)
        #expect(outcome == .value(Data("[\"Chapter 1\"]".utf8), settledBy: "settle 0: the first answer", title: ""))
    }

    @Test func aPendingAnswerSaysWhatItWaitsFor() throws {
        let page = try growingList(3)
        let script = PageScript(chapters)
        let reply = try page.call(script.body(installed: false, busy: false, document: .unknown, settle: .milliseconds(300)))
        #expect(
            script.outcome(of: .json(Data(reply.utf8)))
                == .empty(
                    lastAnswer: "the script returned [\"Chapter 1\",\"Chapter 2\",\"Chapter 3\"], which had not stayed the same for 300 ms "
                        + "(a page that never settles, such as a clock: \"settle\": 0 takes the first answer)"))
        let empty = try ScriptPage()
        #expect(
            script.outcome(of: .json(Data(try empty.call(script.body(installed: false, busy: false, document: .unknown, settle: .zero)).utf8)))
                == .empty(lastAnswer: "the script returned [] (empty; an empty answer is the result only once waitFor or waitForSelector holds)"))
        let busy = try ScriptPage("page.show(page.element(\"p\", {}, [\"ready\"]));")
        let paragraph = PageScript("document.querySelector('p').textContent")
        let held = try busy.call(paragraph.body(installed: false, busy: true, document: .unknown, settle: .milliseconds(300)))
        #expect(paragraph.outcome(of: .json(Data(held.utf8))) == .empty(lastAnswer: "the script returned \"ready\", but the page was still loading data"))
    }

    @Test func aWaitMakesTheAnswerFinalAtOnceEmptyIncluded() throws {
        let page = try ScriptPage("setTimeout(() => page.show(page.element(\"div\", { id: \"app\" })), 200);")
        let script = PageScript("document.querySelectorAll('#app li').length || null", waitForSelector: "#app")
        let first = script.outcome(of: .json(Data(try page.call(script.body(installed: false, busy: false, document: .unknown, settle: .seconds(1))).utf8)))
        #expect(first == .value(Data("null".utf8), settledBy: "waitFor held", title: ""))
        #expect(try Int(page.evaluate("page.now"))! < 300, "final once the element came, not after the settle time")
        let never = try ScriptPage()
        let waiting = PageScript("1", waitForSelector: "#app li")
        let reply = try never.call(waiting.body(installed: false, busy: false, document: .unknown, settle: .zero))
        #expect(waiting.outcome(of: .json(Data(reply.utf8))) == .empty(lastAnswer: "no element matched waitForSelector \"#app li\""))
    }

    @Test func aValueThatIsNotDataIsRefusedWithWhatToDoInstead() throws {
        let page = try ScriptPage("page.show(page.element(\"li\", {}, [\"one\"]));")
        let element = try outcome(of: PageScript("document.querySelector('li')"), in: page, settle: .zero)
        #expect(element == .failure(.unsupportedResult("a DOM element (<li>); return its textContent or attributes instead")))
        let map = try outcome(of: PageScript("({ items: new Map() })"), in: page, settle: .zero)
        #expect(map == .failure(.unsupportedResult("a Map; convert it, e.g. Object.fromEntries(map) or Array.from(set), at key \"items\"")))
    }

    @Test func aScriptThatThrowsOnceTheDocumentIsParsedFails() throws {
        let page = try ScriptPage()
        let outcome = try outcome(of: PageScript("document.querySelector('#missing').textContent"), in: page, settle: .zero)
        guard case .failure(.scriptFailed(let failure)) = outcome else { Issue.record("not a failure: \(outcome)"); return }
        #expect(failure.message.hasPrefix("TypeError"))
    }

    @Test func anAnswerIsFinalOnceNothingIsPending() throws {
        let script = PageScript("document.querySelector('p')?.textContent ?? null")
        let page = try ScriptPage(
            """
            page.show(page.element("p", {}, ["ready"]));
            window[\(JavaScriptSyntax.literal(script.quiet.workKey))] = () => page.now < 200
              ? { busy: "a timer due in " + (200 - page.now) + " ms", dueIn: 200 - page.now, never: null }
              : { busy: null, dueIn: null, never: null };
            """)
        let outcome = try outcome(of: script, in: page, settle: .seconds(5))
        #expect(outcome == .value(Data("\"ready\"".utf8), settledBy: "nothing pending, after a timer due in 200 ms", title: ""))
        #expect(try Int(page.evaluate("page.now"))! < 1000)
    }

    /// webparse stops counting the page's own document as a request once it is shown: the page counts it until its
    /// parser has read the whole of it, so that an answer taken from the first half of a document is not final.
    @Test func aDocumentStillBeingReadCountsAsLoadingData() throws {
        let script = PageScript("document.querySelector('p')?.textContent ?? null")
        let page = try ScriptPage(
            """
            document.readyState = "loading";
            page.show(page.element("p", {}, ["ready"]));
            window[\(JavaScriptSyntax.literal(script.quiet.workKey))] = () => ({ busy: null, dueIn: null, never: null });
            setTimeout(() => { document.readyState = "interactive"; document.dispatchEvent(new Event("readystatechange")); }, 400);
            """)
        let first = try page.call(script.body(installed: false, busy: false, document: .unknown, settle: .zero))
        #expect(script.outcome(of: .json(Data(first.utf8))) == .value(Data("\"ready\"".utf8), settledBy: "settle 0: the first answer", title: ""))
        let outcome = try outcome(of: script, in: page, settle: .milliseconds(300))
        #expect(outcome == .value(Data("\"ready\"".utf8), settledBy: "nothing pending", title: ""))
        #expect(try Int(page.evaluate("page.now"))! >= 400, "final once the document was read, not before")
    }

    @Test func deferredScriptsStillToRunCountAsLoadingData() throws {
        let script = PageScript("document.querySelector('p')?.textContent ?? null")
        let page = try ScriptPage(
            """
            document.readyState = "interactive";
            const timing = { domInteractive: 1, domContentLoadedEventEnd: 0 };
            performance.getEntriesByType = (type) => type === "navigation" ? [timing] : [];
            page.show(page.element("p", {}, ["ready"]));
            window[\(JavaScriptSyntax.literal(script.quiet.workKey))] = () => ({ busy: null, dueIn: null, never: null });
            setTimeout(() => { document.dispatchEvent(new Event("DOMContentLoaded")); timing.domContentLoadedEventEnd = page.now; }, 400);
            """)
        let outcome = try outcome(of: script, in: page, settle: .milliseconds(300))
        #expect(outcome == .value(Data("\"ready\"".utf8), settledBy: "nothing pending", title: ""))
        #expect(try Int(page.evaluate("page.now"))! >= 400, "final once DOMContentLoaded ended, not at interactive")
    }

    @Test func anEmptyListThatCountsHoldsLonger() throws {
        let page = try ScriptPage("page.show(page.element(\"ul\"));")
        let script = PageScript("Array.from(document.querySelectorAll('li'))", emptyIsAnswer: true)
        let outcome = try outcome(of: script, in: page, settle: .milliseconds(100))
        #expect(outcome == .value(Data("[]".utf8), settledBy: "the answer stayed the same for 1000 ms", title: ""))
    }

    @Test func linksAreReadBesideTheResult() throws {
        let page = try ScriptPage(
            """
            page.show(page.element("a", { class: "chapter", href: "/c/1" }), page.element("a", { class: "chapter", href: "http://other.test/c/2" }),
              page.element("a", { class: "chapter", href: "/c/1" }));
            """)
        let script = PageScript("document.querySelectorAll('a').length", links: "a.chapter")
        let outcome = try outcome(of: script, in: page, settle: .zero)
        #expect(
            outcome
                == .value(
                    Data("{\"result\":3,\"links\":[\"http://example.test/c/1\",\"http://other.test/c/2\"]}".utf8),
                    settledBy: "settle 0: the first answer; its links once the answer stayed the same for 200 ms", title: ""))
    }

    /// A crawl's links are read once the page is complete, whatever made the answer final: with `settle: 0` the first
    /// answer is the result, and the links its script writes 300 ms later are read too.
    @Test func linksAreReadOnceThePageIsCompleteWhateverTheSettle() throws {
        for waitFor in [nil, "document.title"] {
            let script = PageScript("document.title", waitFor: waitFor, links: "a")
            let page = try ScriptPage(
                """
                document.title = "home";
                page.show(page.element("a", { href: "/first" }));
                setTimeout(() => page.show(page.element("a", { href: "/later" })), 300);
                window[\(JavaScriptSyntax.literal(script.quiet.workKey))] = () => page.now < 300
                  ? { busy: "a timer due in " + (300 - page.now) + " ms", dueIn: 300 - page.now, never: null }
                  : { busy: null, dueIn: null, never: null };
                """)
            let outcome = try outcome(of: script, in: page, settle: .zero)
            let first = waitFor == nil ? "settle 0: the first answer" : "waitFor held"
            #expect(
                outcome
                    == .value(
                        Data("{\"result\":\"home\",\"links\":[\"http://example.test/first\",\"http://example.test/later\"]}".utf8),
                        settledBy: "\(first); its links once nothing pending, after a timer due in 300 ms", title: "home"))
        }
    }
}
