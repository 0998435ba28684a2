import GatehouseCore

/// A gatekeeper that throws on every call: a policy store that is down, a rules file that
/// cannot be read. A gate fails closed on it, and the denial's `underlyingError` is the error.
public struct ThrowingPolicy: AccessPolicy {
    /// The name decisions are reported under.
    public let name: String
    private let error: @Sendable () -> any Error

    /// Creates the gatekeeper named `name` that throws `error` on every call.
    public init(
        _ name: String = "throwing", error: @autoclosure @escaping @Sendable () -> any Error = GateFailure()
    ) {
        self.name = name
        self.error = error
    }

    /// Throws the error given at creation.
    public func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        throw error()
    }
}

/// The error a ``ThrowingPolicy`` throws unless given another: the policy store is unreachable.
public struct GateFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, in a sentence.
    public var description: String

    /// Creates the error that says `description`.
    public init(_ description: String = "the policy store is unreachable") {
        self.description = description
    }
}
