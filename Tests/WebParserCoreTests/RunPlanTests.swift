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
        let few = try RunPlan(config: sites, only: ["news"], settings: RunSettings(concurrency: 4), limits: ContainerLimits())
        #expect(few.concurrency == 4)
        #expect(few.sessionConfiguration(storage: .ephemeral, proxy: nil).recycleAfter == 1)
        #expect(few.sessionConfiguration(storage: .ephemeral, proxy: nil).memoryLimit == WebParserSession.Configuration.defaultMemoryLimit)
    }

    /// A crawl or a follow loads page after page in one job: its pages are reused like those of many jobs (found
    /// by the crawl benchmark: with a new web process for every page, a crawl took three times as long).
    @Test(arguments: [#""crawl": {}"#, #""follow": {"field": "url", "extract": {"fields": {"title": "h1"}}}"#])
    func aJobThatCrawlsOrFollowsReusesItsPages(field: String) throws {
        let plan = try RunPlan(
            config: config(#"{"url": "https://a.test/", "extract": {"items": "li", "fields": {"url": "a@href"}}, \#(field)}"#),
            settings: RunSettings(concurrency: 4), limits: ContainerLimits())
        #expect(plan.jobs.count == 1)
        #expect(plan.sessionConfiguration(storage: .ephemeral, proxy: nil).recycleAfter == WebParserSession.Configuration.defaultRecycleAfter)
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

/// The defaults sized by a container's cgroup limits, read from fake cgroup files (v2 and v1).
@Suite struct ContainerLimitsTests {
    /// A folder holding `files` (paths relative to it) as a fake root.
    func root(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cgroup-\(UUID().uuidString)")
        for (path, text) in files {
            let file = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
        return root
    }

    @Test func aV2QuotaAndMemoryLimitAreReadFromTheCgroupAndItsParents() throws {
        let limited = try root([
            "proc/self/cgroup": "0::/kubepods/pod1/box\n",
            "sys/fs/cgroup/kubepods/pod1/box/cpu.max": "max 100000\n",
            "sys/fs/cgroup/kubepods/pod1/cpu.max": "150000 100000\n",
            "sys/fs/cgroup/kubepods/pod1/box/memory.max": "1073741824\n",
            "sys/fs/cgroup/kubepods/memory.max": "max\n"
        ])
        #expect(ContainerLimits.read(root: limited) == ContainerLimits(cores: 2, memory: 1 << 30))
        let namespaced = try root(["proc/self/cgroup": "0::/\n", "sys/fs/cgroup/cpu.max": "50000 100000\n", "sys/fs/cgroup/memory.max": "max\n"])
        #expect(ContainerLimits.read(root: namespaced) == ContainerLimits(cores: 1, memory: nil))
        #expect(ContainerLimits.read(root: try root([:])) == ContainerLimits())
    }

    @Test func aV1QuotaAndMemoryLimitAreRead() throws {
        let limited = try root([
            "proc/self/cgroup": "4:memory:/docker/abc\n3:cpu,cpuacct:/docker/abc\n0::/\n",
            "sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us": "300000\n",
            "sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us": "100000\n",
            "sys/fs/cgroup/memory/memory.limit_in_bytes": "536870912\n"
        ])
        #expect(ContainerLimits.read(root: limited) == ContainerLimits(cores: 3, memory: 512 << 20))
        let unlimited = try root([
            "proc/self/cgroup": "4:memory:/\n1:cpu:/\n",
            "sys/fs/cgroup/cpu/cpu.cfs_quota_us": "-1\n",
            "sys/fs/cgroup/cpu/cpu.cfs_period_us": "100000\n",
            "sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n"
        ])
        #expect(ContainerLimits.read(root: unlimited) == ContainerLimits())
    }

    /// Pages at once and a web process's memory limit follow the container's CPU quota and memory limit; options
    /// and a config still win.
    @Test func theDefaultsFitTheContainer() throws {
        #expect(RunSettings.defaultConcurrency(ContainerLimits(), machineCores: 16) == 8)
        #expect(RunSettings.defaultConcurrency(ContainerLimits(cores: 1), machineCores: 16) == 2)
        #expect(RunSettings.defaultConcurrency(ContainerLimits(cores: 4, memory: 1 << 30), machineCores: 16) == 3)
        #expect(RunSettings.defaultConcurrency(ContainerLimits(memory: 256 << 20), machineCores: 16) == 1)

        let config = try ConfigLoader.parse(
            Array(#"{"jobs": [{"name": "a", "url": "https://a.test/", "script": "1"}, {"name": "b", "url": "https://b.test/", "script": "1"}]}"#.utf8),
            name: "plan.json", directory: URL(fileURLWithPath: "/tmp"))
        let small = try RunPlan(config: config, limits: ContainerLimits(cores: 4, memory: 1 << 30))
        #expect(small.concurrency == 3)
        #expect(small.sessionConfiguration(storage: .ephemeral, proxy: nil).pagesPerProcess == 4, "memory is the constraint")
        #expect(small.sessionConfiguration(storage: .ephemeral, proxy: nil).memoryLimit == 768, "(1024 - 256) MiB for one process of three pages")
        let free = try RunPlan(config: config, limits: ContainerLimits())
        #expect(free.sessionConfiguration(storage: .ephemeral, proxy: nil).memoryLimit == WebParserSession.Configuration.defaultMemoryLimit)
        #expect(free.sessionConfiguration(storage: .ephemeral, proxy: nil).pagesPerProcess == WebParserSession.Configuration.defaultPagesPerProcess)
        let chosen = try RunPlan(config: config, settings: RunSettings(concurrency: 6, memoryLimit: 1500), limits: ContainerLimits(memory: 1 << 30))
        #expect(chosen.concurrency == 6)
        #expect(chosen.sessionConfiguration(storage: .ephemeral, proxy: nil).memoryLimit == 1500)
        #expect(chosen.sessionConfiguration(storage: .ephemeral, proxy: nil).pagesPerProcess == 4)
        let limited = try RunPlan(config: config, settings: RunSettings(memoryLimit: 600), limits: ContainerLimits())
        #expect(limited.sessionConfiguration(storage: .ephemeral, proxy: nil).pagesPerProcess == 4, "a memory limit given")
        let two = try RunPlan(config: config, settings: RunSettings(memoryLimit: 600, pagesPerProcess: 2), limits: ContainerLimits(memory: 1 << 30))
        #expect(two.sessionConfiguration(storage: .ephemeral, proxy: nil).pagesPerProcess == 2, "the settings say how many")
    }
}
