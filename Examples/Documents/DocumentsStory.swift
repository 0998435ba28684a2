import Foundation
import GatehouseCore
import GatehousePolicies

/// The story `documents` tells: each step is one call through `GuardedDocuments` by one user,
/// printed with the gate's answer, and checked against what it must do.
struct DocumentsStory {
    /// Roles by groups, the owner by `{subject}`, the tenant by an attribute.
    static let rules = """
        group  owners   dana
        group  editors  erin  @owners
        group  viewers  gina  @editors

        allow  @viewers  read    tenants/{tenant}/docs/*
        allow  @viewers  list    tenants/{tenant}/docs
        allow  @editors  write   tenants/{tenant}/docs/*
        allow  @owners   share   tenants/{tenant}/docs/*
        allow  *         delete  tenants/{tenant}/docs/*  if owner={subject}
        deny   *         read    tenants/*/docs/draft-*   if owner=dana
        """

    /// One call of the story.
    struct Step {
        var user: String
        var tenant: String
        var call: String
        var expectAllowed: Bool
        var run: @Sendable (any DocumentStore) async throws -> String
    }

    static let steps: [Step] = [
        Step(user: "dana", tenant: "acme", call: "save tenants/acme/docs/plan.txt", expectAllowed: true) {
            try await $0.save("Ship search.", to: "tenants/acme/docs/plan.txt", owner: "dana")
            return "saved"
        },
        Step(
            user: "dana", tenant: "acme", call: "save tenants/acme/docs/draft-budget.txt", expectAllowed: true
        ) {
            try await $0.save("Numbers.", to: "tenants/acme/docs/draft-budget.txt", owner: "dana")
            return "saved"
        },
        Step(user: "gina", tenant: "acme", call: "read tenants/acme/docs/plan.txt", expectAllowed: true) {
            "read \"\(try await $0.read("tenants/acme/docs/plan.txt"))\""
        },
        Step(user: "gina", tenant: "acme", call: "save tenants/acme/docs/plan.txt", expectAllowed: false) {
            try await $0.save("Ship nothing.", to: "tenants/acme/docs/plan.txt", owner: "gina")
            return "saved"
        },
        Step(user: "erin", tenant: "acme", call: "save tenants/acme/docs/plan.txt", expectAllowed: true) {
            try await $0.save("Ship search in May.", to: "tenants/acme/docs/plan.txt", owner: "erin")
            return "saved"
        },
        Step(user: "zoe", tenant: "globex", call: "read tenants/acme/docs/plan.txt", expectAllowed: false) {
            "read \"\(try await $0.read("tenants/acme/docs/plan.txt"))\""
        },
        Step(
            user: "erin", tenant: "acme", call: "share tenants/acme/docs/plan.txt with gina",
            expectAllowed: false
        ) {
            try await $0.share("tenants/acme/docs/plan.txt", with: "gina")
            return "shared"
        },
        Step(
            user: "dana", tenant: "acme", call: "share tenants/acme/docs/plan.txt with gina",
            expectAllowed: true
        ) {
            try await $0.share("tenants/acme/docs/plan.txt", with: "gina")
            return "shared"
        },
        Step(
            user: "gina", tenant: "acme", call: "list tenants/acme/docs (dana's draft stays unseen)",
            expectAllowed: true
        ) {
            let ids = try await $0.list("tenants/acme/docs")
            guard ids == ["tenants/acme/docs/plan.txt"] else { throw UnexpectedListing(ids: ids) }
            return "listed \(ids)"
        },
        Step(user: "erin", tenant: "acme", call: "delete tenants/acme/docs/plan.txt", expectAllowed: false) {
            try await $0.delete("tenants/acme/docs/plan.txt")
            return "deleted"
        },
        Step(user: "dana", tenant: "acme", call: "delete tenants/acme/docs/plan.txt", expectAllowed: true) {
            try await $0.delete("tenants/acme/docs/plan.txt")
            return "deleted"
        },
    ]

    /// Tells the story through `say`; returns the expectations that broke (none when it works).
    func run(say: @Sendable (String) -> Void) async -> [String] {
        let store = InMemoryDocuments()
        let verdicts = FirstVerdicts()
        let rules: RulesPolicy
        do {
            rules = try RulesPolicy(text: Self.rules, name: "documents")
        } catch {
            return ["the rules do not parse: \(error)"]
        }
        let documents = GuardedDocuments(
            base: store,
            gate: AccessGate(gatekeepers: [rules], observer: verdicts, identity: .path, service: "documents"))
        var broken: [String] = []
        say("documents: dana owns, erin edits, gina views (tenant acme); zoe works for globex.")
        for (number, step) in Self.steps.enumerated() {
            let callsBefore = await store.calls
            verdicts.reset()
            let context = AccessContext(subject: step.user, attributes: ["tenant": step.tenant])
            let outcome: Result<String, any Error> = await AccessContext.$current.withValue(context) {
                do { return .success(try await step.run(documents)) } catch { return .failure(error) }
            }
            let reached = await store.calls - callsBefore
            say("\(number + 1). \(step.user) (\(step.tenant)): \(step.call)")
            switch outcome {
            case .success(let result):
                let rule = verdicts.first?.rule.map { " by \($0)" } ?? ""
                say("   allowed\(rule): \(result)")
                if !step.expectAllowed { broken.append("step \(number + 1) was allowed") }
            case .failure(let denied as AccessDenied):
                say("   refused by \(denied.gatekeeper): \(denied.reason)")
                if step.expectAllowed { broken.append("step \(number + 1) was refused: \(denied.reason)") }
                if reached != 0 { broken.append("step \(number + 1) was refused but reached the store") }
            case .failure(let error):
                say("   failed: \(error)")
                broken.append("step \(number + 1) failed: \(error)")
            }
        }
        let shared = await store.sharedWith("tenants/acme/docs/plan.txt")
        if !shared.isEmpty { broken.append("a deleted document is still shared") }
        say(
            broken.isEmpty
                ? "Every call was allowed or refused as the rules say."
                : "\(broken.count) expectations broke.")
        return broken
    }
}

/// Keeps the first verdict the gate recorded since the last `reset()`: the one for the call
/// itself (a listing records one more per document), to print the rule that allowed it.
final class FirstVerdicts: AccessObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var verdict: AccessVerdict?

    func observe(_ record: AccessRecord) {
        guard !record.isShadow else { return }
        lock.withLock { verdict = verdict ?? record.verdict }
    }

    func reset() { lock.withLock { verdict = nil } }

    var first: AccessVerdict? { lock.withLock { verdict } }
}

/// Thrown by the story when a listing shows other documents than it must.
struct UnexpectedListing: Error, CustomStringConvertible {
    var ids: [String]
    var description: String { "listed \(ids)" }
}
