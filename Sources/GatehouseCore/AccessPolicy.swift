/// A gatekeeper: decides whether one request may proceed, on every call (a grant is never cached).
///
/// A gatekeeper that cannot decide (its rules file is missing, a lookup failed) throws; the gate
/// then denies with a failure (``AccessDenied/isFailure``). Throwing is never a way to allow.
/// Adopt it with `name` and ``evaluate(_:)``; the gate asks through ``explain(_:)``, which a
/// gatekeeper that knows its deciding rule implements.
public protocol AccessPolicy: Sendable {
    /// A short, stable name shown in denials and audit records, such as `"allowList"`.
    var name: String { get }

    /// Decides the request, or throws when the gatekeeper cannot decide (which denies).
    func evaluate(_ request: AccessRequest) async throws -> AccessDecision

    /// ``evaluate(_:)``'s decision (it must be the same) with the deciding rule and a note.
    func explain(_ request: AccessRequest) async throws -> AccessExplanation

    /// Where this gatekeeper allows and denies for one caller (see ``AccessPlan``). The default
    /// cannot plan (``AccessPlan/Part/checkEach(_:)``); throwing makes the part allow nothing.
    func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part
}

extension AccessPolicy {
    /// ``evaluate(_:)``'s decision, with no rule and no note.
    public func explain(_ request: AccessRequest) async throws -> AccessExplanation {
        AccessExplanation(try await evaluate(request))
    }
}
