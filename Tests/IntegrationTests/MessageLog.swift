import Foundation
import WebParser

/// What a job's messages told, each as `line` reads it (nil: not one to keep).
final class MessageLog: @unchecked Sendable {
    private let lock = NSLock()
    private let line: @Sendable (WebParserMessage) -> String?
    private var lines: [String] = []

    init(_ line: @escaping @Sendable (WebParserMessage) -> String?) {
        self.line = line
    }

    /// The `if` steps' decisions, as "PLACE true|false".
    static func decisions() -> MessageLog {
        MessageLog { message in
            guard case .stepDecided(let place, _, let holds) = message else { return nil }
            return "\(place) \(holds)"
        }
    }

    /// What the steps waited for, as "PLACE waited N ms for WHAT".
    static func waits() -> MessageLog {
        MessageLog { message in
            guard case .stepWaited(let place, _, let waited) = message else { return nil }
            return "\(place) \(waited)"
        }
    }

    func add(_ message: WebParserMessage) {
        guard let told = line(message) else { return }
        lock.withLock { lines.append(told) }
    }

    var told: [String] { lock.withLock { lines } }
}
