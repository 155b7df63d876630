import FoundationEssentials
import Glibc
import WebParser

/// How a config's fields that name pages and files are read: URLs, paths relative to the config's folder, the
/// files they name.
extension FieldReader {
    /// A page to load. `http(s)` URLs stay as they are; `file` URLs and paths are resolved against the
    /// config's folder and must exist; a bare host name (`example.com/update`) is loaded over `https`, and
    /// `localhost` or an IP address over `http`.
    mutating func url(_ path: String, _ input: FieldInput) -> URL? {
        guard let text = string(path, input)?.trimmingSpaces() else { return nil }
        let host = text.prefix { $0 != "/" && $0 != ":" }
        if case .item = fileAccess {
            // Nothing of the worker's files is looked at, not even whether one is there.
            let scheme = Self.scheme(of: text)?.lowercased()
            guard scheme.map({ ["http", "https"].contains($0) }) ?? !Self.looksLikeFile(text, host: host) else {
                problem(path, at: input, "an item loads web pages only (http or https): \(input.excerpt)")
                return nil
            }
        }
        if let scheme = Self.scheme(of: text)?.lowercased() {
            guard WebParserJob.supportedSchemes.contains(scheme) else {
                problem(path, at: input, "unsupported scheme \"\(scheme):\"; use http, https or file")
                return nil
            }
            guard let url = URL(string: text), scheme == "file" || url.host() != nil else {
                problem(path, at: input, "not a valid URL: \(input.excerpt)")
                return nil
            }
            return scheme == "file" ? existingFile(url.path(percentEncoded: false), path, input, what: "a page") : url
        }
        let isConfig = if case .config = fileAccess { true } else { false }
        if Self.looksLikeFile(text, host: host) || isConfig && FileManager.default.fileExists(atPath: directory.appending(path: text).path) {
            return existingFile(text, path, input, what: "a page")
        }
        let isLocal = host == "localhost" || host.split(separator: ".").count == 4 && host.allSatisfy { $0.isNumber || $0 == "." }
        guard isLocal || host.contains("."), let url = URL(string: (isLocal ? "http://" : "https://") + text),
            url.host() != nil
        else {
            problem(path, at: input, "neither a URL, nor a host name, nor a file next to the config: \(input.excerpt)")
            return nil
        }
        return url
    }

    /// The contents of the file named by `input`, relative to the config's folder.
    mutating func fileContents(_ path: String, _ input: FieldInput) -> String? {
        guard let name = string(path, input), let file = existingFile(name, path, input, what: "a file") else { return nil }
        let contents: String
        do {
            guard let text = String(data: try InputFile.read(file.path), encoding: .utf8) else {
                problem(path, at: input, "is not UTF-8 text: \(file.path)")
                return nil
            }
            contents = text
        } catch {
            problem(path, at: input, "\(error): \(file.path)")
            return nil
        }
        guard !contents.trimmingWhitespace().isEmpty else {
            problem(path, at: input, "is empty: \(file.path)")
            return nil
        }
        return contents
    }

    /// The user scripts named by `input` (a config's path or array of paths, relative to the config's folder;
    /// an option's value per use), each read and checked; a bad one is reported with its file and line.
    mutating func userScripts(_ path: String, _ input: FieldInput) -> [UserScript]? {
        let elements: [(path: String, input: FieldInput)]
        if case .node = input, input.text != nil {
            elements = [(path, input)]
        } else if let items = each(path, input), !items.isEmpty {
            elements = items.enumerated().map { ("\(path)[\($0.offset)]", $0.element) }
        } else {
            problem(path, at: input, "expected a .user.js file or an array of them, got \(input.excerpt)")
            return nil
        }
        var scripts: [UserScript] = []
        for (elementPath, element) in elements {
            guard let name = string(elementPath, element), let file = existingFile(name, elementPath, element, what: "a user script") else { continue }
            do throws(UserScriptError) {
                scripts.append(try UserScript(contentsOf: file))
            } catch {
                problem(elementPath, at: element, "\(error)")
            }
        }
        return scripts.count == elements.count ? scripts : nil
    }

    /// A screenshot to take: a PNG file's path, or `{"file": path, "fullPage": true}`; relative paths are
    /// relative to the config's folder, which must hold the file's folder.
    mutating func screenshot(_ path: String, _ input: FieldInput) -> WebParserJob.Screenshot? {
        var fileInput = input
        var fullPage = false
        if let members = input.members {
            guard let file = members.first(where: { $0.key == "file" })?.value else {
                problem(path + ".file", at: input, "required; the PNG file to write")
                return nil
            }
            fileInput = .node(file)
            for (key, value) in members where key != "file" {
                guard key == "fullPage" else {
                    problem("\(path).\(key)", at: .node(value), "unknown key; expected file or fullPage")
                    continue
                }
                fullPage = bool("\(path).\(key)", .node(value)) ?? false
            }
        } else if input.text == nil {
            problem(path, at: input, "expected a PNG file's path, or {\"file\": …, \"fullPage\": true}, got \(input.excerpt)")
            return nil
        }
        guard let name = string(path, fileInput) else { return nil }
        if case .item(let folder) = fileAccess { return itemScreenshot(name, in: folder, fullPage: fullPage, path, fileInput) }
        let file = (name.hasPrefix("/") ? URL(fileURLWithPath: name) : directory.appending(path: name)).standardizedFileURL
        guard FileManager.default.fileExists(atPath: file.deletingLastPathComponent().path) else {
            problem(path, at: fileInput, "no such folder for the screenshot: \(file.deletingLastPathComponent().path)")
            return nil
        }
        if let reason = AtomicFile.checkWritable(file.path) {
            problem(path, at: fileInput, "the screenshot cannot be written: \(reason)")
            return nil
        }
        return WebParserJob.Screenshot(file: file, fullPage: fullPage)
    }

    /// A work queue's item's screenshot, the file `name` in `folder`, the worker's folder for items' files: a file name
    /// only, written as a private file of its own there (`WebParserJob.Screenshot.confined`), never over a file that is
    /// not an item's; with no folder, none.
    private mutating func itemScreenshot(_ name: String, in folder: URL?, fullPage: Bool, _ path: String, _ input: FieldInput)
        -> WebParserJob.Screenshot?
    {
        guard let folder else {
            problem(
                path, at: input,
                "an item writes no file of the worker's unless the worker's config names a folder for items' files (\"itemFiles\"), where an item gives a file name"
            )
            return nil
        }
        guard !name.contains("/"), !name.contains("\0"), name != ".", name != "..", !name.hasPrefix(".") else {
            problem(
                path, at: input,
                "an item gives a file name only (no \"/\", not starting with \".\"), which goes in the worker's folder for items' files: \(input.excerpt)")
            return nil
        }
        let file = folder.appending(path: name)
        if let reason = AtomicFile.confinedProblem(file.path) {
            problem(path, at: input, "\(file.path) is there already and is not an item's file (\(reason)): an item never replaces it")
            return nil
        }
        return WebParserJob.Screenshot(file: file, fullPage: fullPage, confined: true)
    }

    /// True for paths (`/…`, `./…`, `../…`) and for names of web files (`updates.html`), which are not host
    /// names.
    fileprivate static func looksLikeFile(_ text: String, host: Substring) -> Bool {
        let fileExtensions: Set<String> = ["html", "htm", "xhtml", "shtml", "svg", "xml", "json", "txt", "php", "js"]
        return text.hasPrefix("/") || text.hasPrefix(".")
            || host.split(separator: ".").last.map { fileExtensions.contains($0.lowercased()) } == true
    }

    /// The file at `filePath`, relative to the config's folder, if it exists and is not a folder, and the config may
    /// read it (a work queue's item reads no file).
    mutating func existingFile(_ filePath: String, _ path: String, _ input: FieldInput, what: String) -> URL? {
        if case .item = fileAccess {
            problem(path, at: input, "an item reads no file of the worker's, and \(what) is one: \(input.excerpt)")
            return nil
        }
        let file = (filePath.hasPrefix("/") ? URL(fileURLWithPath: filePath) : directory.appending(path: filePath))
            .standardizedFileURL
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) else {
            problem(path, at: input, "no such file: \(file.path)")
            return nil
        }
        guard !isDirectory else {
            problem(path, at: input, "is a folder, not \(what): \(file.path)")
            return nil
        }
        return file
    }

    /// The folder `input` names, relative to the config's folder, if it exists and webparse may write in it.
    mutating func writableFolder(_ path: String, _ input: FieldInput) -> URL? {
        guard let name = string(path, input) else { return nil }
        let folder = (name.hasPrefix("/") ? URL(fileURLWithPath: name) : directory.appending(path: name)).standardizedFileURL
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory else {
            problem(path, at: input, "no such folder: \(folder.path)")
            return nil
        }
        guard access(folder.path, W_OK) == 0 else {
            problem(path, at: input, "cannot write in \(folder.path): \(String(cString: strerror(errno)))")
            return nil
        }
        return folder
    }

    /// The scheme of `text` if it starts with one (`https:`, `javascript:`), not counting a host's port
    /// (`localhost:8080`).
    fileprivate static func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isLetter,
            scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) })
        else { return nil }
        let rest = text[text.index(after: colon)...]
        let port = rest.prefix { $0 != "/" }
        let isHost = scheme.contains(".") || scheme.lowercased() == "localhost"
        if isHost && !rest.hasPrefix("//") && !port.isEmpty && port.allSatisfy(\.isNumber) { return nil }
        return String(scheme)
    }
}
