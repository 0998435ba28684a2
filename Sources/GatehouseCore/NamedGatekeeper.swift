/// A gatekeeper and the name its holder (a gate, ``AllOf``, ``AnyOf``, ``Not``) shows for it:
/// its own ``AccessPolicy/name``, or one a configuration gives. The name is held beside the
/// gatekeeper, never by a wrapper around it, so every capability is asked of the gatekeeper
/// itself and naming it changes only the name shown.
package struct NamedGatekeeper: Sendable {
    /// The name shown in steps, reasons and plans.
    package let name: String
    /// The gatekeeper, asked directly.
    package let policy: any AccessPolicy

    /// `policy`, shown as `name` (its own name when `nil`).
    package init(_ policy: any AccessPolicy, name: String? = nil) {
        self.policy = policy
        self.name = name ?? policy.name
    }

    /// The gatekeeper's part, a name it must check saying the shown name; ``AccessPlan/Part/failed``
    /// when its planning throws (fail closed).
    func plan(_ request: AccessPlan.Request) async throws(CancellationError) -> AccessPlan.Part {
        let part: AccessPlan.Part
        do {
            part = try await policy.plan(request)
        } catch {
            if Task.isCancelled { throw CancellationError() }
            return .failed
        }
        guard name != policy.name else { return part }
        return AccessPlan.Part(
            allowed: part.allowed.renamingUnplanned(policy.name, to: name),
            denied: part.denied.renamingUnplanned(policy.name, to: name))
    }
}

extension NamedGatekeeper {
    /// The gatekeeper's answers to `requests`, one per request in order; when it gives another
    /// count, every request fails (``BatchAnswerCountError``), never a guess at which is which.
    func explain(batch requests: [AccessRequest]) async -> [Result<AccessExplanation, any Error>] {
        guard !requests.isEmpty else { return [] }
        let answers = await policy.explain(batch: requests)
        guard answers.count == requests.count else {
            let error = BatchAnswerCountError(
                gatekeeper: name, asked: requests.count, answered: answers.count)
            return requests.map { _ in .failure(error) }
        }
        return answers
    }
}

extension [NamedGatekeeper] {
    /// Each member's part, in order.
    func plans(_ request: AccessPlan.Request) async throws(CancellationError) -> [AccessPlan.Part] {
        var parts: [AccessPlan.Part] = []
        for member in self {
            parts.append(try await member.plan(request))
        }
        return parts
    }
}
