import Foundation
import TestSupport
import Testing
import WebParserCore

@testable import webparse

/// The Kubernetes examples are valid objects (kubernetes-validate, strict), carry a valid config, give webparse
/// arguments it accepts, and run as the Containerfile's user under the "restricted" security standard.
@Suite struct DeploymentExampleTests: CommandLineTest {
    static let folder = CLITests.packageRoot.appending(path: "Examples/kubernetes")

    /// What `python3 -c code` prints, with the Python that Scripts/install-packages.sh gave kubernetes-validate.
    func python(_ code: String, _ arguments: [String] = []) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = CLITests.packageRoot.appending(path: ".build/tools/python/bin/python3")
        process.arguments = ["-c", code] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test func theKubernetesObjectsAreValid() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(files == ["config.yaml", "cronjob.yaml", "indexed-job.yaml", "state.yaml", "work-queue.yaml"])
        let validate = try python(
            "import sys, kubernetes_validate.__main__ as m; sys.argv = ['kubernetes-validate', '--strict'] + sys.argv[1:]; sys.exit(m.main())",
            files.map { Self.folder.appending(path: $0).path })
        #expect(validate.status == 0, "\(validate.output)")
        // work-queue.yaml holds four objects: Redis' Deployment and Service, the filling Job and the workers' Job.
        #expect(validate.output.components(separatedBy: " passed for resource ").count == files.count + 4, "\(validate.output)")
    }

    @Test func theirConfigAndArgumentsAreWebparses() async throws {
        let extract = """
            import json, sys, yaml
            docs = {d["metadata"]["name"]: d for f in sys.argv[1:] for d in yaml.safe_load_all(open(f))}
            pod = lambda name: docs[name]["spec"]["template"]["spec"]
            print(json.dumps({"config": docs["webparse-config"]["data"]["comics.json"],
                              "worker": docs["webparse-config"]["data"]["worker.json"],
                              "cron": docs["webparse-comics"]["spec"]["jobTemplate"]["spec"]["template"]["spec"]["containers"][0]["args"],
                              "indexed": pod("webparse-sharded")["containers"][0]["args"][0],
                              "work": pod("webparse-workers")["containers"][0]["args"],
                              "probes": [pod("webparse-workers")["containers"][0][p]["httpGet"]["path"] for p in ["readinessProbe", "livenessProbe"]],
                              "scrape": docs["webparse-workers"]["spec"]["template"]["metadata"]["annotations"],
                              "parallelism": docs["webparse-workers"]["spec"]["parallelism"],
                              "fill": pod("webparse-fill")["containers"][0]["command"]}))
            """
        let found = try python(extract, ["config.yaml", "cronjob.yaml", "indexed-job.yaml", "work-queue.yaml"].map { Self.folder.appending(path: $0).path })
        #expect(found.status == 0, "\(found.output)")
        struct Parts: Decodable {
            var config: String
            var worker: String
            var cron: [String]
            var indexed: String
            var work: [String]
            var probes: [String]
            var scrape: [String: String]
            var parallelism: Int
            var fill: [String]
        }
        let parts = try JSONDecoder().decode(Parts.self, from: Data(found.output.utf8))
        let config = try write(parts.config, "comics.json", in: try folder())
        let validated = try await webparse.run(["validate", config])
        #expect(validated.status == 0, "\(validated.stderr)")
        #expect(try RunCommand.command.parse(Array(parts.cron.dropFirst())) != nil, "the CronJob's arguments")
        let shard = parts.indexed.replacingOccurrences(of: "\"$((JOB_COMPLETION_INDEX + 1))/3\"", with: "2/3")
            .split(separator: " ").map(String.init).drop { $0 != "run" }.dropFirst()
        #expect(try RunCommand.command.parse(Array(shard)) != nil, "the Indexed Job's arguments")
        // The work queue: four workers of the queue the filling Job fills, with the ConfigMap's worker config, each
        // item of the fill an item a worker takes.
        #expect(parts.parallelism == 4)
        let work = try #require(try WorkCommand.command.parse(Array(parts.work.dropFirst())), "the workers' arguments")
        #expect(work.queue?.queue == "comics" && work.configPath == "/config/worker.json")
        // Probed and scraped on the port the workers serve their metrics on.
        #expect(work.metrics == ":9464" && parts.probes == ["/healthz", "/healthz"])
        #expect(parts.scrape == ["prometheus.io/scrape": "true", "prometheus.io/port": "9464", "prometheus.io/path": "/metrics"])
        let worker = try WorkerConfig.load(path: try write(parts.worker, "worker.json", in: try folder()), environment: [:])
        #expect(Array(parts.fill.prefix(5)) == ["redis-cli", "-h", "webparse-redis", "RPUSH", "comics"])
        let items = try parts.fill.dropFirst(5).map { try QueueItem(Data($0.utf8), named: "item", defaults: worker.defaults, itemFiles: worker.itemFiles) }
        #expect(items.count == 3 && items.filter { $0.named.crawl != nil }.count == 1)
        for item in items { #expect(item.named.job.evaluation.script.contains(".chapter a"), "the worker config's script reads every page") }
    }

    /// Every pod runs as the Containerfile's user and group, with no capabilities, no privilege escalation, the
    /// runtime's seccomp profile and a read-only root file system, with /tmp writable (Xvfb's socket).
    @Test func theirPodsAreRestrictedAndRunAsTheImagesUser() throws {
        let extract = """
            import json, sys, yaml
            pods = []
            for f in sys.argv[1:]:
                for d in yaml.safe_load_all(open(f)):
                    spec = d.get("spec", {})
                    spec = spec.get("jobTemplate", {}).get("spec", spec)
                    if "template" in spec:
                        pods.append(spec["template"]["spec"])
            print(json.dumps(pods))
            """
        let found = try python(extract, ["cronjob.yaml", "indexed-job.yaml", "work-queue.yaml"].map { Self.folder.appending(path: $0).path })
        #expect(found.status == 0, "\(found.output)")
        let all = try #require(try JSONSerialization.jsonObject(with: Data(found.output.utf8)) as? [[String: Any]])
        // Redis' pods (its Deployment, the filling Job) run as the redis image's own user, restricted as well.
        let isRedis = { (pod: [String: Any]) in
            (pod["containers"] as? [[String: Any]])?.first?["image"] as? String == "docker.io/library/redis:7-bookworm"
        }
        for pod in all.filter(isRedis) {
            let context = pod["securityContext"] as? [String: Any] ?? [:]
            #expect(context["runAsNonRoot"] as? Bool == true && context["runAsUser"] as? Int == 999)
            #expect((context["seccompProfile"] as? [String: String])?["type"] == "RuntimeDefault")
            for container in pod["containers"] as? [[String: Any]] ?? [] {
                let own = container["securityContext"] as? [String: Any] ?? [:]
                #expect(own["allowPrivilegeEscalation"] as? Bool == false && own["readOnlyRootFilesystem"] as? Bool == true)
                #expect((own["capabilities"] as? [String: [String]])?["drop"] == ["ALL"])
            }
        }
        let pods = all.filter { !isRedis($0) }
        #expect(all.count == 5 && pods.count == 3)
        let containerfile = try String(contentsOf: CLITests.packageRoot.appending(path: "Containerfile"), encoding: .utf8)
        #expect(containerfile.contains("groupadd --gid 10001 webparse") && containerfile.contains("useradd --no-log-init --uid 10001 --gid 10001"))
        for pod in pods {
            let context = pod["securityContext"] as? [String: Any] ?? [:]
            #expect(context["runAsNonRoot"] as? Bool == true)
            #expect(context["runAsUser"] as? Int == 10001 && context["runAsGroup"] as? Int == 10001)
            #expect((context["seccompProfile"] as? [String: String])?["type"] == "RuntimeDefault")
            for container in pod["containers"] as? [[String: Any]] ?? [] {
                let own = container["securityContext"] as? [String: Any] ?? [:]
                #expect(own["allowPrivilegeEscalation"] as? Bool == false)
                #expect(own["readOnlyRootFilesystem"] as? Bool == true)
                #expect((own["capabilities"] as? [String: [String]])?["drop"] == ["ALL"])
                let mounts = (container["volumeMounts"] as? [[String: Any]] ?? []).compactMap { $0["mountPath"] as? String }
                #expect(mounts.contains("/tmp") && mounts.contains("/data"), "writable /tmp and home (fontconfig's cache) under a read-only root")
            }
        }
    }
}
