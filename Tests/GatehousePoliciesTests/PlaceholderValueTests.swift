import GatehouseCore
import GatehousePolicies
import Testing

/// A placeholder's value stands for one thing: `.`, `..` and the empty value name none, so a
/// rule holding the placeholder does not match, whatever the gate's `ResourceIdentity`.
@Suite("Placeholders: a value names one thing")
struct PlaceholderValueTests {
    static let rules = "allow * read tenants/{tenant}/*\n"

    /// A gate over resources that are not paths (`ResourceIdentity.text`), which lets
    /// `tenants/../x` through to the rules.
    static func gate() throws -> AccessGate {
        AccessGate(gatekeepers: [try RulesPolicy(text: rules, name: "tenants")], identity: .text)
    }

    /// Once `..` was substituted, `tenants/{tenant}/*` became `tenants/../*`, and a service
    /// that resolves its keys as paths served `x` outside every tenant.
    @Test(arguments: [("..", "tenants/../x"), (".", "tenants/./x"), ("", "tenants//x")])
    func aDotDotDotOrEmptyValueMatchesNothing(value: String, resource: String) async throws {
        let verdict = try await Self.gate().decide(
            AccessRequest(
                subject: "mallory", action: "read", resource: resource, attributes: ["tenant": value]))
        #expect(verdict.outcome == .denied)
        #expect(verdict.gatekeeper == "tenants")
        #expect(verdict.reason == "no rule in tenants allows")
    }

    @Test(arguments: ["acme", "...", ".acme", "acme.", "a..b"])
    func aValueThatIsANameMatches(value: String) async throws {
        let verdict = try await Self.gate().decide(
            AccessRequest(
                subject: "mallory", action: "read", resource: "tenants/\(value)/x",
                attributes: ["tenant": value]))
        #expect(verdict.isAllowed)
    }
}
