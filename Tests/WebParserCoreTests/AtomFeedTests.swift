import Foundation
import Testing
@testable import WebParserCore

/// Feed entries made from items, without a page: what a hostile page's items cannot do to a feed reader.
struct AtomFeedTests {
    func entry(_ item: String) -> AtomFeed.Entry? {
        AtomFeed.entries(for: [Data(item.utf8)], job: "job", key: "url", mapping: nil, now: Date(timeIntervalSince1970: 0)).first
    }

    /// A `javascript:` or `data:` link is left out; text that closes CDATA or tags, and control characters, come
    /// out as text; the same key gives the same id, another key another.
    @Test func hostileItemsStayText() throws {
        #expect(entry(#"{"title": "x", "url": "javascript:alert(1)"}"#)?.link == nil)
        #expect(entry(#"{"title": "x", "url": "data:text/html,<script>"}"#)?.link == nil)
        #expect(entry(#"{"title": "x", "url": "https://comics.example/1"}"#)?.link == "https://comics.example/1")
        let hostile = try #require(entry(#"{"title": "]]></title><script>alert(1)</script>\u0001", "url": "https://a.example/"}"#))
        let xml = String(decoding: AtomFeed.document(title: "t", path: "/f", entries: [hostile], version: "1", now: Date()), as: UTF8.self)
        #expect(xml.contains("<title>]]&gt;&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>"))
        #expect(!xml.contains("\u{1}"))
        #expect(entry(#"{"title": "a", "url": "https://a.example/"}"#)?.id == entry(#"{"title": "b", "url": "https://a.example/"}"#)?.id)
        #expect(entry(#"{"title": "a", "url": "https://a.example/"}"#)?.id != entry(#"{"title": "a", "url": "https://b.example/"}"#)?.id)
        #expect(AtomFeed.isWebparseFeed(Data(xml.utf8)))
        #expect(!AtomFeed.isWebparseFeed(Data("<?xml version=\"1.0\"?><feed/>".utf8)))
    }
}
