/// One synchronous gate of a ``GateChain`` followed by the rest of the chain: the form in which
/// the chain's hot path asks its gates.
///
/// A gate held in an array (or in unsafe memory) is copied out of it before each call, which for
/// an existential means a value-witness copy and destroy per gate per decision. Held in a `let`
/// property of a class instead, it is called in place; so the gates become a list of links,
/// each asking its own policy (statically typed) and then the next link.
protocol SynchronousLink: AnyObject, Sendable {
    /// Asks this gate and, if it allows, the links after it.
    ///
    /// - Throws: ``GateStop`` naming the first gate that did not allow, and why.
    func decide(_ request: AccessRequest) throws(GateStop)
}

/// Why a ``SynchronousLink`` chain stopped: the position of the gate and its refusal or failure.
struct GateStop: Error {
    /// The position of the gate in the chain, from 0.
    var index: Int
    /// What the gate did instead of allowing.
    var outcome: Outcome

    /// What a gate did instead of allowing.
    enum Outcome {
        /// It denied, for this reason.
        case denied(reason: String)
        /// It threw this error.
        case failed(any Error)
    }
}

/// A ``SynchronousLink`` for one policy of a known type.
final class PolicyLink<Policy: SynchronousAccessPolicy>: SynchronousLink {
    // `index` and `next` first: fields after one of generic size have offsets read from the
    // metadata at run time.
    let index: Int
    let next: (any SynchronousLink)?
    let policy: Policy

    init(_ policy: Policy, index: Int, next: (any SynchronousLink)?) {
        self.policy = policy
        self.index = index
        self.next = next
    }

    func decide(_ request: AccessRequest) throws(GateStop) {
        let decision: AccessDecision
        do {
            decision = try policy.decide(request)
        } catch {
            throw GateStop(index: index, outcome: .failed(error))
        }
        if case .deny(let reason) = decision {
            throw GateStop(index: index, outcome: .denied(reason: reason))
        }
        try next?.decide(request)
    }
}

/// Links `policies` in order; `nil` for none.
func makeLinks(_ policies: [any SynchronousAccessPolicy]) -> (any SynchronousLink)? {
    var next: (any SynchronousLink)?
    for index in policies.indices.reversed() {
        next = link(policies[index], index: index, next: next)
    }
    return next
}

private func link<Policy: SynchronousAccessPolicy>(
    _ policy: Policy, index: Int, next: (any SynchronousLink)?
) -> any SynchronousLink {
    PolicyLink(policy, index: index, next: next)
}
