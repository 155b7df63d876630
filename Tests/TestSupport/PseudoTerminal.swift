import Foundation

/// Runs shell commands with a pseudo-terminal for their standard streams, as a person's terminal would be (util-linux's
/// `script`), for what programs write only on a terminal: colours, a progress line.
public enum PseudoTerminal {
    /// What `command`, a `sh -c` command line, wrote on the terminal (its stdout and stderr, unless it sends them
    /// elsewhere), once it has ended.
    public static func output(of command: String) throws -> String {
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        script.arguments = ["-qec", command, "/dev/null"]
        let output = Pipe()
        script.standardOutput = output
        try script.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        script.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
