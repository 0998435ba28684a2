import Foundation
import GatehouseComposition
import GatehouseCore
import GatehouseTestSupport
import Testing

/// A typo in a required key is reported as the typo and as the missing key, for every type of
/// component, built-in and plug-in.
@Suite("Unknown keys beside a missing one")
struct UnknownKeyTests {
    @Test func aMisspelledRequiredKeyIsReportedAsUnknownAndAsMissing() {
        #expect(
            issues(service(gatekeepers: #"[{ "type": "file", "pth": "x.rules" }]"#)) == [
                #"services.s.gatekeepers[0].pth: unknown key (did you mean "path"?)"#,
                "services.s.gatekeepers[0].path: missing",
            ])
    }

    @Test(arguments: [
        (
            #"[{ "type": "timeWindow", "timeZon": "UTC", "days": ["mon"], "from": "09:00", "to": "17:00" }]"#,
            [
                #"services.s.gatekeepers[0].timeZon: unknown key (did you mean "timeZone"?)"#,
                "services.s.gatekeepers[0].timeZone: missing",
            ]
        ),
        (
            #"[{ "type": "not", "gatekeepr": { "type": "alwaysDeny" } }]"#,
            [
                #"services.s.gatekeepers[0].gatekeepr: unknown key (did you mean "gatekeeper"?)"#,
                "services.s.gatekeepers[0].gatekeeper: missing",
            ]
        ),
        (
            #"[{ "type": "allOf", "gatekeeprs": [{ "type": "alwaysAllow" }] }]"#,
            [
                #"services.s.gatekeepers[0].gatekeeprs: unknown key (did you mean "gatekeepers"?)"#,
                "services.s.gatekeepers[0].gatekeepers: missing",
            ]
        ),
        (
            #"[{ "type": "anyOf", "policies": [{ "type": "file", "name": "r", "pat": "x.rules" }] }]"#,
            [
                #"services.s.gatekeepers[0].policies[0].pat: unknown key (did you mean "path"?)"#,
                "services.s.gatekeepers[0].policies[0].path: missing",
            ]
        ),
        (
            #"[{ "type": "file", "path": 5, "requireEnd": true, "colour": "red" }]"#,
            [
                "services.s.gatekeepers[0].colour: unknown key; check its spelling against the documentation of this type",
                "services.s.gatekeepers[0].path: expected a string, found 5",
            ]
        ),
    ])
    func everyBuiltInPolicyReportsBoth(gatekeepers: String, expected: [String]) {
        #expect(issues(service(gatekeepers: gatekeepers)) == expected)
    }

    @Test func aKeyDeclaredAfterTheMissingOneIsNotCalledUnknown() {
        // `days`, `from` and `to` are never read once `timeZone` is missing; they are still keys
        // of the type, so only the typo is reported.
        #expect(
            issues(
                service(
                    gatekeepers:
                        #"[{ "type": "timeWindow", "tz": "UTC", "days": ["mon"], "from": "09:00", "to": "17:00" }]"#
                )) == [
                    "services.s.gatekeepers[0].tz: unknown key; check its spelling against the documentation of this type",
                    "services.s.gatekeepers[0].timeZone: missing",
                ])
    }

    @Test(arguments: [
        (
            #"{ "type": "disk", "rot": "assets" }"#,
            [
                #"services.s.loader.rot: unknown key (did you mean "root"?)"#,
                "services.s.loader.root: missing",
            ]
        ),
        (
            #"{ "type": "memory", "resorces": {} }"#,
            [
                #"services.s.loader.resorces: unknown key (did you mean "resources"?)"#,
                "services.s.loader.resources: missing",
            ]
        ),
    ])
    func everyBuiltInLoaderReportsBoth(loader: String, expected: [String]) {
        let json = """
            { "services": { "s": { "loader": \(loader), "gatekeepers": [{ "type": "alwaysAllow" }] } } }
            """
        #expect(issues(json) == expected)
    }

    @Test func aPlugInTypeReportsBoth() throws {
        struct QuotaSettings: Decodable { var tenant: String }
        var registry = PluginRegistry()
        try registry.registerGatekeeper("quota", settings: QuotaSettings.self) { _, _ in SwitchPolicy() }
        try registry.registerLoader("blob", settings: QuotaSettings.self) { _, _ in
            SpyLoader()
        }
        let json = """
            { "services": { "s": {
                "loader": { "type": "blob", "tenat": "acme" },
                "gatekeepers": [{ "type": "quota", "tennant": "acme" }] } } }
            """
        #expect(
            issues(json, registry: registry) == [
                #"services.s.gatekeepers[0].tennant: unknown key (did you mean "tenant"?)"#,
                "services.s.gatekeepers[0].tenant: missing",
                #"services.s.loader.tenat: unknown key (did you mean "tenant"?)"#,
                "services.s.loader.tenant: missing",
            ])
    }
}
