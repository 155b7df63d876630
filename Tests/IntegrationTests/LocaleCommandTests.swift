import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A page's language under the locales users' machines have: Debian's containers (`C.UTF-8`), cron's bare
/// environment, a locale that was never generated, `LC_ALL` over `LANG`. Pages get a language tag always, the
/// server the same one, and stderr no warning of GTK's.
@Suite struct LocaleCommandTests: CommandLineTest {
    /// What the page and the server saw: navigator.language, navigator.languages, Intl's default locale, and the
    /// request's Accept-Language.
    struct Seen: Equatable, CustomStringConvertible {
        var language: String
        var languages: [String]
        var intl: String
        var acceptLanguage: String
        var description: String { "\(language) \(languages) \(intl) \(acceptLanguage)" }
    }

    func run(_ locale: [String: String?], _ arguments: [String] = []) async throws -> (seen: Seen, stderr: String) {
        let server = try TestHTTPServer(routes: ["/": .respond(body: "<p>hi</p>")])
        let script = "[navigator.language, navigator.languages, Intl.DateTimeFormat().resolvedOptions().locale]"
        var environment = headless
        for name in ["LANG", "LC_ALL", "LC_MESSAGES", "LC_CTYPE", "LANGUAGE"] { environment[name] = .some(nil) }
        for (name, value) in locale { environment[name] = value }
        let outcome = try await webparse.run(["eval", server.url("/").absoluteString, script, "--settle", "0"] + arguments, environment: environment)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let values = try #require(try JSONSerialization.jsonObject(with: outcome.stdout) as? [Any], "\(outcome.stdoutText) \(outcome.stderr)")
        let accept = server.requests(for: "/").first?.headers["accept-language"] ?? ""
        return (
            Seen(
                language: values[0] as? String ?? "", languages: values[1] as? [String] ?? [], intl: values[2] as? String ?? "",
                acceptLanguage: accept.split(separator: ",").first.map(String.init) ?? ""),
            outcome.stderr
        )
    }

    static func isInstalled(_ locale: String) -> Bool {
        guard let handle = newlocale(1 << LC_CTYPE, locale, nil) else { return false }
        freelocale(handle)
        return true
    }

    @Test func posixLocalesGivePagesAmericanEnglish() async throws {
        let english = Seen(language: "en-US", languages: ["en-US"], intl: "en-US", acceptLanguage: "en-US")
        for locale: [String: String?] in [["LANG": "C.UTF-8"], ["LANG": "C"], ["LANG": "POSIX"], [:], ["LC_ALL": "C.UTF-8", "LANG": "de_DE.UTF-8"]] {
            let (seen, stderr) = try await run(locale)
            #expect(seen == english, "\(locale)")
            #expect(!stderr.contains("Locale not supported"), "\(stderr)")
        }
    }

    @Test func aLocaleGivesPagesItsLanguageInstalledOrNot() async throws {
        let (german, stderr) = try await run(["LANG": "de_DE.UTF-8"], ["-v"])
        #expect(german == Seen(language: "de-DE", languages: ["de-DE"], intl: "de-DE", acceptLanguage: "de-DE"))
        #expect(!stderr.contains("Locale not supported") && !stderr.contains("Gtk-WARNING"), "\(stderr)")
        if !Self.isInstalled("de_DE.UTF-8") {
            #expect(stderr.contains("the locale de_DE.UTF-8 is not installed"), "with -v the missing locale is said once: \(stderr)")
            #expect(stderr.components(separatedBy: "is not installed").count == 2, "\(stderr)")
            let quiet = try await run(["LANG": "de_DE.UTF-8"])
            #expect(!quiet.stderr.contains("not installed") && !quiet.stderr.contains("Locale"), "\(quiet.stderr)")
        }
        let (french, _) = try await run(["LANG": "de_DE.UTF-8", "LC_ALL": "fr_FR.UTF-8"])
        #expect(french == Seen(language: "fr-FR", languages: ["fr-FR"], intl: "fr-FR", acceptLanguage: "fr-FR"), "LC_ALL overrides LANG")
        let (serbian, _) = try await run(["LANG": "sr_RS@latin"])
        #expect(serbian.language == "sr-Latn-RS" && serbian.acceptLanguage == "sr-Latn-RS", "\(serbian)")
        let (chosen, _) = try await run(["LANG": "de_DE.UTF-8"], ["--language", "it-IT,it"])
        #expect(chosen.language == "it-IT" && chosen.acceptLanguage == "it-IT", "--language overrides the locale: \(chosen)")
    }
}
