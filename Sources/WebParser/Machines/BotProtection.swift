import FoundationEssentials

/// Pages of bot protection services (a challenge, a CAPTCHA, a block page) told from ordinary error pages: a main
/// document that came with one of `statuses` is read once it has loaded, in webparse's own script world, for the
/// marks each service's pages carry (their scripts' and frames' hosts, their titles, their elements). A page with
/// none of them is an ordinary HTTP error.
enum BotProtection {
    /// The statuses bot protection answers with: 403 (a block or a challenge), 405 (AWS WAF's CAPTCHA), 429 (too many
    /// requests) and 503 (a challenge while the check runs).
    static let statuses: Set<Int> = [403, 405, 429, 503]

    /// The body of a call whose value is the name of the service whose page the document is, or null
    /// (`bot_protection.js`).
    static let checkBody = "return " + ScriptSource.call(ScriptSource.botProtection) + ";\n"
}
