import Foundation
import GatehouseCore
import GatehouseLoaders

/// The floor cases: the load plus only the work that every gate call must do by the package's
/// rules, without a gate. They show how much of a proxy target's bound that work leaves on this
/// machine in its present state; reported beside the targets, with no bound of their own.
///
/// What every call must do (docs/architecture.md, "The path of one call"): read the task's
/// ``AccessContext`` (decisions are made at use time), check for cancellation before the
/// gatekeepers are asked and again before the loader is reached, and hand the gatekeepers an
/// ``AccessRequest`` that holds its own copy of the key. Not included, though a gate must also do
/// them: the identity check of the key and the call of each gatekeeper.
func floorCases(_ f: Fixtures) -> [BenchCase] {
    let memory = f.memory
    let patterns = f.patternSet1M
    return [
        BenchCase(
            "gate-floor", "direct-memory-load plus the context, two cancellation checks, a request",
            iterations: 400_000
        ) { n in
            try await floorLoads(n, from: memory) { handedOver($0) }
        },
        BenchCase(
            "gate-floor-set-1m", "gate-floor with the request's resource looked up in a Set of 1,000,000",
            iterations: 400_000
        ) { n in
            try await floorLoads(n, from: memory) { lookedUp($0, in: patterns) }
        },
    ]
}

/// `n` loads of the bench keys from `memory`, each with only what every gate call must do: the
/// context read, the cancellation check before and after, and `handOver` taking the request.
/// Always inlined, so that each case is the plain loop it reads as.
@inline(__always)
func floorLoads(
    _ n: Int, from memory: MemoryLoader<String, Data>, handOver: (AccessRequest) -> Int
) async throws -> Int {
    let keys = Keys.all
    let mask = Keys.mask
    var sum = 0
    for i in 0..<n {
        let key = keys[i & mask]
        if Task.isCancelled { throw CancellationError() }
        let context = AccessContext.current
        sum &+= handOver(
            AccessRequest(
                subject: context.subject, action: "read", resource: key, attributes: context.attributes))
        if Task.isCancelled { throw CancellationError() }
        sum &+= try await memory.load(key).count
    }
    return sum
}

/// Takes the request as a gatekeeper would, out of the optimizer's sight (a gatekeeper is called
/// through a protocol), so that the request is built and destroyed as in a gate.
@inline(never)
func handedOver(_ request: AccessRequest) -> Int {
    request.resource.utf8.count
}

/// Looks the request's resource up in `patterns`, out of the optimizer's sight as above: what
/// the standard library's own hash set takes to find one string among a million.
@inline(never)
func lookedUp(_ request: AccessRequest, in patterns: Set<String>) -> Int {
    patterns.contains(request.resource) ? 1 : 0
}
