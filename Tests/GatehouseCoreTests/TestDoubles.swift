import Foundation
import GatehouseCore

/// A policy that cancels the current task, then allows: a cancellation that arrives mid-chain.
struct CancellingPolicy: AccessPolicy {
    let name = "cancelling"
    func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        withUnsafeCurrentTask { $0?.cancel() }
        return .allow
    }
}

let allow = AccessDecision.allow
func deny(_ reason: String) -> AccessDecision { .deny(reason: reason) }
