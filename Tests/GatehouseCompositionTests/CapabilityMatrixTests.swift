import Foundation
import GatehouseComposition
import GatehouseCore
import GatehousePolicies
import GatehouseRemote
import GatehouseTestSupport
import Testing

/// Every built-in gatekeeper kind, held every way a user can hold it, keeps every capability of
/// ``AccessPolicy``: 10 kinds × 7 holders = 70 cases, each checking 5 capabilities (350 checks).
///
/// - decide: every name of a small universe, for two subjects, gets the kind's decision (inverted
///   under `not`, refused before any gatekeeper when it breaks the identity rule), and the verdict
///   names the holder;
/// - plan: the plan is exact and agrees with every one of those decisions (`permits` and
///   `candidates` both);
/// - near misses: a denial by rules (erin may not read `docs/a`) shows the rules' nearest lines
///   through every holder but `not`, which by design gives none;
/// - batch: every name for each subject decided together (`explain(batch:)`, as a listing asks)
///   gets the verdict it gets alone, from the same gatekeeper;
/// - validation: a broken rules file (the kind's broken variant) is reported through every
///   holder, at its place; a kind that cannot break reports nothing anywhere.
@Suite("Every holder forwards every capability")
struct CapabilityMatrixTests {
    /// The built-in gatekeeper kinds; `rules` (``RulesPolicy``) is configured through an app's
    /// plugin, since the built-in registry has no in-memory rules type.
    enum Kind: String, CaseIterable, Sendable {
        case alwaysAllow, alwaysDeny, allowList, timeWindow, file, rules, remote, allOf, anyOf, not
    }

    /// The ways a gatekeeper is held: in a gate of its own, as built (`direct`) or given another
    /// `name:` (`named`); as the second member of `allOf(alwaysAllow, it)` or
    /// `anyOf(alwaysDeny, it)`, or under `not`; assembled from a configuration, without or with a
    /// `"name"` (which the gate holds beside it).
    enum Holder: String, CaseIterable, Sendable {
        case direct, named, inAllOf, inAnyOf, inNot, assembled, assembledNamed
    }

    /// What each case checks.
    enum Capability: String, CaseIterable, Sendable {
        case decide, plan, nearMisses, validation, batch
    }

    /// Monday 11:00 in Berlin: inside the time window.
    static let instant = Date(timeIntervalSince1970: 1_796_032_800)
    static let subjects = ["alice", "erin"]
    /// `../x` breaks the identity rule: refused before any gatekeeper.
    static let names = [
        "docs/a", "docs/secret/x", "public/p", "users/alice/n", "users/erin/n", "other", "../x",
    ]
    static let rulesText = """
        group editors alice
        allow @editors read docs/*
        allow * read public/*
        allow * read users/{subject}/*
        deny * read docs/secret/*

        """
    /// The name a named holder gives.
    static let given = "given"
    /// What `broken.rules` makes every decision fail with, and validation report.
    static let brokenMessage = "broken.rules:1: expected 4 fields (effect subject action resource), found 3"

    @Test func theMatrixIsTenKindsBySevenHoldersByFiveCapabilities() {
        #expect(Kind.allCases.count * Holder.allCases.count == 70)
        #expect(Kind.allCases.count * Holder.allCases.count * Capability.allCases.count == 350)
    }

    @Test(arguments: Kind.allCases, Holder.allCases)
    func aHeldGatekeeperKeepsEveryCapability(_ kind: Kind, _ holder: Holder) async throws {
        let fixture = try Fixture(kind)
        defer { fixture.directory.cleanUp() }
        let held = try await holder.hold(kind, fixture, broken: false)
        let context = "\(kind) \(holder)"
        for capability in Capability.allCases {
            switch capability {
            case .decide:
                for subject in Self.subjects {
                    for name in Self.names {
                        let verdict = try await held.gate.decide(
                            AccessRequest(subject: subject, resource: name))
                        let expected = holder.allows(kind, subject, name)
                        #expect(verdict.isAllowed == expected, "\(context): \(subject) read \(name)")
                        let shown = Self.identityProblem(name) ? "(identity)" : holder.name(of: kind)
                        #expect(verdict.gatekeeper == shown, "\(context): \(subject) read \(name)")
                    }
                }
            case .plan:
                for subject in Self.subjects {
                    let plan = try await held.gate.plan(subject: subject, action: .read, at: Self.instant)
                    #expect(plan.isExact, "\(context): \(plan.unplanned) cannot plan")
                    for name in Self.names {
                        let allowed = try await held.gate.decide(
                            AccessRequest(subject: subject, resource: name)
                        )
                        .isAllowed
                        #expect(
                            plan.permits(name) == allowed, "\(context): \(subject) \(name): \(plan.residual)")
                        #expect(!allowed || plan.candidates.permits(name), "\(context): \(subject) \(name)")
                    }
                }
            case .batch:
                for subject in Self.subjects {
                    let requests = Self.names.map { AccessRequest(subject: subject, resource: $0) }
                    let together = try await held.gate.decide(
                        requests.map { ($0, nil) }, identity: held.gate.identity, explained: true)
                    for (request, verdict) in zip(requests, together) {
                        let alone = try await held.gate.decide(request)
                        #expect(
                            verdict.outcome == alone.outcome && verdict.gatekeeper == alone.gatekeeper,
                            "\(context): \(subject) read \(request.resource) together")
                    }
                    #expect(together.count == requests.count, "\(context)")
                }
            case .nearMisses:
                let verdict = try await held.gate.decide(AccessRequest(subject: "erin", resource: "docs/a"))
                #expect(verdict.nearMisses == holder.nearMisses(kind), "\(context)")
            case .validation:
                let broken = try await holder.hold(kind, fixture, broken: true)
                let expected = holder.issues(kind)
                if holder.isAssembled {
                    #expect(broken.issues.map(\.message) == expected.map(\.message), "\(context)")
                    #expect(broken.issues.allSatisfy { $0.path.hasPrefix("services.s.gatekeepers[0]") })
                } else {
                    #expect(broken.issues == expected, "\(context)")
                }
            }
        }
    }

    static func identityProblem(_ name: String) -> Bool {
        ResourceIdentity.path.violation(in: name) != nil
    }

    /// What `docs.rules` (and the remote service, which answers by the same rules) allows.
    static func rulesAllow(_ subject: String?, _ name: String) -> Bool {
        if name.hasPrefix("docs/secret/") { return false }
        if name.hasPrefix("docs/") { return subject == "alice" }
        if name.hasPrefix("public/") { return true }
        if let subject, name.hasPrefix("users/\(subject)/") { return true }
        return false
    }

    /// The rules' near misses for erin reading `docs/a`, the rules named `source`.
    static func rulesNearMisses(_ source: String) -> [String] {
        ["\(source):2: erin is not a member of @editors"]
    }

    /// An app's plugin for ``RulesPolicy``: rules given as text in the configuration.
    struct RulesSettings: Decodable, Sendable {
        var text: String
    }

    static func registry() throws -> PluginRegistry {
        var registry = PluginRegistry()
        try registry.registerGatekeeper("rules", settings: RulesSettings.self) { settings, _ in
            try RulesPolicy(text: settings.text, name: "rules")
        }
        return registry
    }

    /// A JSON string literal.
    static func quoted(_ text: String) -> String {
        String(decoding: (try? JSONEncoder().encode(text)) ?? Data(), as: UTF8.self)
    }
}

extension CapabilityMatrixTests {
    /// One case's material: a folder with `docs.rules` and `broken.rules` and, for `remote`, an
    /// AuthZEN service on the loopback interface that answers by the same rules.
    struct Fixture {
        let directory: TemporaryDirectory
        let rules: URL
        let broken: URL
        let server: LoopbackServer?

        init(_ kind: Kind) throws {
            directory = try TemporaryDirectory()
            rules = try directory.write("docs.rules", CapabilityMatrixTests.rulesText)
            broken = try directory.write("broken.rules", "allow alice read\n")
            server = kind == .remote ? try Self.decisionService() : nil
        }

        /// Evaluations answer by ``CapabilityMatrixTests/rulesAllow(_:_:)``; a resource search
        /// returns the universe's names the subject may read, on one page.
        static func decisionService() throws -> LoopbackServer {
            try LoopbackServer { _, request in
                let body = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any]
                let subject = (body?["subject"] as? [String: Any])?["id"] as? String
                let answer: String
                if request.path.hasSuffix("/search/resource") {
                    let ids = CapabilityMatrixTests.names.filter {
                        CapabilityMatrixTests.rulesAllow(subject, $0)
                    }
                    answer = #"{"results": [\#(ids.map { #"{"id": "\#($0)"}"# }.joined(separator: ", "))]}"#
                } else {
                    let resource = (body?["resource"] as? [String: Any])?["id"] as? String ?? ""
                    answer = #"{"decision": \#(CapabilityMatrixTests.rulesAllow(subject, resource))}"#
                }
                return [.send(LoopbackServer.response(status: 200, body: Data(answer.utf8)))]
            }
        }

        var remoteURL: URL { server?.url("/access/v1/evaluation") ?? URL(fileURLWithPath: "/") }
    }

    /// A gatekeeper as held: the gate it decides and plans in, and what validation reports.
    struct Held {
        var gate: AccessGate
        var issues: [ValidationIssue]
    }
}

extension CapabilityMatrixTests.Kind {
    /// The kind built in code, named `name` (its default without one); `broken` uses
    /// `broken.rules` where the kind holds a rules file.
    func policy(_ fixture: CapabilityMatrixTests.Fixture, name: String?, broken: Bool) throws
        -> any AccessPolicy
    {
        let file = FilePolicy(url: broken ? fixture.broken : fixture.rules)
        switch self {
        case .alwaysAllow: return AlwaysAllow(name: name ?? defaultName)
        case .alwaysDeny: return AlwaysDeny(name: name ?? defaultName)
        case .allowList:
            return try AllowList(
                resources: ["docs/*", "public/*"], subjects: ["alice"], name: name ?? defaultName)
        case .timeWindow:
            return try TimeWindow(
                days: [.mon, .tue, .wed, .thu, .fri], from: LocalTime("08:00"), to: LocalTime("20:00"),
                timeZone: "Europe/Berlin", name: name ?? defaultName, now: { CapabilityMatrixTests.instant })
        case .file: return FilePolicy(url: broken ? fixture.broken : fixture.rules, name: name ?? defaultName)
        case .rules: return try RulesPolicy(text: CapabilityMatrixTests.rulesText, name: name ?? defaultName)
        case .remote:
            return try RemotePolicy(name: name ?? defaultName, url: fixture.remoteURL, protocol: .authzen)
        case .allOf:
            return AllOf([try AllowList(resources: ["docs/*", "users/*"]), file], name: name ?? defaultName)
        case .anyOf:
            let member: any AccessPolicy =
                broken ? file : try RulesPolicy(text: CapabilityMatrixTests.rulesText, name: "rules")
            return AnyOf([AlwaysDeny(), member], name: name ?? defaultName)
        case .not:
            return Not(broken ? file : try AllowList(resources: ["docs/secret/*"]), name: name)
        }
    }

    /// The kind as a configuration's component, its members without braces and name.
    func component(_ fixture: CapabilityMatrixTests.Fixture, broken: Bool) -> String {
        let file = #""type": "file", "path": "\#(broken ? "broken.rules" : "docs.rules")""#
        let rules =
            #""type": "rules", "text": \#(CapabilityMatrixTests.quoted(CapabilityMatrixTests.rulesText))"#
        switch self {
        case .alwaysAllow: return #""type": "alwaysAllow""#
        case .alwaysDeny: return #""type": "alwaysDeny""#
        case .allowList:
            return #""type": "allowList", "resources": ["docs/*", "public/*"], "subjects": ["alice"]"#
        case .timeWindow:
            return
                #""type": "timeWindow", "timeZone": "Europe/Berlin", "days": ["mon", "tue", "wed", "thu", "fri"], "from": "08:00", "to": "20:00""#
        case .file: return file
        case .rules: return rules
        case .remote:
            return #""type": "remote", "protocol": "authzen", "url": "\#(fixture.remoteURL.absoluteString)""#
        case .allOf:
            return
                #""type": "allOf", "policies": [{"type": "allowList", "resources": ["docs/*", "users/*"]}, {\#(file)}]"#
        case .anyOf:
            return #""type": "anyOf", "policies": [{"type": "alwaysDeny"}, {\#(broken ? file : rules)}]"#
        case .not:
            let member = broken ? file : #""type": "allowList", "resources": ["docs/secret/*"]"#
            return #""type": "not", "policy": {\#(member)}"#
        }
    }

    /// The name the kind gives itself when none is configured.
    var defaultName: String {
        self == .not ? "not(allowList)" : rawValue
    }

    /// Whether the kind allows `subject` to read `name` (a name the identity rule refuses aside).
    func allows(_ subject: String, _ name: String) -> Bool {
        switch self {
        case .alwaysAllow, .timeWindow: true
        case .alwaysDeny: false
        case .allowList: subject == "alice" && (name.hasPrefix("docs/") || name.hasPrefix("public/"))
        case .file, .rules, .remote, .anyOf: CapabilityMatrixTests.rulesAllow(subject, name)
        case .allOf:
            (name.hasPrefix("docs/") || name.hasPrefix("users/"))
                && CapabilityMatrixTests.rulesAllow(subject, name)
        case .not: !name.hasPrefix("docs/secret/")
        }
    }

    /// The near misses of erin reading `docs/a`, from the kind held directly; `rulesName` is the
    /// name of a ``RulesPolicy`` of the kind itself (its rules are named after it).
    func nearMisses(rulesName: String) -> [String] {
        switch self {
        case .file, .allOf: CapabilityMatrixTests.rulesNearMisses("docs.rules")
        case .rules: CapabilityMatrixTests.rulesNearMisses(rulesName)
        case .anyOf: CapabilityMatrixTests.rulesNearMisses("rules")
        case .alwaysAllow, .alwaysDeny, .allowList, .timeWindow, .remote, .not: []
        }
    }

    /// The validation issues of the kind's broken variant, held directly.
    var issues: [ValidationIssue] {
        let message = CapabilityMatrixTests.brokenMessage
        return switch self {
        case .file: [ValidationIssue(message: message)]
        case .allOf, .anyOf: [ValidationIssue(path: "gatekeepers[1]", message: message)]
        case .not: [ValidationIssue(path: "gatekeeper", message: message)]
        case .alwaysAllow, .alwaysDeny, .allowList, .timeWindow, .rules, .remote: []
        }
    }
}

extension CapabilityMatrixTests.Holder {
    var isAssembled: Bool { self == .assembled || self == .assembledNamed }

    /// `kind` held this way: in a gate of its own, or in a service assembled from JSON.
    func hold(
        _ kind: CapabilityMatrixTests.Kind, _ fixture: CapabilityMatrixTests.Fixture, broken: Bool
    ) async throws -> CapabilityMatrixTests.Held {
        if isAssembled {
            let name = self == .assembledNamed ? #""name": "\#(CapabilityMatrixTests.given)", "# : ""
            let json = """
                {"services": {"s": {"loader": {"type": "memory", "resources": {}},
                  "gatekeepers": [{\(name)\(kind.component(fixture, broken: broken))}]}}}
                """
            let services = try Assembler(
                registry: try CapabilityMatrixTests.registry(), clock: { CapabilityMatrixTests.instant }
            ).assemble(json: Data(json.utf8), baseDirectory: fixture.directory.url)
            var issues: [ValidationIssue] = []
            do {
                try await services.validate()
            } catch let error as ConfigurationError {
                issues = error.issues.map { ValidationIssue(path: $0.path, message: $0.message) }
            }
            return CapabilityMatrixTests.Held(gate: try #require(services["s"]).gate, issues: issues)
        }
        let policy = try kind.policy(
            fixture, name: self == .named ? CapabilityMatrixTests.given : nil, broken: broken)
        let holding: any AccessPolicy =
            switch self {
            case .inAllOf: AllOf(AlwaysAllow(), policy)
            case .inAnyOf: AnyOf(AlwaysDeny(), policy)
            case .inNot: Not(policy)
            default: policy
            }
        return CapabilityMatrixTests.Held(
            gate: AccessGate(gatekeepers: [holding]), issues: await holding.validationIssues())
    }

    /// The name a verdict shows for the gatekeeper the gate holds.
    func name(of kind: CapabilityMatrixTests.Kind) -> String {
        switch self {
        case .direct, .assembled: kind.defaultName
        case .named, .assembledNamed: CapabilityMatrixTests.given
        case .inAllOf: "allOf"
        case .inAnyOf: "anyOf"
        case .inNot: "not(\(kind.defaultName))"
        }
    }

    /// Whether the held kind allows `subject` to read `name`.
    func allows(_ kind: CapabilityMatrixTests.Kind, _ subject: String, _ name: String) -> Bool {
        guard !CapabilityMatrixTests.identityProblem(name) else { return false }
        return self == .inNot ? !kind.allows(subject, name) : kind.allows(subject, name)
    }

    /// The near misses of erin reading `docs/a` through this holder: the kind's own, none under
    /// `not` (it allows what the rules deny, and denies only what they allow).
    func nearMisses(_ kind: CapabilityMatrixTests.Kind) -> [String] {
        switch self {
        case .inNot: []
        // A configured name is shown by the holder; the rules keep their own name in their lines.
        case .named: kind.nearMisses(rulesName: CapabilityMatrixTests.given)
        case .direct, .inAllOf, .inAnyOf, .assembled, .assembledNamed: kind.nearMisses(rulesName: "rules")
        }
    }

    /// The validation issues of the kind's broken variant through this holder.
    func issues(_ kind: CapabilityMatrixTests.Kind) -> [ValidationIssue] {
        switch self {
        case .inAllOf, .inAnyOf: kind.issues.map { $0.within("gatekeepers[1]") }
        case .inNot: kind.issues.map { $0.within("gatekeeper") }
        case .direct, .named, .assembled, .assembledNamed: kind.issues
        }
    }
}
