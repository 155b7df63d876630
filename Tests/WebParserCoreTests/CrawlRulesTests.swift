import Foundation
import Testing
import WebParserCore

/// How a crawl reads robots.txt and which URLs are the same page.
@Suite struct CrawlRulesTests {
    @Test func robotsRulesAreReadAsGoogleReadsThem() {
        let rules = RobotsRules(
            """
            # comics site
            User-agent: Googlebot
            Disallow: /

            User-agent: *
            Disallow: /private/
            Disallow: /*.pdf$
            Allow: /private/open
            Disallow: /search?
            Disallow:

            Sitemap: https://comics.example/sitemap.xml
            """)
        func allows(_ path: String) -> Bool { rules.allows(URL(string: "https://comics.example" + path)!) }
        #expect(allows("/"))
        #expect(allows("/ch/12"))
        #expect(!allows("/private/"))
        #expect(!allows("/private/secret"))
        #expect(allows("/private/open/page"), "the longer Allow wins")
        #expect(!allows("/files/ch12.pdf"))
        #expect(allows("/files/ch12.pdf?x=1"), "$ anchors the end")
        #expect(!allows("/search?q=one"))
        #expect(allows("/search"))
        let webparse = RobotsRules("User-agent: webparse\nDisallow: /\n\nUser-agent: *\nAllow: /\n")
        #expect(!webparse.allows(URL(string: "https://a.example/x")!), "the group that names webparse is the one")
        #expect(RobotsRules("").allows(URL(string: "https://a.example/x")!))
        #expect(RobotsRules("User-agent: other\nDisallow: /\n").allows(URL(string: "https://a.example/x")!), "no group for webparse or *")
        let tie = RobotsRules("User-agent: *\nDisallow: /page\nAllow: /page\n")
        #expect(tie.allows(URL(string: "https://a.example/page")!), "Allow wins a tie")
    }

    @Test func urlsAreOnePageWhateverTheirSpelling() {
        func normal(_ text: String, base: String? = nil) -> String? {
            CrawlURL.normalized(text, base: base.flatMap { URL(string: $0) })?.absoluteString
        }
        #expect(normal("HTTP://Comics.Example:80/ch/12#top") == "http://comics.example/ch/12")
        #expect(normal("https://comics.example:443") == "https://comics.example/")
        #expect(normal("https://comics.example:8443/a") == "https://comics.example:8443/a")
        #expect(normal("../ch/12?p=2", base: "https://comics.example/archive/list/") == "https://comics.example/archive/ch/12?p=2")
        #expect(normal("/docs/../c", base: "https://comics.example/") == "https://comics.example/c")
        #expect(normal("mailto:a@b.example") == nil)
        #expect(normal("javascript:void(0)") == nil)
        #expect(normal("file:///etc/passwd") == nil)
        #expect(CrawlURL.site(of: URL(string: "https://Comics.Example:8443/x")!) == "https://comics.example:8443")
    }
}
