// The name of the bot protection service whose page (a challenge, a CAPTCHA, a block page) the document is, read
// from the marks each service's pages carry: their scripts' and frames' hosts, their titles, their elements; null
// for an ordinary page.
() => {
  const title = (document.title || "").trim();
  const text = document.documentElement ? document.documentElement.outerHTML.slice(0, 500000) : "";
  const sources = Array.from(document.querySelectorAll("script[src], iframe[src]"), (element) => element.src);
  const loads = (pattern) => sources.some((source) => pattern.test(source));
  if (/^just a moment\.\.\.$/i.test(title) || /^attention required! \| cloudflare$/i.test(title)
    || loads(/\/cdn-cgi\/challenge-platform\//) || document.querySelector("#challenge-form, #cf-challenge-running, .cf-browser-verification"))
    return "Cloudflare challenge";
  if (loads(/(^|\.)captcha-delivery\.com\//) || text.includes("geo.captcha-delivery.com")) return "DataDome";
  if (document.querySelector("#px-captcha") || loads(/(px-cdn\.net|px-cloud\.net|perimeterx\.net)\//)) return "PerimeterX (HUMAN)";
  if (loads(/\.awswaf\.com\//) || text.includes("AwsWafIntegration")) return "AWS WAF";
  if (/^access denied$/i.test(title) && (text.includes("errors.edgesuite.net") || /Reference&#32;#|Reference #\d/.test(text))) return "Akamai";
  if (loads(/(^|\.)hcaptcha\.com\//)) return "hCaptcha challenge";
  if (loads(/(google\.com|recaptcha\.net)\/recaptcha\//)) return "reCAPTCHA challenge";
  return null;
}
