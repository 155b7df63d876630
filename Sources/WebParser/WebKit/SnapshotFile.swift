import FoundationEssentials

/// Where a page's screenshot goes: WebKit writes the PNG to a temporary file, in a folder of its own that only
/// webparse's user can read (a logged-in page's screenshot is no one else's business); it then goes to the job's
/// file as every output does: atomically over a regular file (a reader never sees half a PNG), into a device or
/// FIFO, through links; or, `confined` (a work queue's item named it), as a private file of its own in its folder
/// (`AtomicFile.writeConfined`).
struct SnapshotFile {
    /// The job's file.
    let file: URL
    private let confined: Bool
    private let folder: URL
    /// The temporary file WebKit writes.
    let partial: URL

    /// The way to `file`, its temporary folder made.
    init(to file: URL, confined: Bool) {
        self.file = file
        self.confined = confined
        folder = FileManager.default.temporaryDirectory.appending(path: "webparse-snapshot-\(UUID().uuidString)")
        partial = folder.appending(path: "page.png")
        _ = try? PrivateFiles.makeFolder(folder)
    }

    /// Moves the PNG WebKit wrote (or failed to write, with `error`) to the job's file, and removes the temporary
    /// folder. Returns what went wrong, in words; nil when the file was written.
    func finish(webKitError error: String?) -> String? {
        defer { try? FileManager.default.removeItem(at: folder) }
        if let error { return "cannot write \(file.path): \(error)" }
        do {
            let png = try InputFile.read(partial.path, limit: .max)
            if confined {
                try AtomicFile.writeConfined(png, to: file.path)
            } else {
                try AtomicFile.write(png, to: file.path)
            }
            return nil
        } catch let failure as AtomicFile.Failure {
            return failure.description
        } catch let failure as InputFile.Failure {
            return "cannot write \(file.path): WebKit's PNG \(failure)"
        } catch {
            return "cannot write \(file.path): \(error)"
        }
    }
}
