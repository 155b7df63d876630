import FoundationEssentials

extension WorkQueue {
    /// The milliseconds since the epoch by Redis' clock, the one clock every worker shares: `now`, in a script.
    private static let clock = """
        local time = redis.call('TIME')
        local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)

        """

    /// Keeps the hash `KEYS[1]` of a host at least until `moment` (milliseconds by Redis' clock) and ten minutes more.
    private static let keep = """
        local function keep(moment)
          local left = math.max(redis.call('PTTL', KEYS[1]), moment - now + 600000)
          redis.call('PEXPIRE', KEYS[1], left)
        end

        """

    /// Takes a place among the host's places `KEYS[1]` (a sorted set of holders by the end of their lease) for
    /// `ARGV[1]`, leased for `ARGV[3]` ms, when fewer than `ARGV[2]` live: answers 1, or 0 when all are taken.
    private static let enter =
        clock + """
            redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
            if redis.call('ZSCORE', KEYS[1], ARGV[1]) == false and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
            redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
            redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
            return 1
            """

    /// Renews the lease of `ARGV[1]`'s place among the host's places `KEYS[1]` for `ARGV[2]` ms, if it still has one.
    private static let renew =
        clock + """
            if redis.call('ZSCORE', KEYS[1], ARGV[1]) == false then return 0 end
            redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
            redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
            return 1
            """

    /// Takes the turn of the host whose hash is `KEYS[1]` when it is not paused, its next start has come and no load
    /// is starting, the next start then `ARGV[1]` ms away and, with a delay, a load starting for `ARGV[2]` ms at
    /// most: answers 0, or the milliseconds to wait before asking again (`ARGV[3]` at most while a load starts).
    private static let turn =
        clock + keep + """
            local start = math.max(tonumber(redis.call('HGET', KEYS[1], 'paused') or '0'), tonumber(redis.call('HGET', KEYS[1], 'next') or '0'))
            if start > now then return start - now end
            local starting = tonumber(redis.call('HGET', KEYS[1], 'starting') or '0')
            if starting > now then return math.min(starting - now, tonumber(ARGV[3])) end
            if tonumber(ARGV[1]) > 0 then
              redis.call('HSET', KEYS[1], 'next', now + tonumber(ARGV[1]), 'starting', now + tonumber(ARGV[2]))
              keep(now + tonumber(ARGV[1]))
            end
            return 0
            """

    /// The load whose turn came at the host whose hash is `KEYS[1]` started: its next start is `ARGV[1]` ms away at
    /// the earliest, and no load is starting.
    private static let started =
        clock + keep + """
            local next = math.max(tonumber(redis.call('HGET', KEYS[1], 'next') or '0'), now + tonumber(ARGV[1]))
            redis.call('HSET', KEYS[1], 'next', next, 'starting', 0)
            keep(next)
            return 0
            """

    /// Pauses the host whose hash is `KEYS[1]` for `ARGV[1]` ms from now, unless it already is for longer.
    private static let pause =
        clock + keep + """
            local moment = math.max(tonumber(redis.call('HGET', KEYS[1], 'paused') or '0'), now + tonumber(ARGV[1]))
            redis.call('HSET', KEYS[1], 'paused', moment)
            keep(moment)
            return moment - now
            """

    /// The hash of `host`'s limits: when its next load may start, until when it is paused, its refusals in a row.
    func hostKey(_ host: String) -> String { keys.queue + ":host:" + host }

    /// Takes one of `host`'s `perHost` places for `holder`, across every worker of the queue, once one is free: a
    /// place is leased as the worker's items are, renewed by its heartbeat, so that a worker that dies holds none
    /// once its lease ends.
    /// - Throws: `RedisConnection.Failure` when Redis cannot be used; `CancellationError` when cancelled.
    public func enterHost(_ host: String, perHost: Int, as holder: String) async throws {
        let places = hostKey(host) + ":places"
        let token = worker + " " + holder
        while true {
            let entered = try await run { () throws(RedisConnection.Failure) in
                let lease = String(max(Int(self.lease.seconds * 1000), 1))
                guard try self.eval(Self.enter, keys: [places], arguments: [token, String(perHost), lease]) == 1 else { return false }
                self.places[token] = places
                return true
            }
            if entered { return }
            try await Task.sleep(for: .milliseconds(Int.random(in: 50...150)))
        }
    }

    /// Gives back `holder`'s place at `host`.
    public func leaveHost(_ host: String, as holder: String) async {
        let token = worker + " " + holder
        _ = try? await run { () throws(RedisConnection.Failure) in
            self.places[token] = nil
            try self.send(["ZREM", self.hostKey(host) + ":places", token])
        }
    }

    /// Takes `host`'s turn to start a load, across every worker, when it is not paused, `delay` has passed since its
    /// last start and no load whose turn came is still starting (`startingLimit` at most), and answers nil; otherwise
    /// answers how long to wait before asking again (`startingPoll` at most while a load starts).
    /// - Throws: `RedisConnection.Failure` when Redis cannot be used.
    public func hostTurn(
        _ host: String, delay: Duration, startingLimit: Duration = .seconds(5), startingPoll: Duration = .milliseconds(20)
    ) async throws(RedisConnection.Failure) -> Duration? {
        let wait = try await run { () throws(RedisConnection.Failure) in
            try self.eval(
                Self.turn, keys: [self.hostKey(host)], arguments: [delay, startingLimit, startingPoll].map { String(Int($0.seconds * 1000)) })
        }
        return wait > 0 ? .milliseconds(wait) : nil
    }

    /// The load whose turn came at `host` started, or will not: the next turn comes `delay` from now at the earliest.
    /// - Throws: `RedisConnection.Failure` when Redis cannot be used.
    public func hostStarted(_ host: String, delay: Duration) async throws(RedisConnection.Failure) {
        try await run { () throws(RedisConnection.Failure) in
            try self.eval(Self.started, keys: [self.hostKey(host)], arguments: [String(Int(delay.seconds * 1000))])
        }
    }

    /// Starts no load at `host`, in any worker, for `pause` from now (a pause already longer stands).
    /// - Throws: `RedisConnection.Failure` when Redis cannot be used.
    public func pauseHost(_ host: String, for pause: Duration) async throws(RedisConnection.Failure) {
        try await run { () throws(RedisConnection.Failure) in
            try self.eval(Self.pause, keys: [self.hostKey(host)], arguments: [String(Int(pause.seconds * 1000))])
        }
    }

    /// Counts a refusal of `host` without a Retry-After and answers how many came in a row, across every worker.
    /// - Throws: `RedisConnection.Failure` when Redis cannot be used.
    public func strikeHost(_ host: String) async throws(RedisConnection.Failure) -> Int {
        try await run { () throws(RedisConnection.Failure) in
            guard case .integer(let count) = try self.send(["HINCRBY", self.hostKey(host), "strikes", "1"]) else { return 1 }
            return count
        }
    }

    /// Forgets `host`'s refusals: a page of it loaded.
    /// - Throws: `RedisConnection.Failure` when Redis cannot be used.
    public func forgiveHost(_ host: String) async throws(RedisConnection.Failure) {
        try await run { () throws(RedisConnection.Failure) in try self.send(["HDEL", self.hostKey(host), "strikes"]) }
    }

    /// Renews the leases of the host places this worker holds; on the queue's thread.
    func renewPlaces() throws(RedisConnection.Failure) {
        let lease = String(max(Int(lease.seconds * 1000), 1))
        for (token, places) in places {
            try eval(Self.renew, keys: [places], arguments: [token, lease])
        }
    }

    /// Runs the Lua `script` with `keys` and `arguments`, answering its number; on the queue's thread.
    @discardableResult
    private func eval(_ script: String, keys: [String], arguments: [String]) throws(RedisConnection.Failure) -> Int {
        guard case .integer(let answer) = try send(["EVAL", script, String(keys.count)] + keys + arguments) else {
            throw .server("a host's script answered with something other than a number")
        }
        return answer
    }
}
