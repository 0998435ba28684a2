/// A policy that decides without suspending. ``AccessProxy`` asks such a gate with a plain call
/// instead of an async one; when every gate of a proxy is synchronous, a decision makes no async
/// call at all. Package-internal: the built-in policies adopt it, and their `evaluate` returns
/// exactly what `decide` returns.
package protocol SynchronousAccessPolicy: AccessPolicy {
    /// Decides the request, or throws when the policy cannot decide (which denies); the same
    /// answer as `evaluate(_:)`.
    func decide(_ request: AccessRequest) throws -> AccessDecision

    /// Whether ``decide(_:)`` may be used for this instance; `true` unless a wrapper (a
    /// combinator) holds a member that only decides asynchronously.
    var decidesSynchronously: Bool { get }
}

extension SynchronousAccessPolicy {
    /// `true`: a policy that adopts the protocol decides synchronously unless it says otherwise.
    package var decidesSynchronously: Bool { true }
}

/// Thrown by a combinator's synchronous `decide` when one of its members decides only
/// asynchronously; the proxy never asks such a combinator synchronously (it checks
/// ``SynchronousAccessPolicy/decidesSynchronously`` first), so reaching this is a bug that denies.
package struct SynchronousDecisionUnavailable: Error, CustomStringConvertible {
    /// The combinator asked.
    package var policy: String

    /// Creates the error for `policy`.
    package init(policy: String) {
        self.policy = policy
    }

    /// Says which policy was asked.
    package var description: String {
        "\(policy) has a member that decides only asynchronously; it was asked synchronously"
    }
}

/// The members as ``SynchronousAccessPolicy`` values when every one decides synchronously, else
/// `nil`; how a combinator knows whether it can decide synchronously.
package func synchronousMembers(_ policies: [any AccessPolicy]) -> [any SynchronousAccessPolicy]? {
    var members: [any SynchronousAccessPolicy] = []
    members.reserveCapacity(policies.count)
    for policy in policies {
        guard let member = policy as? any SynchronousAccessPolicy, member.decidesSynchronously else {
            return nil
        }
        members.append(member)
    }
    return members
}
