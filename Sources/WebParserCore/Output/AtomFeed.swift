import FoundationEssentials
import WebParser

/// Atom 1.0 feeds of the items `--state` reports as new (`run --feed`): the entries each job keeps in its state,
/// newest first, and the feed file made of them.
package enum AtomFeed {
    /// One entry, as a job's state keeps it between runs.
    package struct Entry: Codable, Equatable, Sendable {
        /// `urn:uuid:` and a UUID made from the job's name and the item's identity: the same item keeps its id.
        package var id: String
        package var title: String
        package var link: String?
        package var summary: String?
        /// RFC 3339.
        package var updated: String
        /// The item as JSON.
        package var content: String
        /// When webparse first reported the item (RFC 3339): the feed's order.
        package var found: String
    }

    /// The generator's URI, by which a feed webparse wrote is told from other files.
    static let generator = "https://github.com/webparse/webparse"

    /// The entries for `items` (JSON, as the job wrote them), new in this run of the job `job`, at `now`:
    /// fields by `mapping` (or the usual names), ids from each item's identity under `key`. Items `removed` from the
    /// job's list are entries of their own, titled "Removed: …" and dated `now`.
    package static func entries(
        for items: [Data], job: String, key: String?, mapping: Tracking.FeedFields?, now: Date, removed: Bool = false
    ) -> [Entry] {
        let time = now.formatted(.iso8601)
        return items.compactMap { data -> Entry? in
            guard let item = try? JSONNode.parse(Array(data), rules: ChangeTracker.rules) else { return nil }
            let (identity, _) = ChangeTracker.identity(of: item, key: key)
            let members: [(key: String, value: JSONNode)] =
                if case .object(let members) = item.value { members } else { [] }
            // A name is a member's, or a dot-separated path into the item (`detail.summary`, a followed page's).
            func text(_ names: [String]) -> String? {
                for name in names {
                    var value = members.first(where: { $0.key == name })?.value
                    if value == nil, name.contains(".") {
                        value = item
                        for part in name.split(separator: ".") { value = value?[String(part)] }
                    }
                    if let value, let text = plain(value) { return text }
                }
                return nil
            }
            let json = String(decoding: data, as: UTF8.self)
            let title =
                (removed ? "Removed: " : "")
                + (text(mapping?.title.map { [$0] } ?? ["title", "name"]) ?? (json.count > 100 ? String(json.prefix(97)) + "..." : json))
            let updated = removed ? time : text(mapping?.updated.map { [$0] } ?? ["updated", "date"]).flatMap(normalisedDate) ?? time
            // Only web links: a feed reader may follow a javascript: or data: link where it shows the entry.
            let link = text(mapping?.link.map { [$0] } ?? ["url", "link", "href"]).flatMap { link in
                ["http", "https"].contains(URL(string: link)?.scheme?.lowercased() ?? "") ? link : nil
            }
            return Entry(
                id: "urn:uuid:" + uuid(job + "\n" + identity + (removed ? "\nremoved \(time)" : "")), title: title, link: link,
                summary: text(mapping?.summary.map { [$0] } ?? ["summary", "description"]), updated: updated, content: json, found: time)
        }
    }

    /// `entries` (in the order the job gave them) before `older`, newest first, kept to `size`.
    package static func merge(_ entries: [Entry], before older: [Entry], size: Int) -> [Entry] {
        Array((entries + older).prefix(size))
    }

    /// The entries of several jobs' feeds (each newest first) as one, newest first, kept to `size`.
    package static func combined(_ feeds: [[Entry]], size: Int) -> [Entry] {
        let all = feeds.enumerated().flatMap { job, entries in entries.enumerated().map { (job: job, index: $0.offset, entry: $0.element) } }
        return Array(
            all.sorted { ($0.entry.found, $1.job, $1.index) > ($1.entry.found, $0.job, $0.index) }.map(\.entry).prefix(size))
    }

    /// The feed of `entries` (newest first) titled `title`, for the file at `path`, as written at `now`.
    package static func document(title: String, path: String, entries: [Entry], version: String, now: Date) -> Data {
        var xml = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n"
        xml += "  <id>urn:uuid:\(uuid("feed\n" + path))</id>\n  <title>\(escaped(title))</title>\n"
        xml += "  <updated>\(entries.map(\.updated).max() ?? now.formatted(.iso8601))</updated>\n"
        xml += "  <author><name>webparse</name></author>\n"
        xml += "  <generator uri=\"\(generator)\" version=\"\(escaped(version))\">webparse</generator>\n"
        for entry in entries {
            xml += "  <entry>\n    <id>\(entry.id)</id>\n    <title>\(escaped(entry.title))</title>\n    <updated>\(entry.updated)</updated>\n"
            if let link = entry.link { xml += "    <link rel=\"alternate\" href=\"\(escaped(link))\"/>\n" }
            if let summary = entry.summary { xml += "    <summary>\(escaped(summary))</summary>\n" }
            xml += "    <content type=\"text\">\(escaped(entry.content))</content>\n  </entry>\n"
        }
        return Data((xml + "</feed>\n").utf8)
    }

    /// Whether `data` is a feed webparse wrote (which it may replace).
    package static func isWebparseFeed(_ data: Data) -> Bool {
        let head = String(decoding: data.prefix(4096), as: UTF8.self)
        return head.hasPrefix("<?xml") && head.contains("<feed xmlns=\"http://www.w3.org/2005/Atom\">")
            && head.contains("<generator uri=\"\(generator)\"")
    }

    /// A string, number or boolean as text; nil for other values and empty strings.
    private static func plain(_ node: JSONNode) -> String? {
        switch node.value {
        case .string(let text): text.isEmpty ? nil : text
        case .number(let number): JSONNode.written(number)
        case .bool(let flag): String(flag)
        default: nil
        }
    }

    /// `text` as RFC 3339 when it is an ISO 8601 date or date and time; nil otherwise.
    private static func normalisedDate(_ text: String) -> String? {
        let styles = [Date.ISO8601FormatStyle(), Date.ISO8601FormatStyle(includingFractionalSeconds: true), Date.ISO8601FormatStyle().year().month().day()]
        guard let date = styles.lazy.compactMap({ try? $0.parse(text) }).first else { return nil }
        return date.formatted(.iso8601)
    }

    /// A name-based UUID (version 8, from SHA-256) of `name`.
    private static func uuid(_ name: String) -> String {
        var bytes = Array(SHA256.digest(name.utf8).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { $0.hexDigits(2) }.joined()
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return parts.joined(separator: "-")
    }

    /// `text` with XML's special characters escaped, and the characters XML 1.0 cannot hold dropped.
    private static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value >= 0x20 && !(0xFFFE...0xFFFF).contains(scalar.value) { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}
