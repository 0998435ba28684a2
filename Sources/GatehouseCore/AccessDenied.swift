import Foundation

/// The error a denied call throws: which request, which gatekeeper said no, why, and by which
/// rule when known; `kind` tells a denial from a failure (a gatekeeper threw; fail closed).
public struct AccessDenied: Error, Sendable {
    /// Why the call was denied.
    public enum Kind: Sendable, Hashable {
        /// A gatekeeper decided to deny.
        case denied
        /// A gatekeeper failed (threw) and the call was denied to fail closed.
        case failed
    }

    /// The request that was denied.
    public var request: AccessRequest
    /// The gatekeeper that did not allow, as in ``AccessVerdict/gatekeeper``.
    public var gatekeeper: String
    /// The rule that decided, when the gatekeeper knows it (a rules file's line).
    public var rule: RuleReference?
    /// Why, in words a person can act on. For a failure it includes the error's text.
    public var reason: String
    /// Whether this is an ordinary denial or a failure.
    public var kind: Kind
    /// For a failure: the error the gate threw.
    public var underlyingError: (any Error)?
    /// For a denial, the deciding gatekeeper's typed cause, for an app to switch on without
    /// reading ``reason``: `denied.cause as? PhotoLibraryPolicy.Access`. Never shown in
    /// ``description``.
    public var cause: (any Hashable & Sendable)?

    /// Creates a denial.
    public init(
        request: AccessRequest,
        gatekeeper: String,
        reason: String,
        kind: Kind = .denied,
        rule: RuleReference? = nil,
        underlyingError: (any Error)? = nil,
        cause: (any Hashable & Sendable)? = nil
    ) {
        self.request = request
        self.gatekeeper = gatekeeper
        self.reason = reason
        self.kind = kind
        self.rule = rule
        self.underlyingError = underlyingError
        self.cause = cause
    }

    /// Creates the denial for a verdict that is not an allow.
    package init(request: AccessRequest, verdict: AccessVerdict, underlyingError: (any Error)? = nil) {
        self.init(
            request: request, gatekeeper: verdict.gatekeeper, reason: verdict.reason ?? "denied",
            kind: verdict.outcome == .failed ? .failed : .denied, rule: verdict.rule,
            underlyingError: underlyingError, cause: verdict.cause)
    }

    /// Whether a gatekeeper failed (threw) rather than decided to deny.
    public var isFailure: Bool { kind == .failed }

    /// The gatekeeper that did not allow: ``gatekeeper`` under its earlier name, kept because
    /// outside code compiles against both.
    public var policy: String { gatekeeper }
}

extension AccessDenied: CustomStringConvertible, LocalizedError {
    /// A sentence such as `access denied by allowList: subject "bob" is not listed (bob read "a")`,
    /// safe to show: it names attributes but carries no value (a value the reason quotes reads `…`).
    public var description: String {
        let who = gatekeeper + (rule.map { " (\($0))" } ?? "")
        let what = isFailure ? "access denied, gatekeeper \(who) failed" : "access denied by \(who)"
        let said = Redaction.withoutValues(reason, request.attributes.values)
        var asked = "\(request.subject ?? "(no subject)") \(request.action) \"\(request.resource)\""
        if !request.attributes.isEmpty {
            asked += " [attributes: \(request.attributes.keys.sorted().joined(separator: ", "))]"
        }
        return "\(what): \(said) (\(asked))"
    }

    /// ``description``, so that `localizedDescription` says what happened.
    public var errorDescription: String? { description }
}
