import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The locale the environment names (`LC_ALL`, `LC_MESSAGES`, `LANG`, and `LANGUAGE`'s list), and the languages
/// pages get from it unless a job names its own: BCP 47 tags, never a POSIX locale name. WebKit would pass
/// `C.UTF-8`, the default of Debian's container images, to pages as the language `"C"`, which `Intl` rejects.
public struct SystemLocale: Sendable, Equatable {
    /// The locale name the environment gives for messages (`de_DE.UTF-8`); "" when it names none.
    public let name: String
    /// The language tags pages get, best first (`["de-DE"]`); `["en-US"]` for the C or POSIX locale, or none.
    public let languages: [String]
    /// The locale names the environment gives that the C library does not have (the locale was never generated:
    /// `locale -a` lists those it has); empty when it has them all.
    public let missing: [String]

    /// The locale of this process's environment as it started.
    public static let current = SystemLocale(environment: ProcessInfo.processInfo.environment)

    /// The locale `environment` names, as the C library reads it: `LC_ALL` before `LC_MESSAGES` before `LANG`, and
    /// GNU's `LANGUAGE` list when that locale is not C.
    public init(environment: [String: String]) {
        let value = { (name: String) in environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        name = value("LC_ALL") ?? value("LC_MESSAGES") ?? value("LANG") ?? ""
        let preferred = Self.tag(forLocale: name).map { [$0] } ?? []
        let listed = preferred.isEmpty ? [] : (value("LANGUAGE") ?? "").split(separator: ":").compactMap { Self.tag(forLocale: String($0)) }
        var languages: [String] = []
        for tag in (listed.isEmpty ? preferred : listed) where !languages.contains(tag) { languages.append(tag) }
        self.languages = languages.isEmpty ? [Self.defaultLanguage] : languages
        let categories = ["LC_CTYPE", "LC_NUMERIC", "LC_TIME", "LC_COLLATE", "LC_MONETARY", "LC_MESSAGES"]
        let names = value("LC_ALL").map { [$0] } ?? categories.compactMap { value($0) ?? value("LANG") }
        var missing: [String] = []
        for name in names where !missing.contains(name) && !Self.isInstalled(name) { missing.append(name) }
        self.missing = missing
    }

    /// The language of the C and POSIX locales, as browsers report it.
    public static let defaultLanguage = "en-US"

    /// The BCP 47 tag of the POSIX locale name `locale` (`language[_TERRITORY][.codeset][@modifier]`): `de_DE.UTF-8`
    /// is `de-DE`, `sr_RS@latin` is `sr-Latn-RS`, `ca_ES@valencia` is `ca-ES-valencia`; nil for the C and POSIX
    /// locales and for what is no locale name.
    public static func tag(forLocale locale: String) -> String? {
        var rest = Substring(locale)
        var modifier: Substring?
        if let at = rest.firstIndex(of: "@") {
            modifier = rest[rest.index(after: at)...]
            rest = rest[..<at]
        }
        if let dot = rest.firstIndex(of: ".") { rest = rest[..<dot] }
        let parts = rest.split(separator: "_", maxSplits: 1, omittingEmptySubsequences: false)
        let language = parts[0].lowercased()
        guard (2...3).contains(language.count), language.allSatisfy({ $0.isASCII && $0.isLetter }), language != "c" else { return nil }
        var tag = [language]
        if let modifier, let script = scripts[modifier.lowercased()] { tag.append(script) }
        if parts.count == 2 {
            let territory = parts[1].uppercased()
            guard territory.count == 2 && territory.allSatisfy({ $0.isASCII && $0.isLetter }) || territory.count == 3 && territory.allSatisfy(\.isNumber)
            else { return nil }
            tag.append(territory)
        }
        if let modifier, variants.contains(modifier.lowercased()) { tag.append(modifier.lowercased()) }
        return tag.joined(separator: "-")
    }

    /// The scripts glibc's locale modifiers name, as ISO 15924 codes.
    private static let scripts = ["latin": "Latn", "cyrillic": "Cyrl", "devanagari": "Deva", "arabic": "Arab", "hebrew": "Hebr"]
    /// The modifiers that are BCP 47 variants as they are (`@euro` and the like are only the codeset's business).
    private static let variants: Set<String> = ["valencia"]

    /// Whether the C library has the locale `name` (the C and POSIX locales always).
    private static func isInstalled(_ name: String) -> Bool {
        guard let locale = newlocale(1 << LC_CTYPE, name, nil) else { return false }
        freelocale(locale)
        return true
    }
}
