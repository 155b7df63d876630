import FoundationEssentials

/// Pages of bot protection services (a challenge, a CAPTCHA, a block page) told from ordinary error pages: a main
/// document that came with one of `statuses` is read once it has loaded, in webparse's own script world, for the
/// marks each service's pages carry (their scripts' and frames' hosts, their titles, their elements). A page with
/// none of them is an ordinary HTTP error.
enum BotProtection {
    /// The statuses bot protection answers with: 403 (a block or a challenge), 405 (AWS WAF's CAPTCHA), 429 (too many
    /// requests) and 503 (a challenge while the check runs).
    static let statuses: Set<Int> = [403, 405, 429, 503]

    /// The body of a call whose value is the name of the service whose page the document is, or null.
    static let checkBody = """
        const title = (document.title || "").trim();
        const text = document.documentElement ? document.documentElement.outerHTML.slice(0, 500000) : "";
        const sources = Array.from(document.querySelectorAll("script[src], iframe[src]"), (element) => element.src);
        const loads = (pattern) => sources.some((source) => pattern.test(source));
        if (/^just a moment\\.\\.\\.$/i.test(title) || /^attention required! \\| cloudflare$/i.test(title)
          || loads(/\\/cdn-cgi\\/challenge-platform\\//) || document.querySelector("#challenge-form, #cf-challenge-running, .cf-browser-verification"))
          return "Cloudflare challenge";
        if (loads(/(^|\\.)captcha-delivery\\.com\\//) || text.includes("geo.captcha-delivery.com")) return "DataDome";
        if (document.querySelector("#px-captcha") || loads(/(px-cdn\\.net|px-cloud\\.net|perimeterx\\.net)\\//)) return "PerimeterX (HUMAN)";
        if (loads(/\\.awswaf\\.com\\//) || text.includes("AwsWafIntegration")) return "AWS WAF";
        if (/^access denied$/i.test(title) && (text.includes("errors.edgesuite.net") || /Reference&#32;#|Reference #\\d/.test(text))) return "Akamai";
        if (loads(/(^|\\.)hcaptcha\\.com\\//)) return "hCaptcha challenge";
        if (loads(/(google\\.com|recaptcha\\.net)\\/recaptcha\\//)) return "reCAPTCHA challenge";
        return null;

        """
}
