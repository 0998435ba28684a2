/// One ratio target: `numerator / (sum of denominators)` against a bound.
struct Target {
    let label: String
    let numerator: String
    let denominators: [String]
    let bound: Double
    /// `true`: the ratio must be at most `bound`; `false`: at least.
    let atMost: Bool
    /// A bound on the numerator's own time in milliseconds, not a ratio.
    let isAbsoluteMilliseconds: Bool

    init(_ numerator: String, _ relation: String, _ bound: Double, _ denominators: [String]) {
        self.numerator = numerator
        self.denominators = denominators
        self.bound = bound
        self.atMost = relation == "<="
        self.isAbsoluteMilliseconds = denominators.isEmpty
        if denominators.isEmpty {
            label = "\(numerator) \(relation) \(Report.number(bound)) ms"
        } else {
            let base =
                denominators.count == 1 ? denominators[0] : "(\(denominators.joined(separator: " + ")))"
            label = "\(numerator) \(relation) \(Report.number(bound)) x \(base)"
        }
    }

    static let all: [Target] = [
        // The gate against the read it guards.
        Target("proxy-4-gates-disk-32k", "<=", 2, ["disk-load-32k"]),
        // A listing by the plan against one that decides every name.
        Target("list-each-100k", ">=", 20, ["list-plan-100k"]),
        Target("list-owner-each-100k", ">=", 20, ["list-owner-plan-100k"]),
        // A remote listing in Access Evaluations pages against one request per name.
        Target("list-remote-each-1k", ">=", 10, ["list-remote-batch-1k"]),
        Target("disk-load-32k", "<=", 1.6, ["raw-read-32k"]),
        // Flat in rules.
        Target("scale-rules-1m", "<=", 1.5, ["scale-rules-100"]),
        Target("rules-engine-100k", "<=", 3, ["rules-engine-100"]),
        Target("file-policy-groups-100k", "<=", 1.5, ["file-policy-100"]),
        Target("file-policy-placeholders-100k", "<=", 1.5, ["file-policy-100"]),
        Target("file-policy-reload-100k", "<=", 250, []),
        // Invariants checked at every reload (docs/invariants.md).
        Target("load-invariants-100k", "<=", 3, ["load-100k"]),
        // An exact diff against loading one version.
        Target("diff-10k", "<=", 5, ["load-10k"]),
        // Kept.
        Target("time-window", "<=", 1.5, ["direct-memory-load"]),
        Target("cache-hit", "<=", 1.3, ["memory-load"]),
        Target("nscache-insert-100k", ">=", 10, ["lru-insert-100k"]),
        // Throughput: one task's time per load over two tasks' (wall clock per load).
        Target("concurrent-4-gates-1-task", ">=", 1.6, ["concurrent-4-gates-2-tasks"]),
    ]

    /// Retired targets: ratios still reported, without a bound. A gate over an in-memory
    /// dictionary look-up measures nanoseconds that the loads it guards make invisible.
    static let retired: [Target] = [
        Target("proxy-1-gate", "<=", 2, ["direct-memory-load"]),
        Target("proxy-allowlist-1m", "<=", 2.5, ["direct-memory-load"]),
        Target("proxy-4-gates", "<=", 1.5, ["direct-memory-load", "stat-syscall"]),
        Target("file-policy-100k", "<=", 2, ["stat-syscall"]),
    ]

    /// Throughput ratios reported without a bound: one task's time per operation over two
    /// tasks' wall-clock time per operation (2 would be two cores used fully). The `stat` ratio
    /// is what the kernel gives two cores on this machine, a ceiling for cases that `stat`.
    static let scaling: [(label: String, one: String, two: String)] = [
        ("concurrent-1-task / concurrent-2-tasks", "concurrent-1-task", "concurrent-2-tasks"),
        ("stat-syscall / stat-syscall-2-tasks", "stat-syscall", "stat-syscall-2-tasks"),
    ]

    /// The measured value (a ratio, or milliseconds), whether it meets the bound, and the ratio
    /// of the cases' medians; `nil` when a case it needs was not run.
    ///
    /// A ratio is the median over rounds of each round's ratio: the cases of one round run
    /// one after the other, so a slow spell of this shared machine slows both sides of that
    /// round's ratio, where a ratio of medians can take its numerator from a slow round and its
    /// denominator from a fast one. The ratio of the medians is given beside it.
    func check(_ results: [String: BenchResult]) -> (value: Double, passed: Bool, ofMedians: Double)? {
        guard let top = results[numerator] else { return nil }
        let value: Double
        let ofMedians: Double
        if isAbsoluteMilliseconds {
            value = top.nanosecondsPerOperation / 1_000_000
            ofMedians = value
        } else {
            var bottoms: [BenchResult] = []
            for name in denominators {
                guard let part = results[name] else { return nil }
                bottoms.append(part)
            }
            ofMedians = top.nanosecondsPerOperation / bottoms.reduce(0) { $0 + $1.nanosecondsPerOperation }
            let rounds = top.byRound.count
            if bottoms.allSatisfy({ $0.byRound.count == rounds }) {
                let ratios = (0..<rounds).map { round in
                    top.byRound[round] / bottoms.reduce(0) { $0 + $1.byRound[round] }
                }.sorted()
                value = ratios[ratios.count / 2]
            } else {
                value = ofMedians
            }
        }
        return (value, atMost ? value <= bound : value >= bound, ofMedians)
    }
}

/// Every case name the bench knows, for `--filter`.
let allCaseNames: Set<String> = [
    "rules-engine-100", "rules-engine-100k",
    "direct-memory-load", "proxy-1-gate", "stat-syscall", "proxy-allowlist-1m", "proxy-4-gates",
    "file-policy-100", "file-policy-100k", "file-policy-reload-100k", "file-policy-groups-100k",
    "file-policy-placeholders-100k", "time-window", "disk-load-32k",
    "raw-read-32k", "proxy-4-gates-disk-32k", "memory-load", "cache-hit", "lru-insert-100k",
    "nscache-insert-100k",
    "concurrent-1-task", "concurrent-2-tasks", "stat-syscall-2-tasks", "concurrent-4-gates-1-task",
    "concurrent-4-gates-2-tasks", "remote-opa-loopback", "scale-gates-1", "scale-gates-2", "scale-gates-4",
    "scale-gates-8", "scale-rules-100", "scale-rules-10k", "scale-rules-100k", "scale-rules-1m",
    "decision-log-100k", "list-plan-100k", "list-each-100k", "list-owner-plan-100k", "list-owner-each-100k",
    "list-remote-batch-1k", "list-remote-each-1k",
    "load-100k", "load-invariants-100k", "load-10k", "diff-10k",
]
