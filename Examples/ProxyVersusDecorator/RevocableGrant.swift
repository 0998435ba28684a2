import GatehouseCore

/// A gate whose answer changes between calls: access is granted until ``revoke()``.
struct RevocableGrant: AccessPolicy {
    /// The gate's name in denials.
    let name = "grant"
    private let granted = Locked(true)

    /// Whether access is granted now.
    var isGranted: Bool {
        granted.withLock { $0 }
    }

    /// Takes access away; the next decision denies.
    func revoke() {
        granted.withLock { $0 = false }
    }

    /// Allows while access is granted.
    func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        granted.withLock { $0 } ? .allow : .deny(reason: "access to \(request.resource) was revoked")
    }
}
