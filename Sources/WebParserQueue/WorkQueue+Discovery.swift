import FoundationEssentials

extension WorkQueue {
    /// A page a crawl or a follow found: its URL (in the one form a crawl loads once) and its item.
    public struct FoundPage: Sendable {
        /// The page's URL, in the one form a crawl loads once.
        public let url: String
        /// The item that loads it.
        public let item: Data

        /// The page at `url`, queued as `item`.
        public init(url: String, item: Data) {
            self.url = url
            self.item = item
        }
    }

    /// What `discover` did with the pages a crawl's page or a follow's list found.
    public struct Discovery: Equatable, Sendable {
        /// The pages queued: no worker had seen them.
        public let queued: Int
        /// The pages not queued because the crawl had reached its most pages.
        public let leftAtMaxPages: Int
        /// Whether the page's load ended at a page another item of the job read: nothing was queued, and the page is
        /// not read twice (`CrawlFrontier.Arrival.duplicate`).
        public var isDuplicate = false
    }

    /// Marks `KEYS[1]` (seen) with the page `ARGV[2]` (counting it in `KEYS[3]` when it is new) and with `ARGV[3]`, where
    /// the page's load ended; answers {0, 0, 1} when another page's load ended there before (the hash `KEYS[4]` keeps
    /// which page each load ended at), else, for each pair of a URL and an item after it, queues the item at the tail
    /// of `KEYS[2]` if the URL was not seen and the count is below `ARGV[1]`, and answers the number queued, the number
    /// left at the most pages and 0.
    private static let discover = """
        if redis.call('SADD', KEYS[1], ARGV[2]) == 1 then redis.call('INCR', KEYS[3]) end
        redis.call('SADD', KEYS[1], ARGV[3])
        local by = redis.call('HGET', KEYS[4], ARGV[3])
        if by and by ~= ARGV[2] then return {0, 0, 1} end
        redis.call('HSET', KEYS[4], ARGV[3], ARGV[2])
        local queued, left = 0, 0
        for i = 4, #ARGV, 2 do
          if redis.call('SISMEMBER', KEYS[1], ARGV[i]) == 0 then
            if tonumber(redis.call('GET', KEYS[3]) or '0') < tonumber(ARGV[1]) then
              redis.call('SADD', KEYS[1], ARGV[i])
              redis.call('INCR', KEYS[3])
              redis.call('RPUSH', KEYS[2], ARGV[i + 1])
              queued = queued + 1
            else
              left = left + 1
            end
          end
        end
        return {queued, left, 0}
        """

    /// Marks the page `url` of the crawl or list named `job` seen (`NAME:seen`, across every worker), and `ended`, where
    /// its load ended after its redirects (so that no worker loads it again), and queues the `found` pages no worker
    /// saw, while `job` has loaded or queued fewer than `maxPages` pages (counted in `NAME:pages:JOB`), in one atomic
    /// step: a page is queued once, whichever workers find it, and a reply lost and sent again queues nothing twice.
    /// When another page of `job` had ended at `ended` (`NAME:arrived:JOB`), nothing is queued and the answer says
    /// it is a duplicate.
    public func discover(
        _ found: [FoundPage], from url: String, endedAt ended: String? = nil, of job: String, maxPages: Int
    ) async throws(RedisConnection.Failure) -> Discovery {
        try await run { () throws(RedisConnection.Failure) in
            let keys = [self.keys.seen, self.keys.queue, self.keys.pages(of: job), self.keys.arrivals(of: job)]
            let arguments =
                ["EVAL", Self.discover, "4"].map { Data($0.utf8) } + keys.map { Data($0.utf8) } + [
                    Data(String(maxPages).utf8), Data(url.utf8), Data((ended ?? url).utf8)
                ]
                + found.flatMap { [Data($0.url.utf8), $0.item] }
            guard case .array(let counts) = try self.connection.retrying(arguments, within: self.retryWithin, onRetry: { _ in self.lostReplies = true }),
                counts.count == 3, case .integer(let queued) = counts[0], case .integer(let left) = counts[1],
                case .integer(let duplicate) = counts[2]
            else { throw .server("the discover script answered with something other than three numbers") }
            return Discovery(queued: queued, leftAtMaxPages: left, isDuplicate: duplicate == 1)
        }
    }
}
