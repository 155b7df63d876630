internal import PageJavaScript

/// The JavaScript webparse runs in pages, compiled in from `Sources/PageJavaScript/scripts/`: each file a function
/// expression that webparse calls with its settings (the comment at the top of each file says what it takes).
enum ScriptSource {
    /// The page's quiet state (`page_quiet.js`): `(settings) => ({pageQuiet, isStill, pendingWork, workDone, quietFor,
    /// quietIn, nextChange})`.
    static let pageQuiet = String(cString: wp_page_script(WP_SCRIPT_PAGE_QUIET))
    /// A job's script in slices (`slice.js`): `(script, waitFor, settings, quiet, resolved) => undefined`.
    static let slice = String(cString: wp_page_script(WP_SCRIPT_SLICE))
    /// A job's step (`step.js`): `(step, quiet, own) => Promise<reply>`.
    static let step = String(cString: wp_page_script(WP_SCRIPT_STEP))
    /// `resolved.js`: `async (value) => ({value})`, the value awaited only when it is a promise of its own.
    static let resolved = String(cString: wp_page_script(WP_SCRIPT_RESOLVED))
    /// An extraction's reader (`extraction.js`): `(spec) => items or object`.
    static let extraction = String(cString: wp_page_script(WP_SCRIPT_EXTRACTION))
    /// The user scripts' channel (`bridge.js`): `(token, settings) => run`.
    static let bridge = String(cString: wp_page_script(WP_SCRIPT_BRIDGE))
    /// The page's last error (`error_watch.js`): `(key) => undefined`.
    static let errorWatch = String(cString: wp_page_script(WP_SCRIPT_ERROR_WATCH))
    /// The bot protection service of a page (`bot_protection.js`): `() => name or null`.
    static let botProtection = String(cString: wp_page_script(WP_SCRIPT_BOT_PROTECTION))
    /// A `when` condition's context readied (`condition_prelude.js`): `(limit) => undefined`.
    static let conditionPrelude = String(cString: wp_page_script(WP_SCRIPT_CONDITION_PRELUDE))
    /// The window's `localStorage` (`local_storage.js`): `(items) => true`, or with `null` the items as JSON text.
    static let localStorage = String(cString: wp_page_script(WP_SCRIPT_LOCAL_STORAGE))

    /// A call of `function`, one of these files, with `arguments` (JavaScript expressions), as an expression.
    static func call(_ function: String, _ arguments: String...) -> String {
        "(" + function + ")(" + arguments.joined(separator: ", ") + ")"
    }
}
