import Dispatch
import GatehouseCore

/// One benchmark case: a name tools read, what it measures, and a body that performs `n`
/// operations and returns a checksum of their results (so the work cannot be optimized away).
struct BenchCase: Sendable {
    let name: String
    let summary: String
    /// Operations per run in a full run, and in a `--quick` run.
    let iterations: Int
    let quickIterations: Int
    /// Whether the case runs in a `--quick` run.
    let inQuickRun: Bool
    let body: @Sendable (Int) async throws -> Int

    init(
        _ name: String, _ summary: String, iterations: Int, quick: Int? = nil, inQuickRun: Bool = true,
        body: @escaping @Sendable (Int) async throws -> Int
    ) {
        self.name = name
        self.summary = summary
        self.iterations = iterations
        self.quickIterations = quick ?? max(1, iterations / 50)
        self.inQuickRun = inQuickRun
        self.body = body
    }
}

/// The measured result of one case: the median of its runs.
struct BenchResult: Sendable {
    let name: String
    let summary: String
    let nanosecondsPerOperation: Double
    let iterations: Int
    let runs: Int
    let spread: (low: Double, high: Double)
    /// Nanoseconds per operation of each run, in round order.
    let byRound: [Double]
}

/// Keeps results alive: every checksum goes through an opaque call the optimizer cannot remove.
final class Sink: @unchecked Sendable {
    private let total = LockedState(0)

    @inline(never)
    func consume(_ value: Int) {
        total.withLock { $0 &+= value }
    }

    var value: Int { total.withLock { $0 } }
}

/// The monotonic clock, in nanoseconds.
func monotonicNanoseconds() -> UInt64 {
    DispatchTime.now().uptimeNanoseconds
}

/// Runs `body` on a task and blocks the calling (synchronous) thread until it finishes, so the
/// executable has an ordinary `main` (valgrind cannot run an async main).
func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let outcome = LockedState<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let result: Result<T, any Error>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        outcome.withLock { $0 = result }
        done.signal()
    }
    done.wait()
    return try outcome.withLock { $0! }.get()
}

/// Runs cases in rounds, one run of every case per round, so that a slow spell of the shared
/// machine falls on all cases alike, and reports the median run of each.
func measure(_ cases: [BenchCase], runs: Int, quick: Bool, sink: Sink) async throws -> [BenchResult] {
    var timings = Array(repeating: [Double](), count: cases.count)
    // Warm-up: a short run of each case (caches, lazy loads, the first parse of a file).
    for benchCase in cases {
        let warm = quick ? 1 : max(1, (benchCase.iterations + 9) / 10)
        sink.consume(try await benchCase.body(warm))
    }
    for _ in 0..<runs {
        for (index, benchCase) in cases.enumerated() {
            let count = quick ? benchCase.quickIterations : benchCase.iterations
            let start = monotonicNanoseconds()
            let checksum = try await benchCase.body(count)
            let end = monotonicNanoseconds()
            sink.consume(checksum)
            timings[index].append(Double(end - start) / Double(count))
        }
    }
    return cases.enumerated().map { index, benchCase in
        let sorted = timings[index].sorted()
        return BenchResult(
            name: benchCase.name, summary: benchCase.summary,
            nanosecondsPerOperation: sorted[sorted.count / 2],
            iterations: quick ? benchCase.quickIterations : benchCase.iterations,
            runs: sorted.count, spread: (sorted.first!, sorted.last!), byRound: timings[index])
    }
}

/// A value built at its first use, once (the cache insert fixtures take a moment to fill).
final class LazyState<Value: Sendable>: Sendable {
    private let make: @Sendable () -> Value
    private let stored = LockedState<Value?>(nil)

    init(_ make: @escaping @Sendable () -> Value) {
        self.make = make
    }

    var value: Value {
        stored.withLock { stored in
            if let value = stored { return value }
            let value = make()
            stored = value
            return value
        }
    }
}
