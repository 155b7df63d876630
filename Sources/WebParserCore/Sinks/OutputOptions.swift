import FoundationEssentials

/// What `run` prints, and where.
package struct OutputOptions: Sendable {
    package enum Format: Sendable, Equatable {
        /// One JSON document at the end: a result, or the results by job name.
        case document
        /// One JSON line per job (or per item) as it finishes.
        case jsonLines
    }

    package var format = Format.document
    /// Whether the jobs' lists are printed as one list.
    package var merge = false
    /// The file written instead of stdout.
    package var file: String?

    package var jsonLines: Bool { format == .jsonLines }

    /// One JSON document on stdout.
    package init() {}
}

/// What `run` reports of each job.
package enum Reporting: Sendable, Equatable {
    /// Every result.
    case everything
    /// Only what `--state` did not hold: `report` says which items, with `diff` a changed value as a diff.
    case newOnly(report: Report, diff: Bool)
}

/// What `--new-only` reports of each job.
package enum Report: String, Sendable, CaseIterable {
    /// Items not seen before (and a changed value that is not a list).
    case added
    /// Items seen before, by their key, whose content changed (with a `when`, also those it came to hold for).
    case changed
    /// Items gone from the list, confirmed by the job's `confirm` runs in a row without them.
    case removed
    /// All three.
    case all
}
