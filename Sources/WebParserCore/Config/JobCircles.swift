/// The circles among jobs that wait for each other (`after`), found in time linear in the jobs and their waits.
struct JobCircles {
    /// Each circle once, as job indexes: it starts at its first job in file order, each job waits for the next,
    /// and the last waits for the first. Circles come in the order of their first jobs.
    let circles: [[Int]]

    /// Finds the circles of `waitsFor`, where `waitsFor[i]` holds the indexes of the jobs job `i` waits for.
    init(_ waitsFor: [[Int]]) {
        let groups = Self.stronglyConnected(waitsFor)
        var circles: [[Int]] = []
        for group in groups {
            let members = Set(group)
            guard let start = group.min(), group.count > 1 || waitsFor[start].contains(start) else { continue }
            circles.append(Self.way(from: start, backTo: start, within: members, waitsFor))
        }
        circles.sort { $0[0] < $1[0] }
        self.circles = circles
    }

    /// The shortest way from `start` (included) to a job that waits for `target`, inside `members`.
    private static func way(from start: Int, backTo target: Int, within members: Set<Int>, _ waitsFor: [[Int]]) -> [Int] {
        var cameFrom: [Int: Int] = [start: start]
        var queue = [start]
        var head = 0
        while head < queue.count {
            let job = queue[head]
            head += 1
            for next in waitsFor[job] where members.contains(next) {
                if next == target {
                    var way = [job]
                    while let last = way.last, let previous = cameFrom[last], previous != last { way.append(previous) }
                    return way.reversed()
                }
                if cameFrom[next] == nil {
                    cameFrom[next] = job
                    queue.append(next)
                }
            }
        }
        return [start]
    }

    /// Tarjan's strongly connected components, without recursion (a chain of 100,000 jobs must not overflow the
    /// stack).
    private static func stronglyConnected(_ edges: [[Int]]) -> [[Int]] {
        var index = Array(repeating: -1, count: edges.count)
        var low = Array(repeating: 0, count: edges.count)
        var onStack = Array(repeating: false, count: edges.count)
        var stack: [Int] = []
        var groups: [[Int]] = []
        var counter = 0
        for root in edges.indices where index[root] < 0 {
            var work: [(node: Int, edge: Int)] = [(root, 0)]
            index[root] = counter; low[root] = counter; counter += 1
            stack.append(root); onStack[root] = true
            while let (node, edge) = work.last {
                if edge < edges[node].count {
                    work[work.count - 1].edge += 1
                    let next = edges[node][edge]
                    if index[next] < 0 {
                        index[next] = counter; low[next] = counter; counter += 1
                        stack.append(next); onStack[next] = true
                        work.append((next, 0))
                    } else if onStack[next] {
                        low[node] = min(low[node], index[next])
                    }
                    continue
                }
                work.removeLast()
                if let parent = work.last { low[parent.node] = min(low[parent.node], low[node]) }
                guard low[node] == index[node] else { continue }
                var group: [Int] = []
                while let member = stack.popLast() {
                    onStack[member] = false
                    group.append(member)
                    if member == node { break }
                }
                groups.append(group)
            }
        }
        return groups
    }
}
