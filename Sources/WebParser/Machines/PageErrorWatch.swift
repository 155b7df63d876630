import FoundationEssentials

/// The page's last uncaught exception or unhandled rejection, as the console would show it: kept by a script that
/// runs at the start of every top-level document, before the page's own scripts, in webparse's own script world
/// (`WebParserJob.isolatedWorld`: the page's DOM and events, and nothing the page's scripts can see), and read while a
/// job waits for its data. A job that times out can then say that the page's own code failed, which is most often
/// why the data never came.
enum PageErrorWatch {
    /// The name, on the isolated world's window, of the function that returns the last error.
    private static let key = JavaScriptSyntax.literal("webparse-errors")

    /// The script that keeps the last error (`error_watch.js`), with the built-ins it uses taken before any of the
    /// page's scripts ran.
    static let source = ScriptSource.call(ScriptSource.errorWatch, key) + ";\n"

    /// The body of a call in webparse's world whose value is the page's last error, or null when there was none.
    static let readBody = "const read = window[\(key)];\nreturn typeof read === \"function\" ? read() : null;\n"
}
