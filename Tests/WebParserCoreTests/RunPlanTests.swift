import Foundation
import Testing
import WebParser
@testable import WebParserCore

/// Which jobs a run runs, how many at once, and how its session uses web processes, decided before anything
/// loads.
@Suite struct RunPlanTests {
    func config(_ text: String) throws -> Config {
        try ConfigLoader.parse(Array(text.utf8), name: "plan.json", directory: URL(fileURLWithPath: "/tmp"))
    }

    var sites: Config {
        get throws {
            try config(
                #"""
                {"concurrency": 2, "jobs": [
                  {"name": "login", "url": "https://a.test/login", "script": "1"},
                  {"name": "chapters", "after": "login", "url": "https://a.test/c", "script": "1"},
                  {"name": "news", "url": "https://b.test/", "script": "1"},
                  {"name": "extra", "url": "https://c.test/", "script": "1"}
                ]}
                """#)
        }
    }

    @Test func onlyBringsTheJobsItRunsAfterInConfigOrder() throws {
        let plan = try RunPlan(config: sites, only: ["news,chapters"])
        #expect(plan.jobs.map(\.name) == ["login", "chapters", "news"])
        #expect(try RunPlan(config: sites).jobs.count == 4)
        #expect(try RunPlan(config: sites, only: ["extra"]).jobs.map(\.name) == ["extra"])
    }

    @Test func anUnknownNameIsRefusedWithTheJobsThereAre() throws {
        let sites = try sites
        #expect(throws: RunPlan.UnknownJobs.self) { try RunPlan(config: sites, only: ["nwes"]) }
        do throws(RunPlan.UnknownJobs) {
            _ = try RunPlan(config: sites, only: ["nwes", "news"])
        } catch {
            #expect(error.description == #"no job named "nwes"; the jobs are "login", "chapters", "news", "extra""#)
        }
    }

    @Test func theOptionsSettingsGoOverTheConfigsAndDecideTheSession() throws {
        let plan = try RunPlan(config: sites, settings: RunSettings(memoryLimit: 0))
        #expect(plan.concurrency == 2)
        let configuration = plan.sessionConfiguration(storage: .ephemeral, proxy: nil)
        #expect(configuration.memoryLimit == nil, "0 is no limit")
        #expect(configuration.recycleAfter == WebParserSession.Configuration.defaultRecycleAfter)
        // Every job with a page of its own: no page is kept for reuse.
        let few = try RunPlan(config: sites, only: ["news"], settings: RunSettings(concurrency: 4))
        #expect(few.concurrency == 4)
        #expect(few.sessionConfiguration(storage: .ephemeral, proxy: nil).recycleAfter == 1)
        #expect(few.sessionConfiguration(storage: .ephemeral, proxy: nil).memoryLimit == WebParserSession.Configuration.defaultMemoryLimit)
    }

    @Test(arguments: 1...5)
    func everyJobIsInExactlyOneShard(count: Int) throws {
        let names = (0..<500).map { "job-\($0)" } + ["comics", "news", "é", ""]
        for name in names {
            let shards = (1...count).filter { Shard(parsing: "\($0)/\(count)")?.contains(name) == true }
            #expect(shards.count == 1, "\(name) is in shards \(shards) of \(count)")
        }
        if count > 1 {
            let sizes = (1...count).map { index in names.filter { Shard(parsing: "\(index)/\(count)")?.contains($0) == true }.count }
            #expect(sizes.allSatisfy { $0 > names.count / count / 2 }, "shards are roughly even: \(sizes)")
        }
    }

    @Test func shardsAreCheckedWhenGiven() {
        for bad in ["0/3", "4/3", "1/0", "a/b", "1", "1/2/3", "1/1001"] {
            #expect(Shard(parsing: bad) == nil, "\(bad)")
        }
    }
}
