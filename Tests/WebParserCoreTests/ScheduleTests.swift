import Foundation
import Testing
import WebParser
@testable import WebParserCore

/// `every` and `jitter`: which jobs a run started by cron runs, and the config fields that say so.
@Suite struct ScheduleTests {
    func config(_ text: String) throws -> Config {
        try ConfigLoader.parse(Array(text.utf8), name: "pace.json", directory: URL(fileURLWithPath: "/tmp"))
    }

    func problems(_ text: String) -> [String] {
        do {
            _ = try config(text)
            return []
        } catch let error as ConfigError {
            return error.problems.map { "\($0.path): \($0.message)" }
        } catch {
            return ["\(error)"]
        }
    }

    @Test func lengthsOfTimeAreReadWithTheirUnits() {
        #expect(Schedule.seconds(in: "15m") == 900)
        #expect(Schedule.seconds(in: "6h") == 21_600)
        #expect(Schedule.seconds(in: "1d") == 86_400)
        #expect(Schedule.seconds(in: "1h30m") == 5_400)
        #expect(Schedule.seconds(in: "2w") == 1_209_600)
        #expect(Schedule.seconds(in: "1.5s") == 1.5)
        for wrong in ["", "15", "m", "15 minutes", "1h30", "-5m", "5x"] { #expect(Schedule.seconds(in: wrong) == nil, "\(wrong)") }
    }

    @Test func aJobIsDueWhenItsSlotIsOverAndHalfAnIntervalHasPassed() {
        let sixHours = Schedule(every: 21_600)
        let run = Date(timeIntervalSince1970: 1_699_990_000)  // 19:26:40 UTC
        let due = sixHours.due(after: run, name: "news")
        #expect(due.timeIntervalSince1970.truncatingRemainder(dividingBy: 21_600) == 0, "the next slot on the clock: midnight")
        #expect(due > run && due.timeIntervalSince(run) <= 21_600)
        let late = Date(timeIntervalSince1970: 1_700_006_000)  // 23:53:20, just before midnight
        #expect(sixHours.due(after: late, name: "news") == late.addingTimeInterval(10_800), "not again at once: half an interval later")
    }

    @Test func aWeeksSlotsBeginOnMondays() {
        let weekly = Schedule(every: 604_800)
        let wednesday = Date(timeIntervalSince1970: 1_796_212_800)  // Wednesday 2026-12-02, 12:00 UTC
        #expect(weekly.due(after: wednesday, name: "digest") == Date(timeIntervalSince1970: 1_796_601_600), "Monday 2026-12-07, 00:00 UTC")
        let sunday = Date(timeIntervalSince1970: 1_796_558_400)  // Sunday 2026-12-06, 12:00 UTC
        #expect(weekly.due(after: sunday, name: "digest") == sunday.addingTimeInterval(302_400), "half a week after a run late in its week")
    }

    @Test func jitterGivesEachNameAFixedOffsetWithinIt() {
        let hourly = Schedule(every: 3600, jitter: 3600)
        let offsets = (1...500).map { hourly.offset(of: "job-\($0)") }
        #expect(offsets.allSatisfy { (0..<3600).contains($0) })
        #expect(Set(offsets.map { Int($0 / 60) }).count > 40, "500 jobs spread over the hour's minutes")
        #expect(hourly.offset(of: "job-7") == Schedule(every: 3600, jitter: 3600).offset(of: "job-7"), "the same name, the same offset")
        #expect(Schedule(every: 3600).offset(of: "job-7") == 0)
        let run = Date(timeIntervalSince1970: 1_700_000_000)
        let due = hourly.due(after: run, name: "job-7")
        #expect((due.timeIntervalSince1970 - hourly.offset(of: "job-7")).truncatingRemainder(dividingBy: 3600).magnitude < 0.001)
    }

    @Test func theFieldsAreReadAndWrongValuesNameTheField() throws {
        let read = try config(#"{"url": "https://a.test/", "script": "1", "every": "6h", "jitter": "30m"}"#)
        #expect(read.jobs[0].schedule == Schedule(every: 21_600, jitter: 1800))
        #expect(try config(#"{"url": "https://a.test/", "script": "1", "every": 90}"#).jobs[0].schedule == Schedule(every: 90))
        #expect(try config(#"{"url": "https://a.test/", "script": "1"}"#).jobs[0].schedule == nil)
        #expect(problems(#"{"url": "https://a.test/", "script": "1", "every": "0.5s"}"#).contains { $0.hasPrefix("every: expected a length of time from 1s") })
        #expect(problems(#"{"url": "https://a.test/", "script": "1", "every": "soon"}"#).contains { $0.hasPrefix("every: expected") })
        #expect(
            problems(#"{"url": "https://a.test/", "script": "1", "every": "1h", "jitter": "2h"}"#) == [
                "jitter: expected at most the job's every (3600 s), got 7200 s"
            ])
        #expect(problems(#"{"url": "https://a.test/", "script": "1", "jitter": "2h"}"#) == ["jitter: goes with every (how often the job runs)"])
        #expect(problems(#"{"url": "https://a.test/", "script": "1", "confirm": 0}"#).contains { $0.hasPrefix("confirm: expected a number of runs from 1") })
        let when = problems(#"{"url": "https://a.test/", "script": "1", "when": "item.price <"}"#)
        #expect(when.count == 1 && when[0].hasPrefix("when: expected a JavaScript expression over item"), "\(when)")
        #expect(try config(#"{"url": "https://a.test/", "script": "1", "when": "item.price < 300"}"#).jobs[0].tracking.when == "item.price < 300")
    }

    @Test func aRunTakesTheDueJobsAndTheJobsTheyRunAfter() throws {
        let plan = try RunPlan(
            config: config(
                #"""
                {"jobs": [
                  {"name": "login", "url": "https://a.test/login", "script": "1", "every": "1d"},
                  {"name": "chapters", "after": "login", "url": "https://a.test/c", "script": "1", "every": "15m"},
                  {"name": "archive", "url": "https://b.test/", "script": "1", "every": "1d"},
                  {"name": "always", "url": "https://c.test/", "script": "1"}
                ]}
                """#))
        let later = Date(timeIntervalSince1970: 2_000_000_000)
        let (jobs, skipped) = plan.dueJobs { ["login", "archive"].contains($0.name) ? later : nil }
        #expect(jobs.map(\.name) == ["login", "chapters", "always"], "the login a due job needs runs with it")
        #expect(skipped.map(\.name) == ["archive"] && skipped.first?.due == later)
    }

    @Test func aWorkQueuesItemHasNoEvery() {
        let item = Data(#"{"url": "https://a.test/", "script": "1", "every": "1h"}"#.utf8)
        #expect(throws: ConfigError.self) { try QueueItem(item, named: "item", defaults: ConfigReader.Defaults()) }
    }
}
