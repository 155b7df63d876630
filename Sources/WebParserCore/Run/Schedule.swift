import FoundationEssentials
import WebParser

/// How often a job runs when a run with `--state` is started more often than that (by cron, say): `every` so many
/// seconds, in slots of that length on the clock (every 6 hours: from midnight, 6 a.m., noon and 6 p.m.; every week:
/// from Monday midnight, UTC), shifted by a fixed offset within `jitter` that the job's name gives, so that jobs of
/// one interval do not all start in the same minute. A job is due once the slot it last ran in is over, and at least half an interval after that run: a job
/// first run just before a slot ends is not run again at once.
public struct Schedule: Sendable, Equatable {
    /// The interval, in seconds: at least 1.
    public var every: Double
    /// The span of the job's offset, in seconds: from 0 to `every`.
    public var jitter: Double

    /// A schedule of one run every `every` seconds, offset within `jitter` seconds.
    public init(every: Double, jitter: Double = 0) {
        self.every = every
        self.jitter = jitter
    }

    /// The offset of the slots of the job `name`, in seconds: its name's stable hash, within `jitter`.
    public func offset(of name: String) -> Double {
        let hash = SHA256.digest(name.utf8).prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return jitter * (Double(hash >> 11) / Double(1 << 53))
    }

    /// When the slots begin, in seconds since the Unix epoch: Monday 5 January 1970, 00:00 UTC, so that weekly slots
    /// begin on Mondays (the epoch was a Thursday) and a day's slots at midnight.
    public static let firstSlot = 4.0 * 86_400

    /// When the job `name`, last run at `lastRun`, is due again.
    public func due(after lastRun: Date, name: String) -> Date {
        let start = Self.firstSlot + offset(of: name)
        let slot = ((lastRun.timeIntervalSince1970 - start) / every).rounded(.down)
        let slotEnd = (slot + 1) * every + start
        return Date(timeIntervalSince1970: max(slotEnd, lastRun.timeIntervalSince1970 + every / 2))
    }

    /// The longest interval: a year.
    public static let longest = 366.0 * 86_400

    /// The seconds `text` says: a number and a unit (`s`, `m`, `h`, `d` or `w`), or several (`1h30m`); nil for any
    /// other text.
    public static func seconds(in text: String) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        var total = 0.0
        var number = ""
        for character in text.trimmingWhitespace() {
            if character.isASCII && (character.isNumber || character == ".") {
                number.append(character)
            } else if let unit = units[character], let value = Double(number) {
                total += value * unit
                number = ""
            } else {
                return nil
            }
        }
        return number.isEmpty && total.isFinite && !text.isEmpty ? total : nil
    }
}
