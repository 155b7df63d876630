import WebParserCore

/// Settings of commands that write a HAR file (`--har FILE`, `--har-content`).
protocol HARSettings: Sendable {
    var harFile: String? { get set }
    var harContent: HARContent? { get set }
}

extension CommandOption where Settings: HARSettings {
    /// `--har FILE`.
    static var har: Self {
        .value("har", "FILE", "write every page's requests (and their bodies, see --har-content) to FILE as a HAR 1.2 file, atomically") {
            $0.harFile = $1
        }
    }

    /// `--har-content embed|omit`, as the config field `harContent` reads it.
    static var harContent: Self { fieldOptions([RunFields.harContent], into: \.harContentDraft)[0] }
}

extension HARSettings {
    /// `harContent` as the run settings' field reads it.
    var harContentDraft: RunSettings {
        get { RunSettings(harContent: harContent) }
        set { harContent = newValue.harContent }
    }
}
