import Foundation
import GatehouseComposition
import GatehouseCore
import GatehouseTestSupport
import Testing

/// A configured `"name"` changes only the name shown: a named gatekeeper plans and explains a
/// denial as the same gatekeeper unnamed does, alone or inside a combinator. (Before the name was
/// held by the gatekeeper itself, a wrapper forwarded only decisions: a named gatekeeper planned
/// as "check each name" and lost its near misses.)
@Suite("Named gatekeepers keep plans and near misses")
struct NamedGatekeeperTests {
    static let rules = """
        group editors alice
        allow @editors read docs/*
        deny * read docs/secret/*

        """

    /// A service `s` over `docs.rules`, its gatekeeper list `gatekeepers` (JSON).
    static func assembled(_ gatekeepers: String, in directory: TemporaryDirectory) throws -> ConfiguredService
    {
        _ = try directory.write("docs.rules", rules)
        let json = """
            {"services": {"s": {"loader": {"type": "memory", "resources": {}}, "gatekeepers": \(gatekeepers)}}}
            """
        let services = try Assembler().assemble(json: Data(json.utf8), baseDirectory: directory.url)
        return try #require(services["s"])
    }

    static let unnamed = #"[{"type": "file", "path": "docs.rules"}]"#
    static let named = #"[{"type": "file", "name": "rules", "path": "docs.rules"}]"#
    static let nested = #"""
        [{"type": "allOf", "name": "both", "policies": [
            {"type": "allowList", "name": "docs-only", "resources": ["docs/*"]},
            {"type": "file", "name": "rules", "path": "docs.rules"}]}]
        """#

    @Test(arguments: [named, nested])
    func aNamedFileGatekeeperPlansExactlyAsItDoesUnnamed(_ gatekeepers: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let service = try Self.assembled(gatekeepers, in: directory)
        let reference = try Self.assembled(Self.unnamed, in: directory)
        let plan = try await service.gate.plan(subject: "alice", action: "read")
        #expect(plan.unplanned == [], "a named gatekeeper must not plan as check-each")
        #expect(plan.residual == (try await reference.gate.plan(subject: "alice", action: "read")).residual)
        #expect(plan.permits("docs/a") && !plan.permits("docs/secret/a") && !plan.permits("other"))
    }

    @Test(arguments: [named, nested])
    func aNamedFileGatekeeperExplainsItsDenialWithTheNearestRules(_ gatekeepers: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let service = try Self.assembled(gatekeepers, in: directory)
        let verdict = try await service.decide(AccessRequest(subject: "erin", resource: "docs/a"))
        #expect(!verdict.isAllowed)
        #expect(verdict.gatekeeper == (gatekeepers == Self.named ? "rules" : "both"))
        #expect(verdict.nearMisses == ["docs.rules:2: erin is not a member of @editors"])
    }
}
