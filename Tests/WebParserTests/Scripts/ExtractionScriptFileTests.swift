import Foundation
import Testing

@testable import WebParser

/// `extraction.js`, as `ExtractionScript` calls it, on a small list of chapters.
struct ExtractionScriptFileTests {
    let page: ScriptPage

    init() throws {
        page = try ScriptPage(
            """
            const chapter = (title, href, number) => page.element("li", { class: "chapter" }, [
              page.element("a", { href }, [title]), page.element("span", { class: "n" }, [number])]);
            page.show(page.element("h1", {}, ["  One   Piece "]), page.element("ul", {}, [
              chapter("Romance Dawn", "/c/1", "Ch. 1,001"), chapter("", "/c/2", "2"), chapter("The Straw Hat", "c/3", "no number")]));
            """)
    }

    func read(_ extraction: Extraction) throws -> String {
        try page.call("return " + ExtractionScript.source(for: extraction) + ";")
    }

    @Test func itemsAreReadWithTheirFieldsAndAnItemWithoutARequiredOneIsMarked() throws {
        let extraction = Extraction(
            items: "li.chapter",
            fields: [
                .init(name: "title", value: .read(.init(selector: "a")), required: true),
                .init(name: "url", value: .read(.init(selector: "a", attribute: "href"))),
                .init(name: "number", value: .read(.init(selector: ".n", form: .number)))
            ])
        let json = try read(extraction)
        #expect(
            json == "[{\"title\":\"Romance Dawn\",\"url\":\"http://example.test/c/1\",\"number\":1001},null,"
                + "{\"title\":\"The Straw Hat\",\"url\":\"http://example.test/c/3\",\"number\":null}]")
        let (kept, leftOut) = ExtractionScript.leavingOut(Data(json.utf8))
        #expect(leftOut == 1)
        #expect(String(decoding: kept, as: UTF8.self).hasPrefix("[{\"title\":\"Romance Dawn\""))
    }

    @Test func oneObjectIsNullUntilOneOfItsFieldsIsThere() throws {
        let title = Extraction(items: nil, fields: [.init(name: "title", value: .read(.init(selector: "h1")))])
        #expect(try read(title) == "{\"title\":\"One Piece\"}")
        let missing = Extraction(items: nil, fields: [.init(name: "author", value: .read(.init(selector: ".author")))])
        #expect(try read(missing) == "null")
        let nested = Extraction(
            items: nil,
            fields: [
                .init(name: "count", value: .read(.init(selector: "li", all: true))),
                .init(name: "chapters", value: .items(Extraction(items: "li", fields: [.init(name: "n", value: .read(.init(selector: ".n")), required: true)])))
            ])
        #expect(
            try read(nested)
                == "{\"count\":[\"Romance DawnCh. 1,001\",\"2\",\"The Straw Hatno number\"],\"chapters\":[{\"n\":\"Ch. 1,001\"},{\"n\":\"2\"},{\"n\":\"no number\"}]}"
        )
    }
}
