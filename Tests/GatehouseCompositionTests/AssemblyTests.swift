import Foundation
import GatehouseComposition
import GatehouseCore
import GatehouseLoaders
import GatehousePolicies
import GatehouseTestSupport
import Testing

@Suite("Assembly")
struct AssemblyTests {
    static let everyBuiltIn = """
        { "services": {
            "avatars": {
                "loader": { "type": "disk", "root": "assets", "maximumFileSize": 1000000 },
                "cache": { "countLimit": 500, "byteLimit": 10000000 },
                "gatekeepers": [
                    { "type": "allowList", "resources": ["avatars/*"], "subjects": ["alice", "bob"] },
                    { "type": "timeWindow", "timeZone": "Europe/Berlin", "days": ["mon", "tue", "wed", "thu", "fri"],
                      "from": "09:00", "to": "17:00" },
                    { "type": "file", "path": "avatars.rules" },
                    { "type": "anyOf", "policies": [ { "type": "alwaysDeny", "reason": "closed" },
                                                     { "type": "not", "policy": { "type": "alwaysDeny" } } ] },
                    { "type": "allOf", "name": "both", "policies": [ { "type": "alwaysAllow" } ] }
                ],
                "shadow": [ { "type": "allowList", "subjects": ["alice"] } ] },
            "public": {
                "loader": { "type": "memory", "resources": { "logo": "LOGO" } },
                "gatekeepers": [ { "type": "alwaysAllow" } ] } } }
        """

    @Test func everyBuiltInTypeRoundTripsThroughCodable() throws {
        let configuration = try GatehouseConfiguration(json: Data(Self.everyBuiltIn.utf8))
        let encoded = try JSONEncoder().encode(configuration)
        let decoded = try JSONDecoder().decode(GatehouseConfiguration.self, from: encoded)
        #expect(decoded == configuration)
        #expect(try GatehouseConfiguration(json: encoded) == configuration)
        #expect(configuration.services.map(\.name) == ["avatars", "public"])
        #expect(
            configuration.services[0].gatekeepers.map(\.type) == [
                "allowList", "timeWindow", "file", "anyOf", "allOf",
            ])
        #expect(configuration.services[0].cache == CacheConfiguration(countLimit: 500, byteLimit: 10_000_000))
        #expect(configuration.services[0].shadow.map(\.type) == ["allowList"])
        // And the round-tripped configuration assembles like the original.
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let services = try Assembler().assemble(decoded, baseDirectory: folder.url)
        #expect(services.services.map(\.name).sorted() == ["avatars", "public"])
    }

    @Test func aCustomPluginIsRegisteredAndUsedFromAFile() async throws {
        struct TenantSettings: Decodable { var tenant: String }
        struct TenantPolicy: AccessPolicy {
            let name = "tenant"
            let tenant: String
            func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
                request.attributes["tenant"] == tenant ? .allow : .deny(reason: "not tenant \(tenant)")
            }
        }
        struct EchoSettings: Decodable { var prefix: String }
        struct EchoLoader: ResourceLoading {
            let prefix: String
            func load(_ key: String) async throws -> Data { Data((prefix + key).utf8) }
        }
        var registry = PluginRegistry()
        try registry.registerGatekeeper("tenant", settings: TenantSettings.self) { settings, _ in
            TenantPolicy(tenant: settings.tenant)
        }
        try registry.registerLoader("echo", settings: EchoSettings.self) { settings, _ in
            EchoLoader(prefix: settings.prefix)
        }
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let file = try folder.write(
            #"{ "services": { "s": { "loader": { "type": "echo", "prefix": ">" }, "gatekeepers": [ { "type": "tenant", "tenant": "acme" } ] } } }"#,
            to: "gatehouse.json")
        let service = try Assembler(registry: registry).assemble(contentsOf: file).service(named: nil)
        let data = try await AccessContext.$current.withValue(AccessContext(attributes: ["tenant": "acme"])) {
            try await service.load("x")
        }
        #expect(data == Data(">x".utf8))
        let denied = await #expect(throws: AccessDenied.self) { try await service.load("x") }
        #expect(denied?.gatekeeper == "tenant")
        #expect(denied?.reason == "not tenant acme")
        #expect(
            issues(
                #"{ "services": { "s": { "loader": { "type": "echo", "prefix": ">", "x": 1 }, "gatekeepers": [ { "type": "tenant", "tenant": "a" } ] } } }"#,
                registry: registry)
                == [
                    "services.s.loader.x: unknown key; check its spelling against the documentation of this type"
                ])
    }

    /// A `name` on a gatekeeper and nesting in combinators ask every member once per call, and
    /// the verdict names the renamed gatekeeper.
    @Test func namedAndNestedGatekeepersAreEachAskedOncePerCall() async throws {
        struct CountingSettings: Decodable {}
        let counting = SwitchPolicy("counting")
        var registry = PluginRegistry()
        try registry.registerGatekeeper("counting", settings: CountingSettings.self) { _, _ in
            counting
        }
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let file = try folder.write(
            #"""
            { "services": { "s": { "loader": { "type": "memory", "resources": { "x": "1" } }, "gatekeepers": [
              { "type": "counting", "name": "renamed" },
              { "type": "allOf", "name": "both", "policies": [
                { "type": "counting" }, { "type": "not", "policy": { "type": "alwaysDeny", "name": "never" } } ] },
              { "type": "anyOf", "policies": [ { "type": "counting", "name": "inner" } ] } ] } } }
            """#,
            to: "gatehouse.json")
        let service = try Assembler(registry: registry).assemble(contentsOf: file).service(named: nil)
        _ = try await service.load("x")
        _ = try await service.load("x")
        #expect(counting.evaluations == 6)
        let verdict = try await service.decide(AccessRequest(subject: "a", resource: "x"))
        #expect(verdict.steps.map(\.gatekeeper) == ["renamed", "both", "anyOf"])
    }

    @Test func registeringATakenNameIsAnError() throws {
        var registry = PluginRegistry()
        #expect(throws: ConfigurationError.self) {
            try registry.registerGatekeeper("allowList", settings: BuiltInLikeSettings.self) { _, _ in
                AlwaysAllow()
            }
        }
        #expect(throws: ConfigurationError.self) {
            try registry.registerLoader("disk", settings: BuiltInLikeSettings.self) { _, _ in
                MemoryLoader<String, Data>()
            }
        }
        try registry.registerGatekeeper("mine", settings: BuiltInLikeSettings.self) { _, _ in AlwaysAllow() }
        #expect(throws: ConfigurationError.self) {
            try registry.registerGatekeeper("mine", settings: BuiltInLikeSettings.self) { _, _ in
                AlwaysAllow()
            }
        }
        #expect(PluginRegistry.empty.gatekeeperTypes.isEmpty)
        #expect(PluginRegistry().loaderTypes == ["disk", "memory"])
    }

    struct BuiltInLikeSettings: Decodable {}

    @Test func relativePathsResolveAgainstTheConfigurationFolder() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        try folder.write("avatar bytes", to: "conf/assets/avatars/alice.png")
        try folder.write("allow alice read avatars/*\n", to: "conf/rules/avatars.rules")
        let file = try folder.write(
            """
            { "services": { "avatars": {
                "loader": { "type": "disk", "root": "assets" },
                "gatekeepers": [ { "type": "file", "path": "rules/avatars.rules" } ] } } }
            """, to: "conf/gatehouse.json")
        let service = try Assembler().assemble(contentsOf: file).service(named: "avatars")
        let data = try await AccessContext.$current.withValue(AccessContext(subject: "alice")) {
            try await service.load("avatars/alice.png")
        }
        #expect(data == Data("avatar bytes".utf8))
        #expect(service.description.contains("  loader: disk: files under assets"))
    }

    @Test func aMissingRulesFileIsNotAConfigurationErrorButDenies() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let file = try folder.write(
            service(gatekeepers: #"[{ "type": "file", "path": "later.rules" }]"#), to: "gatehouse.json")
        let service = try Assembler().assemble(contentsOf: file).service(named: "s")
        let denied = await #expect(throws: AccessDenied.self) { try await service.load("a") }
        #expect(denied?.isFailure == true)
        #expect(denied?.reason.contains("later.rules") == true)
        try folder.write("allow * read *\n", to: "later.rules")
        #expect(try await service.load("a") == Data("A".utf8))
    }

    @Test func aRevokedGrantDeniesEvenWithAWarmCacheBehindTheGate() async throws {
        let toggle = SwitchPolicy()
        let loader = SpyLoader()
        var registry = PluginRegistry()
        try registry.registerGatekeeper("switch", settings: BuiltInLikeSettings.self) { _, _ in
            toggle
        }
        try registry.registerLoader("counting", settings: BuiltInLikeSettings.self) { _, _ in loader }
        let json =
            #"{ "services": { "s": { "loader": { "type": "counting" }, "cache": { "countLimit": 10 }, "gatekeepers": [ { "type": "switch" } ] } } }"#
        let service = try Assembler(registry: registry).assemble(
            json: Data(json.utf8), baseDirectory: URL(fileURLWithPath: "/")
        )
        .service(named: nil)
        _ = try await service.load("k")
        _ = try await service.load("k")
        #expect(loader.calls == 1)  // the cache is warm and serving
        toggle.set(.deny(reason: "switched off"))
        await #expect(throws: AccessDenied.self) { try await service.load("k") }
        #expect(loader.calls == 1)
        #expect(service.description[0] == "service \"s\": gate → cache → loader")
    }

    @Test func shadowGatesAreReportedButNotEnforced() async throws {
        let observer = RecordingObserver()
        let json = service(
            gatekeepers: #"[{ "type": "alwaysAllow" }]"#,
            extra: #", "shadow": [ { "type": "allowList", "subjects": ["alice"], "name": "new-rule" } ]"#)
        let service = try Assembler(observer: observer).assemble(
            json: Data(json.utf8), baseDirectory: URL(fileURLWithPath: "/")
        )
        .service(named: "s")
        let data = try await AccessContext.$current.withValue(AccessContext(subject: "bob")) {
            try await service.load("a")
        }
        #expect(data == Data("A".utf8))
        await service.gate.waitForShadowAnswers()
        let records = observer.records
        #expect(records.count == 2)
        // The enforced verdict first, then each shadow gatekeeper's answer, under one request id.
        #expect(!records[0].isShadow && records[0].verdict.isAllowed)
        #expect(
            records[1].isShadow && records[1].verdict.gatekeeper == "new-rule"
                && !records[1].verdict.decision.isAllowed)
        #expect(records[0].requestID == records[1].requestID)
        #expect(records.allSatisfy { $0.service == "s" })
    }

    @Test func theAssemblyClockLetsACallerEvaluateAsIfAtAnInstant() async throws {
        let json = service(
            gatekeepers:
                #"[{ "type": "timeWindow", "timeZone": "Europe/Berlin", "days": ["mon","tue","wed","thu","fri"], "from": "09:00", "to": "17:00" }]"#
        )
        let saturday = ISO8601DateFormatter().date(from: "2026-11-28T09:12:00Z")!
        let monday = ISO8601DateFormatter().date(from: "2026-11-30T09:12:00Z")!
        let atSaturday = try Assembler(clock: { saturday }).assemble(
            json: Data(json.utf8), baseDirectory: URL(fileURLWithPath: "/"))
        let atMonday = try Assembler(clock: { monday }).assemble(
            json: Data(json.utf8), baseDirectory: URL(fileURLWithPath: "/"))
        let denied = await #expect(throws: AccessDenied.self) {
            try await atSaturday.service(named: "s").load("a")
        }
        #expect(denied?.reason == "outside Mon–Fri 09:00–17:00 Europe/Berlin; it is Sat 10:12 there")
        #expect(try await atMonday.service(named: "s").load("a") == Data("A".utf8))
    }

    @Test func aServiceFromJSONBehavesExactlyLikeTheSameProxyBuiltInCode() async throws {
        let json = service(
            gatekeepers: """
                [ { "type": "allowList", "resources": ["a", "b*"], "subjects": ["alice", "bo*"] },
                  { "type": "anyOf", "policies": [ { "type": "allowList", "resources": ["b1"] }, { "type": "not", "policy": { "type": "allowList", "subjects": ["bob"] } } ] } ]
                """)
        let configured = try Assembler().assemble(
            json: Data(json.utf8), baseDirectory: URL(fileURLWithPath: "/")
        ).service(named: "s")
        let loader = MemoryLoader(["a": Data("A".utf8)])
        let inCode = loader.guarded(
            by: try AllowList(resources: ["a", "b*"], subjects: ["alice", "bo*"]),
            AnyOf(try AllowList(resources: ["b1"]), Not(try AllowList(subjects: ["bob"]))))
        for subject in [nil, "alice", "bob", "boris", "carol"] {
            for key in ["a", "b1", "b2", "c"] {
                let context = AccessContext(subject: subject)
                let fromJSON = await AccessContext.$current.withValue(context) {
                    await outcome { try await configured.load(key) }
                }
                let fromCode = await AccessContext.$current.withValue(context) {
                    await outcome { try await inCode.load(key) }
                }
                #expect(fromJSON == fromCode, "subject \(subject ?? "nil"), key \(key)")
            }
        }
    }

    @Test func serviceSelectionNamesTheServicesThereAre() throws {
        let services = try Assembler().assemble(
            json: Data(Self.everyBuiltIn.utf8), baseDirectory: URL(fileURLWithPath: "/tmp"))
        #expect(
            throws: ConfigurationError(
                message: #"the configuration has 2 services ("avatars", "public"); choose one with --service"#
            )
        ) {
            try services.service(named: nil)
        }
        #expect(
            throws: ConfigurationError(
                message: #"no service "x"; the configuration has "avatars", "public""#)
        ) {
            try services.service(named: "x")
        }
    }

    @Test func explainDescribesEachChainInCallOrderWithNestedCombinatorsIndented() throws {
        let services = try Assembler().assemble(
            json: Data(Self.everyBuiltIn.utf8), baseDirectory: URL(fileURLWithPath: "/tmp"))
        #expect(
            services.description == """
                service "avatars": gate → cache → loader
                  gatekeeper 1: allowList: resources avatars/*; subjects alice, bob
                  gatekeeper 2: timeWindow: Mon–Fri 09:00–17:00 Europe/Berlin
                  gatekeeper 3: file: rules in avatars.rules
                  gatekeeper 4: anyOf
                      alwaysDeny: "closed"
                      not
                          alwaysDeny
                  gatekeeper 5: both = allOf
                      alwaysAllow
                  shadow 1 (reported, not enforced): allowList: subjects alice
                  cache: LRU behind the gate, at most 500 entries and 10000000 bytes
                  loader: disk: files under assets

                service "public": gate → loader
                  gatekeeper 1: alwaysAllow
                  loader: memory: 1 resources
                """)
    }

    @Test func aThousandServicesLoadCorrectly() async throws {
        var services: [String] = []
        for index in 0..<1000 {
            services.append(
                #""svc\#(index)": { "loader": { "type": "memory", "resources": { "k": "v\#(index)" } }, "gatekeepers": [ { "type": "allowList", "subjects": ["user\#(index)"] } ] }"#
            )
        }
        let json = #"{ "services": { \#(services.joined(separator: ",\n")) } }"#
        let assembled = try Assembler().assemble(
            json: Data(json.utf8), baseDirectory: URL(fileURLWithPath: "/"))
        #expect(assembled.services.count == 1000)
        for index in stride(from: 0, to: 1000, by: 97) {
            let service = try assembled.service(named: "svc\(index)")
            let data = try await AccessContext.$current.withValue(AccessContext(subject: "user\(index)")) {
                try await service.load("k")
            }
            #expect(data == Data("v\(index)".utf8))
            await #expect(throws: AccessDenied.self) {
                try await AccessContext.$current.withValue(AccessContext(subject: "user\(index + 1)")) {
                    try await service.load("k")
                }
            }
        }
    }
}

/// A comparable outcome of a load: the data, or the denial's gate and reason, or another error.
enum Outcome: Equatable {
    case data(Data)
    case denied(String, String)
    case failed(String)
}

func outcome(_ body: () async throws -> Data) async -> Outcome {
    do {
        return .data(try await body())
    } catch let denied as AccessDenied {
        return .denied(denied.gatekeeper, denied.reason)
    } catch {
        return .failed(String(describing: error))
    }
}
