import Testing
@testable import WebParser

/// The languages pages get from the environment's locale: language tags, never POSIX locale names.
@Suite struct SystemLocaleTests {
    @Test func posixLocaleNamesBecomeLanguageTags() {
        #expect(SystemLocale.tag(forLocale: "de_DE.UTF-8") == "de-DE")
        #expect(SystemLocale.tag(forLocale: "fr_CA") == "fr-CA")
        #expect(SystemLocale.tag(forLocale: "sr_RS@latin") == "sr-Latn-RS")
        #expect(SystemLocale.tag(forLocale: "sr_RS.UTF-8@cyrillic") == "sr-Cyrl-RS")
        #expect(SystemLocale.tag(forLocale: "ca_ES.UTF-8@valencia") == "ca-ES-valencia")
        #expect(SystemLocale.tag(forLocale: "de_DE@euro") == "de-DE")
        #expect(SystemLocale.tag(forLocale: "es_419.UTF-8") == "es-419")
        #expect(SystemLocale.tag(forLocale: "ast_ES") == "ast-ES")
        #expect(SystemLocale.tag(forLocale: "pt") == "pt")
        for notALanguage in ["C", "C.UTF-8", "C.utf8", "POSIX", "", "en_", "de-DE_x", "1_2", "english_US"] {
            #expect(SystemLocale.tag(forLocale: notALanguage) == nil, "\(notALanguage)")
        }
    }

    @Test func theEnvironmentIsReadAsTheCLibraryReadsIt() {
        #expect(SystemLocale(environment: ["LANG": "C.UTF-8"]).languages == ["en-US"])
        #expect(SystemLocale(environment: ["LANG": "C"]).languages == ["en-US"])
        #expect(SystemLocale(environment: ["LANG": "POSIX"]).languages == ["en-US"])
        #expect(SystemLocale(environment: [:]).languages == ["en-US"])
        #expect(SystemLocale(environment: ["LANG": "de_DE.UTF-8"]).languages == ["de-DE"])
        #expect(SystemLocale(environment: ["LANG": "de_DE.UTF-8", "LC_ALL": "fr_FR.UTF-8"]).languages == ["fr-FR"])
        #expect(SystemLocale(environment: ["LANG": "de_DE.UTF-8", "LC_MESSAGES": "it_IT.UTF-8"]).languages == ["it-IT"])
        #expect(SystemLocale(environment: ["LANG": "de_DE.UTF-8", "LC_ALL": ""]).languages == ["de-DE"], "an empty variable is unset")
        #expect(SystemLocale(environment: ["LANG": "de_AT.UTF-8", "LANGUAGE": "de_AT:de:en"]).languages == ["de-AT", "de", "en"])
        #expect(SystemLocale(environment: ["LANG": "C.UTF-8", "LANGUAGE": "fr"]).languages == ["en-US"], "LANGUAGE counts only beside a real locale")
    }

    @Test func aLocaleTheCLibraryLacksIsSaid() {
        #expect(SystemLocale(environment: ["LANG": "C.UTF-8"]).missing.isEmpty)
        #expect(SystemLocale(environment: [:]).missing.isEmpty)
        let missing = SystemLocale(environment: ["LANG": "xx_YY.UTF-8", "LC_TIME": "C"])
        #expect(missing.missing == ["xx_YY.UTF-8"], "\(missing.missing)")
        #expect(missing.languages == ["xx-YY"], "the locale's language all the same")
        #expect(SystemLocale(environment: ["LANG": "xx_YY.UTF-8", "LC_ALL": "C.UTF-8"]).missing.isEmpty, "LC_ALL decides every category")
    }
}
