/// A policy that can check ahead what its decisions will depend on (a rules file, a downloaded
/// document), so that `gatehouse validate` finds a broken one before a call does. A check reads
/// what decisions would read and changes nothing they use; the combinators ask their members.
///
/// ```swift
/// func validationIssues() async -> [ValidationIssue] {
///     (try? await directory.fetch()) == nil ? [ValidationIssue(message: "no directory")] : []
/// }
/// ```
public protocol ValidatingPolicy: AccessPolicy {
    /// Every problem that would make this policy's decisions fail if it were asked now.
    func validationIssues() async -> [ValidationIssue]
}

/// The issues of `policy`, if it validates, placed under `member` (such as `policies[1]`).
package func memberIssues(_ policy: any AccessPolicy, at member: String) async -> [ValidationIssue] {
    guard let validating = policy as? any ValidatingPolicy else { return [] }
    return await validating.validationIssues().map { $0.within(member) }
}
