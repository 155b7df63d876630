internal import CWebKitGTK
import FoundationEssentials

/// Where webparse's web process extension (`libwebparse-extension.so`, which captures response bodies and is the
/// EGL vendor with no device, `EGLVendor`) is: in the install's `lib/webparse/` beside the executable's `bin/`, or
/// beside the executable itself (a build folder). webparse runs without it; only a job that captures needs it.
enum CaptureExtension {
    /// The folder that holds the extension, or nil when it is in none of `searched`.
    static let folder: URL? = searched.first { FileManager.default.isReadableFile(atPath: $0.appending(path: fileName).path) }

    /// The folders looked in, in order.
    static let searched: [URL] = {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        return [executable.deletingLastPathComponent().appending(path: "lib/webparse"), executable]
    }()

    /// The extension's file name.
    static let fileName = String(cString: wk_extension_file_name())

    /// Why a job that captures cannot run here, or nil when it can.
    static var missing: String? {
        guard folder == nil else { return nil }
        return "capture needs webparse's web process extension (\(fileName)), which is in none of "
            + searched.map(\.path).joined(separator: ", ")
    }
}
