import FoundationEssentials
import Glibc
import WebParserCore
import Synchronization
import WebParser

/// Ends the process once: the run finishing and the signal grace period running out can both try to exit
/// at the same moment. WebKit and the display are stopped first; then the process ends with `_exit`, without
/// running C++ static destructors while another thread may still be starting WebKit. Everything webparse
/// writes goes straight to the file descriptors, so nothing is left unflushed.
enum ProcessExit {
    private static let exiting = Mutex(false)

    /// Exits with `code`; a later caller waits for the first one's exit to end the process.
    static func exit(_ code: ExitCode) -> Never {
        exit(code.rawValue)
    }

    /// Replaces the process with a fresh copy of itself (`ProcessRenewal`), WebKit and the display stopped first;
    /// when that cannot be done, says why and exits with `.environment`. A later caller (a signal's exit) waits, as
    /// for an exit.
    static func renew() -> Never {
        guard takeTurn() else {
            while true { pause() }
        }
        WebParserRunner.shutdown()
        let reason = ProcessRenewal.replace(environment: LaunchEnvironment.variables)
        StandardStreams.tellError("webparse: cannot start itself again (\(reason)); restart it")
        _exit(ExitCode.environment.rawValue)
    }

    /// Exits with a raw status, such as 128 + a signal number.
    static func exit(_ status: Int32) -> Never {
        guard takeTurn() else {
            while true { pause() }
        }
        WebParserRunner.shutdown()
        _exit(status)
    }

    /// Whether this caller is the first to end the process.
    private static func takeTurn() -> Bool {
        exiting.withLock { exiting in
            defer { exiting = true }
            return !exiting
        }
    }
}
