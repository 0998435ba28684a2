import Foundation

/// The error a denied call throws: which request, which gate said no, and why.
///
/// Two kinds are distinguished by `kind`: an ordinary denial (a policy answered
/// ``AccessDecision/deny(reason:)``) and a gate failure (a policy threw, so it could not decide,
/// and the call was denied to fail closed). A gate failure keeps the error in `underlyingError`.
public struct AccessDenied: Error, Sendable {
    /// Why the call was denied.
    public enum Kind: Sendable, Hashable {
        /// A gatekeeper decided to deny.
        case denied
        /// A gatekeeper failed (threw) and the call was denied to fail closed.
        case gateFailure
    }

    /// The request that was refused.
    public var request: AccessRequest
    /// The name of the gate that did not allow.
    public var policy: String
    /// Why, in words a person can act on. For a gate failure it includes the error's text.
    public var reason: String
    /// Whether this is an ordinary denial or a gate failure.
    public var kind: Kind
    /// For a gate failure: the error the gate threw.
    public var underlyingError: (any Error)?

    /// Creates a denial.
    public init(
        request: AccessRequest,
        policy: String,
        reason: String,
        kind: Kind = .denied,
        underlyingError: (any Error)? = nil
    ) {
        self.request = request
        self.policy = policy
        self.reason = reason
        self.kind = kind
        self.underlyingError = underlyingError
    }

    /// Whether the gate failed (threw) rather than decided to deny.
    public var isGateFailure: Bool { kind == .gateFailure }
}

extension AccessDenied: CustomStringConvertible {
    /// A sentence such as `access denied by allowList: subject "bob" is not listed (bob read "a")`.
    public var description: String {
        let what = isGateFailure ? "access denied, gate \(policy) failed" : "access denied by \(policy)"
        return "\(what): \(reason) (\(request))"
    }
}

extension AccessDenied: LocalizedError {
    /// The same sentence as ``description``: which gate refused, why, and the request, so that
    /// `localizedDescription` says what happened instead of a generic "could not be completed".
    public var errorDescription: String? { description }

    /// The gate's reason alone.
    public var failureReason: String? { reason }
}
