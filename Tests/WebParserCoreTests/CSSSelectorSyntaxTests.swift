import Testing
@testable import WebParserCore

/// Selectors are checked as CSS before any page loads: what browsers accept passes, what they refuse does not.
@Suite struct CSSSelectorSyntaxTests {
    @Test(arguments: [
        "#login", "form#login", "form[action='/login']", "form[action=\"/login\" i]", "input[name=q]", "a[href^=https]",
        "ul.search li a", "div > p + p ~ span", "*", "*.x", ".a.b.c", "li:nth-child(2n + 1)", "li:nth-of-type(odd)",
        "a:not(.hidden, [aria-hidden=true])", "div:has(> img)", ":is(h1, h2) span", "p::first-line", "input:checked",
        "#\\31 23", ".\\@media", "[data-x]", "[ data-x = 'y' s ]", "table tbody tr:first-child td:last-child",
        "h1,h2 , h3", "-webkit-any", "--custom", "é.classe", "a:where(.x)", "button[type=submit]", "div\n>\tspan",
        "*|*", "|a", "*|rect", "[*|href]", "[|href^=http]", "a /* the links */ b", ":is(.a, ::nonsense)", ":where()",
        "a[lang|=en]"
    ])
    func browsersAcceptThese(_ selector: String) {
        #expect(CSSSelectorSyntax.problem(in: selector) == nil, "\(selector)")
    }

    @Test(arguments: [
        "", " ", "div >", "> div", "a,", ",a", "#", ".", "[x", "[x=]", "[=x]", "[x=/y]", "a:not(", "a:not(,)", "::",
        "div:has()", "a]", "a)", "p{color:red}", "a b c >", "[x='y]", "1abc", "#a..b", "a::", "a||b", "[*]", "svg|rect", "[xlink|href]"
    ])
    func browsersRefuseThese(_ selector: String) {
        #expect(CSSSelectorSyntax.problem(in: selector) != nil, "\(selector)")
    }
}
