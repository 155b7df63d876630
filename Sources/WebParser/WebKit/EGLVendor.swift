internal import CWebKitGTK
import FoundationEssentials
import Glibc
import Synchronization

/// webparse's EGL vendor with no device (in the web process library, `egl_vendor.c`), named to libglvnd for
/// WebKit's processes. WebKitGTK's web process needs an EGL display to start, even though webparse's views draw
/// without hardware acceleration; from Mesa's driver that display brings LLVM into every web process (one web
/// process measured 117.6 MB PSS with it, 66.8 without). Web processes for pages that may use WebGL hand
/// themselves over to Mesa (`PageSettings.webgl`).
enum EGLVendor {
    /// Names the vendor in the environment WebKit's processes will start with, in a description file of its own
    /// (libglvnd reads vendors from JSON files), and puts the variable that picks the driver of each process in
    /// the environment. Left to WebKit: a machine with a GPU (`hasGPU`), vendors the user named
    /// (`__EGL_VENDOR_LIBRARY_FILENAMES` or `_DIRS`), and a build without the web process library. A description
    /// another webparse made is not the user's choice: a program started by a process that uses WebParser
    /// inherits its environment, and that description is private to its user and gone when the process ends.
    static func install(environment: [String: String], hasGPU: Bool) {
        wk_egl_install_marker()
        let given = environment["__EGL_VENDOR_LIBRARY_FILENAMES"]
        let inherited = given?.contains("/" + folderPrefix) == true
        // An inherited description cannot be relied on; replaced below, or else taken out.
        let withoutOwn = { if inherited { unsetenv("__EGL_VENDOR_LIBRARY_FILENAMES") } }
        guard !hasGPU, given == nil || inherited, environment["__EGL_VENDOR_LIBRARY_DIRS"] == nil, let folder = CaptureExtension.folder else {
            return withoutOwn()
        }
        var template = Array(FileManager.default.temporaryDirectory.appending(path: folderPrefix + "XXXXXX").path.utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }).map({ String(cString: $0) }) else {
            return withoutOwn()
        }
        let description = made + "/webparse.json"
        let library = folder.appending(path: CaptureExtension.fileName).path
        let text = JSONText.text(.object([("file_format_version", .string("1.0.0")), ("ICD", .object([("library_path", .string(library))]))]))
        guard FileManager.default.createFile(atPath: description, contents: Data(text.utf8)) else {
            rmdir(made)
            return withoutOwn()
        }
        installed.withLock { $0 = made }
        setenv("__EGL_VENDOR_LIBRARY_FILENAMES", description, 1)
    }

    /// Removes the description file, once no process will start any more.
    static func remove() {
        guard let folder = installed.withLock({ $0.take() }) else { return }
        unlink(folder + "/webparse.json")
        rmdir(folder)
    }

    /// How the names of the folders of descriptions begin.
    private static let folderPrefix = "webparse-egl-"

    /// The folder of the description file, while there is one.
    private static let installed = Mutex<String?>(nil)
}
