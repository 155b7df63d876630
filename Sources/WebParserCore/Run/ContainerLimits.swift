import FoundationEssentials
import WebParser

/// The CPU and memory a container (a cgroup, v2 or v1) gives webparse, when it gives less than the machine has:
/// in a Kubernetes pod or a `docker run --cpus 1 --memory 1g`, the machine's cores and RAM are the node's, and a
/// run sized by them is throttled, or killed for memory.
package struct ContainerLimits: Equatable {
    /// The cores the CPU quota allows (quota ÷ period, rounded up), if there is a quota.
    package var cores: Int?
    /// The memory limit in bytes, if there is one.
    package var memory: UInt64?

    package init(cores: Int? = nil, memory: UInt64? = nil) {
        self.cores = cores
        self.memory = memory
    }

    /// The limits of this process's cgroup and of the cgroups above it (the tightest of each), read under `root`
    /// ("/" on a real system; tests give a folder with fake `proc/self/cgroup` and `sys/fs/cgroup` files). No
    /// limit where the files are missing or say none.
    package static func read(root: URL = URL(fileURLWithPath: "/")) -> ContainerLimits {
        let cgroupFS = root.appendingPathComponent("sys/fs/cgroup")
        let membership = InputFile.kernelText(root.appendingPathComponent("proc/self/cgroup").path) ?? ""
        var limits = ContainerLimits()
        for line in membership.split(separator: "\n") {
            // "0::/kubepods/pod1" (v2), "4:cpu,cpuacct:/docker/abc" or "9:memory:/docker/abc" (v1).
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3 else { continue }
            let controllers = Set(parts[1].split(separator: ",").map(String.init))
            let path = String(parts[2])
            if parts[0] == "0" && parts[1].isEmpty {
                for folder in folders(cgroupFS, path) {
                    limits.tighten(cores: v2Cores(at: folder), memory: bytes(at: folder.appendingPathComponent("memory.max")))
                }
            }
            // v1 mounts each hierarchy at the name of its controllers ("cpu,cpuacct"), usually with a link per
            // controller ("cpu").
            let mounts = Set(["cpu", "memory", String(parts[1])]).map { cgroupFS.appendingPathComponent($0) }
            if controllers.contains("cpu") {
                for folder in mounts.flatMap({ folders($0, path) }) {
                    limits.tighten(cores: v1Cores(at: folder), memory: nil)
                }
            }
            if controllers.contains("memory") {
                for folder in mounts.flatMap({ folders($0, path) }) {
                    limits.tighten(cores: nil, memory: bytes(at: folder.appendingPathComponent("memory.limit_in_bytes")))
                }
            }
        }
        return limits
    }

    /// The limits of this process's container, read once.
    package static let current = read()

    /// The cores to size a run by: the quota's, or the machine's when it allows more.
    package func cores(machine: Int) -> Int { min(machine, cores ?? machine) }

    private mutating func tighten(cores: Int?, memory: UInt64?) {
        if let cores { self.cores = min(self.cores ?? cores, cores) }
        if let memory { self.memory = min(self.memory ?? memory, memory) }
    }

    /// The folder of the cgroup at `path` under `mount` and each folder above it up to `mount`; in a container
    /// whose cgroup namespace shows its own cgroup as "/", that is `mount` alone.
    private static func folders(_ mount: URL, _ path: String) -> [URL] {
        var folders: [URL] = []
        var components = path.split(separator: "/").map(String.init)
        while true {
            folders.append(components.reduce(mount) { $0.appendingPathComponent($1) })
            guard !components.isEmpty else { return folders }
            components.removeLast()
        }
    }

    /// v2: `cpu.max` is "QUOTA PERIOD" or "max PERIOD".
    private static func v2Cores(at folder: URL) -> Int? {
        guard let fields = text(at: folder.appendingPathComponent("cpu.max"))?.split(separator: " "), fields.count == 2,
            let quota = Double(fields[0]), let period = Double(fields[1])
        else { return nil }
        return cores(quota: quota, period: period)
    }

    /// v1: `cpu.cfs_quota_us` (-1 for none) over `cpu.cfs_period_us`.
    private static func v1Cores(at folder: URL) -> Int? {
        guard let quota = text(at: folder.appendingPathComponent("cpu.cfs_quota_us")).flatMap(Double.init),
            let period = text(at: folder.appendingPathComponent("cpu.cfs_period_us")).flatMap(Double.init)
        else { return nil }
        return cores(quota: quota, period: period)
    }

    private static func cores(quota: Double, period: Double) -> Int? {
        guard quota > 0, period > 0 else { return nil }
        return max(1, Int((quota / period).rounded(.up)))
    }

    /// A memory limit file's bytes: nil for "max" (v2) or v1's "no limit" (a number near 2^63).
    private static func bytes(at file: URL) -> UInt64? {
        guard let value = text(at: file).flatMap(UInt64.init), value < 1 << 60 else { return nil }
        return value
    }

    private static func text(at file: URL) -> String? {
        InputFile.kernelText(file.path)?.trimmingWhitespace()
    }
}
