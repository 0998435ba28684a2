import GatehouseCore

/// Wraps a gate and counts how often it was asked, under the same name, so the lesson can show
/// whether a call was decided at all.
struct CountingPolicy: AccessPolicy {
    /// The counted gate.
    let base: any AccessPolicy
    private let evaluations = Locked(0)

    /// Counts the decisions of `base`.
    init(_ base: any AccessPolicy) {
        self.base = base
    }

    /// The name of the counted gate.
    var name: String { base.name }

    /// How often the gate was asked.
    var count: Int {
        evaluations.withLock { $0 }
    }

    /// Counts, then asks the counted gate.
    func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        evaluations.withLock { $0 += 1 }
        return try await base.evaluate(request)
    }
}
