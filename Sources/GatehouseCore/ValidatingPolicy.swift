/// A policy that can check, ahead of its decisions, what they will depend on (a rules file, a
/// downloaded document), so that a broken one is found before it is relied on rather than by
/// the first call it denies.
///
/// `gatehouse validate` asks every gatekeeper of a configuration that adopts this protocol,
/// shadow gatekeepers included. The combinators ``AllOf``, ``AnyOf`` and ``Not`` adopt it and
/// forward to those of their members that do, so a check reaches a policy however deeply it
/// is nested. A policy of your own opts in by adopting it:
///
/// ```swift
/// extension TenantDirectoryPolicy: ValidatingPolicy {
///     func validationIssues() async -> [ValidationIssue] {
///         do {
///             _ = try await directory.fetch()
///             return []
///         } catch {
///             return [ValidationIssue(message: "the tenant directory cannot be read: \(error)")]
///         }
///     }
/// }
/// ```
///
/// A check reads what decisions would read, as it is now, and changes nothing they use: it
/// neither loads a version for later decisions nor forgets one.
public protocol ValidatingPolicy: AccessPolicy {
    /// Every problem that would make this policy's decisions fail if it were asked now; empty
    /// when there is none.
    ///
    /// Each issue's ``ValidationIssue/path`` says where below this policy the problem is
    /// (empty for the policy itself), and its message names the file and line when it has one.
    func validationIssues() async -> [ValidationIssue]
}

/// The issues of `policy` when it is a ``ValidatingPolicy``, each placed under `member` (such
/// as `policies[1]`); none for a policy that cannot be checked ahead.
package func memberIssues(_ policy: any AccessPolicy, at member: String) async -> [ValidationIssue] {
    guard let validating = policy as? any ValidatingPolicy else { return [] }
    return await validating.validationIssues().map { $0.within(member) }
}
