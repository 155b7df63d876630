import Foundation
import TestSupport
import Testing

/// The completion scripts driven by the shells themselves: bash's completion function with COMP_WORDS, fish's
/// `complete -C`, and an interactive zsh in a pseudo-terminal, Tab pressed, its screen read. In a folder with
/// `my sites.json` (jobs alpha and beta) and a folder `state dir`.
@Suite(.serialized) struct CompletionShellTests: CommandLineTest {
    func place() throws -> URL {
        let directory = try folder()
        try write(
            #"{"jobs": [{"name": "alpha", "url": "https://a.test/", "script": "1"}, {"name": "beta", "url": "https://b.test/", "script": "1"}]}"#,
            "my sites.json", in: directory)
        try FileManager.default.createDirectory(at: directory.appending(path: "state dir"), withIntermediateDirectories: true)
        return directory
    }

    /// What `program arguments` prints in `directory`, with the built webparse first on PATH.
    func output(_ program: String, _ arguments: [String], in directory: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = [
            "PATH": webparse.executable.deletingLastPathComponent().path + ":/usr/bin:/bin", "HOME": directory.path, "TERM": "dumb"
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    func script(_ shell: String, in directory: URL) async throws -> String {
        let generated = try await webparse.run(["completions", shell])
        #expect(generated.status == 0)
        return try write(generated.stdoutText, "completion.\(shell)", in: directory)
    }

    @Test func bash() async throws {
        let directory = try place()
        let file = try await script("bash", in: directory)
        func complete(_ words: String) throws -> [String] {
            let text = try output(
                "/bin/bash",
                ["-c", "source '\(file)'; COMP_WORDS=(\(words)); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); _webparse; printf '%s\\n' \"${COMPREPLY[@]}\""],
                in: directory)
            return text.split(separator: "\n").map(String.init)
        }
        #expect(try complete(#"webparse run 'my\ s'"#) == ["my sites.json"], "a name with a space is one reply")
        #expect(try complete(#"webparse run "'my s""#) == ["my sites.json"])
        #expect(try complete("webparse -q run --js") == ["--jsonl"], "options before the command")
        #expect(try complete("webparse run --report ''") == ["added", "changed", "removed", "all"])
        #expect(try complete("webparse eval https://a.test --collect ''") == ["result", "emitted", "responses"])
        #expect(try complete("webparse eval https://a.test --popups ''") == ["follow", "ignore"])
        #expect(try complete("webparse run --session ''") == ["state dir"], "folders only")
        #expect(try complete(#"webparse run 'my\ sites.json' --only ''"#) == ["alpha", "beta"])
        #expect(try complete(#"webparse run "'my sites.json'" --only ''"#) == ["alpha", "beta"])
        #expect(try output("/bin/bash", ["-c", "source '\(file)'; complete -p webparse"], in: directory) == "complete -o filenames -F _webparse webparse\n")
    }

    @Test func fish() async throws {
        let directory = try place()
        let file = try await script("fish", in: directory)
        func complete(_ line: String) throws -> [String] {
            try output("/usr/bin/fish", ["-c", "source '\(file)'; complete -C '\(line)'"], in: directory)
                .split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        }
        #expect(try complete("webparse -q run --js") == ["--jsonl"])
        #expect(try Set(complete("webparse run --report ")) == ["added", "changed", "removed", "all"])
        #expect(try Set(complete("webparse eval x --popups ")) == ["follow", "ignore"])
        #expect(try complete("webparse run --session ") == ["state dir/"])
        #expect(try complete(#"webparse run my\ s"#) == ["my sites.json"])
        #expect(try complete(#"webparse run my\ sites.json --only "#) == ["alpha", "beta"])
        #expect(try output("/usr/bin/fish", ["-c", "source '\(file)'; complete -C 'webparse run --save-s'"], in: directory).contains("FILE's format") == false)
        #expect(try output("/usr/bin/fish", ["-c", "source '\(file)'; complete -C 'webparse run --save-c'"], in: directory).contains("in FILE's format"))
    }

    /// An interactive zsh in a pseudo-terminal: each line is typed, Tab pressed, and the screen read.
    static let zshDriver = """
        import os, pty, select, sys, time
        fpath, lines = sys.argv[1], sys.argv[2:]
        pid, fd = pty.fork()
        if pid == 0:
            os.execvp("zsh", ["zsh", "-f", "-i"])
        def read(wait):
            out, end = b"", time.time() + wait
            while time.time() < end:
                if select.select([fd], [], [], 0.05)[0]:
                    try:
                        out += os.read(fd, 65536)
                    except OSError:
                        break
            return out.decode(errors="replace").replace("\\r", "")
        os.write(fd, f"PS1='> '; fpath=({fpath} $fpath); autoload -U compinit; compinit -u -D; zstyle ':completion:*' list-prompt ''; LISTMAX=0\\n".encode())
        read(3)
        for line in lines:
            os.write(fd, line.encode() + b"\\t")
            print("== " + line)
            print(read(2))
            os.write(fd, b"\\x03")
            read(0.5)
        os.write(fd, b"exit\\n")
        """

    @Test func zsh() async throws {
        let directory = try place()
        let functions = directory.appending(path: "functions")
        try FileManager.default.createDirectory(at: functions, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: try await script("zsh", in: directory), toPath: functions.appending(path: "_webparse").path)
        let driver = try write(Self.zshDriver, "drive.py", in: directory)
        let lines = [
            "webparse -q run --js", "webparse run --report ", "webparse run my", #"webparse run my\ sites.json --only "#, "webparse run --save-",
            "webparse eval x --col", "webparse run --session ", "webparse validate --he", "webparse eval --co"
        ]
        let screen = try output("/usr/bin/python3", [driver, functions.path] + lines, in: directory)
        let parts = Dictionary(
            uniqueKeysWithValues: screen.components(separatedBy: "== ").dropFirst().map { part in
                let newline = part.firstIndex(of: "\n") ?? part.endIndex
                return (String(part[..<newline]), String(part[newline...]))
            })
        #expect(parts[lines[0]]?.contains("webparse -q run --jsonl") == true, "\(screen)")
        #expect(["added", "changed", "removed", "all"].allSatisfy { parts[lines[1]]?.contains($0) == true }, "\(screen)")
        #expect(parts[lines[2]]?.contains(#"webparse run my\ sites.json"#) == true, "\(screen)")
        #expect(parts[lines[3]]?.contains("alpha") == true && parts[lines[3]]?.contains("beta") == true, "\(screen)")
        #expect(parts[lines[4]]?.contains("the session's cookies") == true, "an apostrophe in a description: \(screen)")
        #expect(parts[lines[5]]?.contains("webparse eval x --collect") == true, "\(screen)")
        #expect(parts[lines[6]]?.contains(#"state\ dir"#) == true, "\(screen)")
        #expect(parts[lines[7]]?.contains("webparse validate --help") == true, "\(screen)")
        #expect(parts[lines[8]]?.contains("emitted: the values") == true, "a colon in a description: \(screen)")
    }
}
