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

/// An item's date becomes the entry's RFC 3339 time, whatever ISO 8601 form it has; other text is not a date.
struct AtomFeedDateTests {
    func updated(_ date: String) -> String? {
        AtomFeed.entries(
            for: [Data(#"{"title": "x", "url": "https://a.example/", "date": "\#(date)"}"#.utf8)], job: "job", key: "url", mapping: nil,
            now: Date(timeIntervalSince1970: 0)
        ).first?.updated
    }

    @Test func datesAreReadInEachISOForm() {
        #expect(updated("2024-01-02T03:04:05Z") == "2024-01-02T03:04:05Z")
        #expect(updated("2024-01-02T03:04:05+02:00") == "2024-01-02T01:04:05Z")
        #expect(updated("2024-01-02T03:04:05.250Z") == "2024-01-02T03:04:05Z")
        #expect(updated("2024-01-02") == "2024-01-02T00:00:00Z")
        #expect(updated("yesterday") == "1970-01-01T00:00:00Z")
    }

    /// Entry ids are name-based UUIDs: version 8, RFC 4122 variant, lowercase hexadecimal.
    @Test func idsAreNameBasedUUIDs() throws {
        let id = try #require(
            AtomFeed.entries(for: [Data(#"{"url": "https://a.example/"}"#.utf8)], job: "job", key: "url", mapping: nil, now: Date()).first?.id)
        #expect(id.wholeMatch(of: /urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil, "\(id)")
    }
}
