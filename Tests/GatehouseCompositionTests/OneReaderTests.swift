import Foundation
import GatehouseComposition
import GatehouseCore
import GatehousePolicies
import GatehouseTestSupport
import Testing

/// The whole configuration file and every plugin's settings are read by one reader: mistakes at
/// every level of one file are reported together, each at its place, unknown keys with their
/// likely meaning, values of the wrong kind with what was expected.
@Suite("One reader for the whole configuration")
struct OneReaderTests {
    @Test func mistakesAtEveryLevelOfOneFileAreAllReportedAtTheirPlaces() {
        let json = """
            { "services": {
                "docs": {
                  "loader": { "type": "memory", "resources": { "a": "A" } },
                  "cache": { "countLimit": "ten", "bytLimit": 5 },
                  "gatekeepers": [
                    { "type": "allowList", "resources": ["docs/*"], "subjcts": ["alice"] },
                    { "type": "file", "path": 7 }
                  ],
                  "attributes": ["tenant", 3],
                  "shadw": [] },
                "notes": [] },
              "decisionLog": { "path": "", "overflow": "wai" },
              "servces": {} }
            """
        #expect(
            issues(json) == [
                #"servces: unknown key (did you mean "services"?); the top level has "services", "decisionLog" (and "$schema")"#,
                #"decisionLog.path: expected a non-empty string, found """#,
                #"decisionLog.overflow: expected "drop" or "wait", found "wai" (did you mean "wait"?)"#,
                #"services.docs.shadw: unknown key (did you mean "shadow"?); a service has "loader", "cache", "#
                    + #""gatekeepers", "shadow", "attributes", "resourceAttributes", "invariants""#,
                #"services.docs.cache.bytLimit: unknown key (did you mean "byteLimit"?); a cache has "countLimit" and "byteLimit""#,
                #"services.docs.cache.countLimit: expected a positive whole number, found "ten""#,
                "services.docs.attributes[1]: expected an attribute name (a non-empty string), found a number",
                #"services.notes: expected an object with "loader" and "gatekeepers", found an array"#,
                #"services.docs.gatekeepers[0].subjcts: unknown key (did you mean "subjects"?)"#,
                "services.docs.gatekeepers[1].path: expected a string, found 7",
            ])
    }

    @Test(arguments: [
        (#"{ "services": [] }"#, "services: expected an object of named services, found an array"),
        (
            #"{ "services": { "s": 1 } }"#,
            #"services.s: expected an object with "loader" and "gatekeepers", found a number"#
        ),
        (
            #"{ "services": { "s": { "loader": "disk", "gatekeepers": [{ "type": "alwaysAllow" }] } } }"#,
            #"services.s.loader: expected an object with a "type", found a string"#
        ),
        (
            #"{ "services": { "s": { "loader": { "type": 5 }, "gatekeepers": [{ "type": "alwaysAllow" }] } } }"#,
            "services.s.loader.type: expected a type name (a string), found a number"
        ),
        (
            #"{ "services": { "s": { "loader": { "type": "memory", "resources": {} }, "gatekeepers": {} } } }"#,
            "services.s.gatekeepers: expected an array of components, found an object"
        ),
        (
            #"{ "services": { "s": { "loader": { "type": "memory", "resources": {} }, "gatekeepers": [{ "type": "alwaysAllow" }], "cache": 5 } } }"#,
            #"services.s.cache: expected an object with "countLimit" and/or "byteLimit", found a number"#
        ),
        (
            #"{ "services": { "s": { "loader": { "type": "memory", "resources": {} }, "gatekeepers": [{ "type": "alwaysAllow" }] } }, "decisionLog": [] }"#,
            #"decisionLog: expected an object with "path", found an array"#
        ),
    ])
    func aValueOfTheWrongKindSaysWhatWasExpectedAndFound(json: String, expected: String) {
        #expect(issues(json) == [expected])
    }

    /// A plugin registered in code: its settings are read by the same reader, every problem at
    /// its place below the component, unknown keys first.
    @Test func aPluginsSettingsReportEveryProblemAtItsPlace() throws {
        struct Window: Decodable, Sendable { var from: String }
        struct QuotaSettings: Decodable, Sendable {
            var tenant: String
            var limit: Int
            var regions: [String]
            var window: Window?
        }
        var registry = PluginRegistry()
        try registry.registerGatekeeper("quota", settings: QuotaSettings.self) { _, _ in AlwaysAllow() }
        let json = service(
            gatekeepers: """
                [{ "type": "quota", "tenat": "acme", "limit": "many", "regions": ["eu", 5],
                   "window": { "frm": "09:00" } }]
                """)
        #expect(
            issues(json, registry: registry) == [
                #"services.s.gatekeepers[0].tenat: unknown key (did you mean "tenant"?)"#,
                #"services.s.gatekeepers[0].window.frm: unknown key (did you mean "from"?)"#,
                "services.s.gatekeepers[0].tenant: missing",
                #"services.s.gatekeepers[0].limit: expected a whole number, found "many""#,
                "services.s.gatekeepers[0].regions[1]: expected a string, found 5",
                "services.s.gatekeepers[0].window.from: missing",
            ])
    }

    /// A settings type that checks itself as it is decoded throws `ConfigurationError`, which
    /// is reported below the component as a factory's is.
    @Test func aSettingsTypesOwnConfigurationErrorIsReportedAtItsPlace() throws {
        struct CheckedSettings: Decodable, Sendable {
            init(from decoder: any Decoder) throws {
                throw ConfigurationError(path: "tenant", message: "expected a tenant such as \"acme\"")
            }
        }
        var registry = PluginRegistry()
        try registry.registerGatekeeper("checked", settings: CheckedSettings.self) { _, _ in AlwaysAllow() }
        #expect(
            issues(service(gatekeepers: #"[{ "type": "checked", "tenant": "" }]"#), registry: registry) == [
                #"services.s.gatekeepers[0].tenant: expected a tenant such as "acme""#
            ])
    }

    /// A plugin's settings that read well build the plugin with what was written.
    @Test func aPluginsSettingsReachItsFactory() async throws {
        struct TenantSettings: Decodable, Sendable {
            var tenant: String
            var limits: [String: Int]
        }
        let seen = LockedState<TenantSettings?>(nil)
        var registry = PluginRegistry()
        try registry.registerGatekeeper("tenant", settings: TenantSettings.self) { settings, _ in
            seen.withLock { $0 = settings }
            return AlwaysAllow()
        }
        let json = service(
            gatekeepers: #"[{ "type": "tenant", "tenant": "acme", "limits": { "read": 10 } }]"#)
        #expect(issues(json, registry: registry).isEmpty)
        #expect(seen.withLock { $0 }?.tenant == "acme")
        #expect(seen.withLock { $0 }?.limits == ["read": 10])
    }

    /// A foreign decoder (`JSONDecoder`) gets the same reader, and its first problem.
    @Test func jsonDecoderReportsTheReadersFirstProblem() {
        let json = #"{ "services": { "s": { "loader": { "type": "memory" }, "gatekeeprs": [] } } }"#
        #expect {
            try JSONDecoder().decode(GatehouseConfiguration.self, from: Data(json.utf8))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.debugDescription
                == #"services.s.gatekeeprs: unknown key (did you mean "gatekeepers"?); a service has "loader", "cache", "#
                + #""gatekeepers", "shadow", "attributes", "resourceAttributes", "invariants""#
        }
    }
}
