internal import CWebKitGTK
import FoundationEssentials

/// A file loaded to disk through a session's network process (its proxy and cookies), as a browser's download is:
/// started, heard once when it ends, and cancelled when the task that awaits it is.
@WebKitActor
final class FileDownload {
    private var handle: OpaquePointer?

    private init() {}

    /// Loads `url` into the file at `path` through `browsing`'s network process, stopping once more than `maxBytes`
    /// came.
    /// - Throws: `WebParserError` with kind `.httpStatus` when the server answered with an error status, or the kind
    ///   WebKit's error means when it could not load it (`.loadFailed` when the task was cancelled while it loaded);
    ///   `CancellationError` when the task was cancelled before.
    static func load(_ url: URL, to path: String, maxBytes: Int, in browsing: BrowsingContext) async throws -> WebParserDownload {
        try Task.checkCancellation()
        let download = FileDownload()
        let context = browsing.webContext
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<WebParserDownload, Error>) in
                let box = CallbackBox.retained((download, continuation, url))
                download.handle = wk_context_download(
                    context, url.absoluteString, path, UInt64(maxBytes),
                    { context, status, mimeType, tooLarge, error in
                        let (download, continuation, url) = CallbackBox<(FileDownload, CheckedContinuation<WebParserDownload, Error>, URL)>
                            .take(context)
                        WebKitActor.assumeIsolated { download.handle = nil }
                        if tooLarge {
                            continuation.resume(returning: .tooLarge)
                        } else if status >= 400 {
                            continuation.resume(throwing: WebParserError(.httpStatus(Int(status)), url: url.absoluteString))
                        } else if let error {
                            continuation.resume(throwing: PageError(error.pointee).failure(of: url.absoluteString))
                        } else {
                            continuation.resume(returning: .written(status: Int(status), type: mimeType.map { String(cString: $0) } ?? ""))
                        }
                    }, box)
            }
        } onCancel: {
            Task { @WebKitActor in download.cancel() }
        }
    }

    /// Stops the download if it has not ended.
    private func cancel() {
        if let handle { wk_download_cancel(handle) }
    }
}

/// What `WebParserRunner.download` wrote.
public enum WebParserDownload: Sendable, Equatable {
    /// The whole file, the HTTP status it came with (0 when it came by another scheme) and its MIME type ("" when
    /// none was given).
    case written(status: Int, type: String)
    /// Nothing: the file is larger than the most asked for.
    case tooLarge
}
