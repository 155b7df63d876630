import FoundationEssentials
import WebParser

/// A work queue worker's config (`webparse work URL CONFIG`): what applies to every item it takes — the `defaults`
/// of a config's jobs, the run's settings and the session's — and no jobs: the queue's items are its jobs.
package struct WorkerConfig: Sendable {
    /// The job fields every item starts from.
    package var defaults = ConfigReader.Defaults()
    package var run = RunSettings()
    package var session = SessionSettings()
    /// The folder the config's relative paths are read from.
    package var directory: URL
    /// The folder in which the queue's items may write the files they name (a screenshot), by name only; nil: items
    /// write no file.
    package var itemFiles: URL?

    /// The key of `itemFiles`.
    static let itemFilesKey = "itemFiles"

    /// A worker without a config: no defaults, paths relative to the working directory.
    package init(directory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) {
        self.directory = directory
    }

    /// The worker config at `path` ("-": stdin), whose `{"env": NAME}` values are looked up in `environment`.
    /// - Throws: `ConfigError` naming the file and every problem: not JSON, an unknown key, a `jobs` list (the
    ///   queue's items are the jobs), a default or setting with a wrong value.
    package static func load(path: String, environment: [String: String]) throws(ConfigError) -> WorkerConfig {
        try ConfigLoader.load(path: path, environment: environment) { reader, root, directory in reader.workerConfig(from: root, directory: directory) }
    }
}

extension ConfigReader {
    /// The worker config `root` is, its paths relative to `directory`; nil when it is not an object.
    mutating func workerConfig(from root: JSONNode, directory: URL) -> WorkerConfig? {
        guard case .object(let members) = root.value else {
            fields.problem("", at: .node(root), "expected a JSON object ({\"defaults\": {…}} and the run's settings), got \(root.kindDescription)")
            return nil
        }
        var config = WorkerConfig(directory: directory)
        let keys = ["defaults", "$schema", WorkerConfig.itemFilesKey] + RunFields.all.map(\.key) + SessionFields.all.map(\.key)
        for (key, node) in members {
            RunFields.all.first { $0.key == key }?.read(&fields, key, .node(node), &config.run)
            SessionFields.all.first { $0.key == key }?.read(&fields, key, .node(node), &config.session)
            if key == "jobs" || JobFields.all.contains(where: { $0.key == key }) {
                fields.problem(
                    key, at: .node(node),
                    "a worker's config has no jobs: the queue's items are its jobs (job fields for every item go in \"defaults\")")
            } else if !keys.contains(key) {
                fields.problem(key, at: .node(node), "unknown key" + Self.suggestion(for: key, among: keys))
            }
        }
        config.defaults = defaults(members.first { $0.key == "defaults" }?.value)
        if let node = members.first(where: { $0.key == WorkerConfig.itemFilesKey })?.value {
            config.itemFiles = fields.writableFolder(WorkerConfig.itemFilesKey, .node(node))
        }
        return config
    }
}
