/// A policy that can check, ahead of its decisions, what they will depend on (a rules file, a
/// downloaded document), so that `gatehouse validate` finds a broken one before a call does.
/// The combinators forward the check to their members; a policy of your own adopts it:
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
/// A check reads what decisions would read and changes nothing they use.
public protocol ValidatingPolicy: AccessPolicy {
    /// Every problem that would make this policy's decisions fail if it were asked now.
    func validationIssues() async -> [ValidationIssue]
}

/// The issues of `policy`, if it validates, placed under `member` (such as `policies[1]`).
package func memberIssues(_ policy: any AccessPolicy, at member: String) async -> [ValidationIssue] {
    guard let validating = policy as? any ValidatingPolicy else { return [] }
    return await validating.validationIssues().map { $0.within(member) }
}
