import Foundation
import Testing
@testable import WebParser

/// The one format webparse's code in a page answers in, read by one decoder.
@Suite struct PageAnswerTests {
    func read(_ text: String) -> (answer: PageAnswer, token: String?)? {
        PageAnswer.read(Data(text.utf8))
    }

    @Test func everyKindIsReadWithItsFields() {
        #expect(read(#"{"kind":"pending","text":"waitFor returned false"}"#)?.answer == .pending("waitFor returned false"))
        #expect(
            read(#"{"kind":"error","message":"E","line":3,"column":9}"#)?.answer
                == .error(PageAnswer.Failure(message: "E", line: 3, column: 9)))
        #expect(read(#"{"kind":"clickAt","x":1.5,"y":2,"before":"[1]"}"#)?.answer == .clickAt(x: 1.5, y: 2, before: "[1]"))
        #expect(read(#"{"kind":"done","acted":false}"#)?.answer == .done(acted: false, before: nil))
        #expect(read(#"{"kind":"done"}"#)?.answer == .done(acted: true, before: nil))
        #expect(
            read(#"{"kind":"focused","waited":312,"waitedFor":"a timer due in 300 ms"}"#)?.answer
                == .focused(before: nil, waited: StepWait(duration: .milliseconds(312), what: "a timer due in 300 ms")))
        #expect(read(#"{"kind":"decided","holds":true}"#)?.answer == .decided(true))
        #expect(read(#"{"kind":"nextPage","url":"http://a.test/2"}"#)?.answer == .nextPage("http://a.test/2"))
        let console = read(#"{"kind":"console","token":"t","level":"warn","text":"x","source":{"url":"u","line":1,"column":2}}"#)
        #expect(console?.answer == .console(level: "warn", text: "x", source: SourceLocation(url: "u", line: 1, column: 2)))
        #expect(console?.token == "t")
    }

    /// What is not an answer of webparse's own code is none: an unknown kind, a kind without its fields, the
    /// old shapes, not JSON.
    @Test func anythingElseIsNoAnswer() {
        for text in [
            #"{"kind":"launch"}"#, #"{"kind":"clickAt","x":1}"#, #"{"kind":"pending"}"#, #"{"pending":"x"}"#,
            #"{"at":[1,2]}"#, "[]", "not JSON", #"{"kind":7}"#
        ] {
            #expect(read(text) == nil, "\(text)")
        }
    }
}
