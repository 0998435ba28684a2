/// A gatekeeper: decides whether one request may proceed, on every call (a grant is never cached).
///
/// A gatekeeper that cannot decide (its rules file is missing, a lookup failed) throws; the gate
/// then denies with a failure (``AccessDenied/isFailure``). Throwing is never a way to allow.
///
/// Every capability of a gatekeeper is a requirement of this one protocol, so that whatever holds
/// a gatekeeper (the gate, ``AllOf``, ``AnyOf``, ``Not``) asks it the same way and forwards
/// everything. The simplest gatekeeper adopts it with `name` and ``evaluate(_:)``; the others
/// have defaults:
/// - ``explain(_:)``: the decision with the deciding rule (default: no rule);
/// - ``explain(batch:)``: many decisions at once (default: one by one);
/// - ``plan(_:)``: where it allows for one caller (default: each name must be asked);
/// - ``nearMisses(_:)``: why not, for a denial (default: none);
/// - ``validationIssues()``: what would make it fail if it were asked now (default: none).
///
/// ```swift
/// struct Weekdays: AccessPolicy {
///     let name = "weekdays"
///     func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
///         isWeekend(Date()) ? .deny(reason: "closed at weekends") : .allow
///     }
/// }
/// ```
public protocol AccessPolicy: Sendable {
    /// A short, stable name shown in denials and audit records, such as `"allowList"`.
    var name: String { get }

    /// Decides the request, or throws when the gatekeeper cannot decide (which denies).
    func evaluate(_ request: AccessRequest) async throws -> AccessDecision

    /// ``evaluate(_:)``'s decision (it must be the same) with the deciding rule and a note.
    func explain(_ request: AccessRequest) async throws -> AccessExplanation

    /// ``explain(_:)`` for each of `requests`, in order: exactly one answer per request, a
    /// failure where that request could not be decided. A gatekeeper that can ask about many
    /// names at once (a decision service's batch API) answers them together; a holder asks this
    /// when it has many requests (a listing that must check each name). A wrong count of answers
    /// fails every request of the batch.
    func explain(batch requests: [AccessRequest]) async -> [Result<AccessExplanation, any Error>]

    /// Where this gatekeeper allows and denies for one caller (see ``AccessPlan``); it must agree
    /// with ``evaluate(_:)`` for every name. Throwing makes the part allow nothing.
    func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part

    /// For a request this gatekeeper denies: the rules that nearly allowed it and what failed for
    /// each, nearest first, one line each. Asked only by ``AccessGate/decide(_:)`` (never on a
    /// load): the answer may cost a scan of the rules. A throw gives none.
    func nearMisses(_ request: AccessRequest) async throws -> [String]

    /// Every problem that would make this gatekeeper's decisions fail if it were asked now (a
    /// broken rules file), so that `gatehouse validate` finds it before a call does. A check
    /// reads what decisions would read and changes nothing they use.
    func validationIssues() async -> [ValidationIssue]
}

extension AccessPolicy {
    /// ``evaluate(_:)``'s decision, with no rule and no note.
    public func explain(_ request: AccessRequest) async throws -> AccessExplanation {
        AccessExplanation(try await evaluate(request))
    }

    /// One by one: ``explain(_:)`` for each request, in order.
    public func explain(batch requests: [AccessRequest]) async -> [Result<AccessExplanation, any Error>] {
        var answers: [Result<AccessExplanation, any Error>] = []
        answers.reserveCapacity(requests.count)
        for request in requests {
            do {
                answers.append(.success(try await explain(request)))
            } catch {
                answers.append(.failure(error))
            }
        }
        return answers
    }

    /// Cannot plan: each name must be asked of this gatekeeper.
    public func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part {
        .checkEach(name)
    }

    /// No near misses.
    public func nearMisses(_ request: AccessRequest) async throws -> [String] {
        []
    }

    /// Nothing to check ahead.
    public func validationIssues() async -> [ValidationIssue] {
        []
    }
}
