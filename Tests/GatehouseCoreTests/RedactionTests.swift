import Testing

@testable import GatehouseCore

/// The one masking routine: a masked attribute's value reads `(masked)` in the request, in every
/// reason and near miss, and inside a plan's patterns alike.
@Suite("Redaction")
struct RedactionTests {
    static let request = AccessRequest(
        subject: "alice", action: "read", resource: "tenants/acme-7/a",
        attributes: ["tenant": "acme-7", "token": "acme", "device": "managed"])

    @Test func aMaskedValueReadsMaskedInTheRequestReasonsNearMissesAndSteps() {
        let redaction = Redaction(mask: ["tenant", "token"], request: Self.request)
        #expect(
            redaction.request.attributes == ["tenant": "(masked)", "token": "(masked)", "device": "managed"])
        let step = AccessVerdict.Step(gatekeeper: "rules", outcome: .denied, reason: "no rule for acme-7")
        var verdict = AccessVerdict(
            outcome: .denied, gatekeeper: "rules", reason: "no rule for acme-7", steps: [step])
        verdict.nearMisses = ["allow * read tenants/acme-7/b"]
        let shown = redaction.verdict(verdict)
        #expect(shown.reason == "no rule for (masked)")
        #expect(shown.steps.map(\.reason) == ["no rule for (masked)"])
        #expect(shown.nearMisses == ["allow * read tenants/(masked)/b"])
    }

    @Test func aValueHoldingAnotherIsMaskedWhole() {
        let redaction = Redaction(mask: ["tenant", "token"], request: Self.request)
        #expect(redaction.erased("tenants/acme-7/acme") == "tenants/(masked)/(masked)")
    }

    @Test func aMaskedValueReadsMaskedInsideAPlansPatterns() {
        let redaction = Redaction(mask: ["tenant"], attributes: Self.request.attributes)
        let plan = AccessPlan(
            .any([
                .pattern(AccessPlan.Pattern("tenants/acme-7/*")),
                .complement(.pattern(AccessPlan.Pattern("x"))),
            ]))
        #expect(
            redaction.plan(plan).residual
                == .any([
                    .pattern(AccessPlan.Pattern("tenants/(masked)/*")),
                    .complement(.pattern(AccessPlan.Pattern("x"))),
                ]))
    }

    @Test func withNothingMaskedEverythingIsShownAsItIs() {
        let redaction = Redaction(mask: [], request: Self.request)
        #expect(redaction.request == Self.request)
        #expect(redaction.erased("acme-7") == "acme-7")
    }
}
