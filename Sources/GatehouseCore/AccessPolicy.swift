/// A gatekeeper: decides whether one request may proceed.
///
/// A policy is asked on every call (a grant is never cached by the proxy). A policy that cannot
/// decide (its rules file is missing, a lookup failed) throws; the proxy then denies and marks
/// the denial as a gate failure (``AccessDenied/isGateFailure``). Throwing is never a way to allow.
public protocol AccessPolicy: Sendable {
    /// A short, stable name shown in denials and audit records, such as `"allowList"`.
    var name: String { get }

    /// Decides the request, or throws when the policy cannot decide (which denies).
    func evaluate(_ request: AccessRequest) async throws -> AccessDecision
}
