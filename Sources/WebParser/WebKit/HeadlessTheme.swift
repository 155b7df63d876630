import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The GTK theme of webparse's private display: the one colour WebKit takes from a GTK theme (the accent of
/// form controls such as progress bars and sliders), with the value of GTK's default theme, Adwaita, in a 0700
/// folder of its own under the temporary folder.
///
/// GTK parses this one line instead of Adwaita's whole stylesheet when it makes the first view: ~17 ms of every
/// cold start, measured. Nothing of webparse's is drawn by GTK, and pages look as they do under Adwaita.
struct HeadlessTheme: Sendable {
    /// The theme's name, for `GTK_THEME`.
    static let name = "webparse"
    /// The stylesheet: what WebKit reads from a GTK theme, as Adwaita defines it.
    static let stylesheet = "@define-color theme_selected_bg_color #3584e4;\n"

    /// The folder GTK finds the theme in (as `share/themes/NAME/gtk-3.0/gtk.css`), for `GTK_DATA_PREFIX`.
    let prefix: String

    private var folders: [String] {
        ["share", "share/themes", "share/themes/\(Self.name)", "share/themes/\(Self.name)/gtk-3.0"].map { prefix + "/" + $0 }
    }

    private var stylesheetPath: String { prefix + "/share/themes/\(Self.name)/gtk-3.0/gtk.css" }

    /// Writes the theme in a new folder; nil when it cannot be written, and GTK then uses Adwaita as it would
    /// without it.
    static func install() -> HeadlessTheme? {
        var template = Array(FileManager.default.temporaryDirectory.appending(path: "webparse-theme-XXXXXX").path.utf8CString)
        guard let prefix = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }).map({ String(cString: $0) }) else {
            return nil
        }
        let theme = HeadlessTheme(prefix: prefix)
        guard theme.folders.allSatisfy({ mkdir($0, 0o700) == 0 }),
            FileManager.default.createFile(atPath: theme.stylesheetPath, contents: Data(stylesheet.utf8))
        else {
            theme.remove()
            return nil
        }
        return theme
    }

    /// Removes the theme and its folder. Safe to call more than once.
    func remove() {
        unlink(stylesheetPath)
        for folder in folders.reversed() { rmdir(folder) }
        rmdir(prefix)
    }
}
