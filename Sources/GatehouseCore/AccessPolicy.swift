/// A gatekeeper: decides whether one request may proceed.
///
/// A gatekeeper is asked on every call (a grant is never cached by the gate). A gatekeeper that
/// cannot decide (its rules file is missing, a lookup failed) throws; the gate then denies and
/// marks the verdict as failed (``AccessDenied/isFailure``). Throwing is never a way to allow.
///
/// Adopt it with `name` and ``evaluate(_:)``. A gatekeeper that can say *which* of its rules
/// decided (a rules file's line) also implements ``explain(_:)``; the gate asks through
/// `explain`, whose default answers ``evaluate(_:)`` with no rule.
public protocol AccessPolicy: Sendable {
    /// A short, stable name shown in denials and audit records, such as `"allowList"`.
    var name: String { get }

    /// Decides the request, or throws when the gatekeeper cannot decide (which denies).
    func evaluate(_ request: AccessRequest) async throws -> AccessDecision

    /// Decides the request as ``evaluate(_:)`` does and says where the decision came from: the
    /// deciding rule, and a note when the decision needs one (such as "made by the last good
    /// version of a rules file").
    ///
    /// Must give the same decision as ``evaluate(_:)``. The default returns that decision with
    /// no rule and no note.
    func explain(_ request: AccessRequest) async throws -> AccessExplanation

    /// What this gatekeeper does to every resource for one caller: where it allows and where
    /// it denies (see ``AccessPlan``). The default cannot plan: each name must be asked
    /// (``AccessPlan/Part/checkEach(_:)``). Throwing makes the part failed (it allows nothing).
    func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part
}

extension AccessPolicy {
    /// ``evaluate(_:)``'s decision, with no rule and no note.
    public func explain(_ request: AccessRequest) async throws -> AccessExplanation {
        AccessExplanation(try await evaluate(request))
    }
}
