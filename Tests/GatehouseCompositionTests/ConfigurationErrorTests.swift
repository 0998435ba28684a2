import Foundation
import GatehouseComposition
import GatehouseTestSupport
import Testing

@Suite("Configuration errors name their place")
struct ConfigurationErrorTests {
    @Test(arguments: [
        (
            #"[{ "type": "timeWindow", "timeZone": "Europe/Berlin", "days": ["mon"], "from": "9am", "to": "17:00" }]"#,
            #"services.s.gatekeepers[0].from: expected HH:mm, found "9am""#
        ),
        (
            #"[{ "type": "timeWindow", "timeZone": "Europe/Berln", "days": ["mon"], "from": "09:00", "to": "17:00" }]"#,
            #"services.s.gatekeepers[0].timeZone: unknown time zone "Europe/Berln"; expected an IANA identifier such as "Europe/Berlin" (did you mean "Europe/Berlin"?)"#
        ),
        (
            #"[{ "type": "timeWindow", "timeZone": "GMT+5", "days": ["mon"], "from": "09:00", "to": "17:00" }]"#,
            #"services.s.gatekeepers[0].timeZone: unknown time zone "GMT+5"; expected an IANA identifier such as "Europe/Berlin"; a fixed offset of +05:00 is written "Etc/GMT-5" (Etc names invert the sign)"#
        ),
        (
            #"[{ "type": "timeWindow", "timeZone": "Factory", "days": ["mon"], "from": "09:00", "to": "17:00" }]"#,
            #"services.s.gatekeepers[0].timeZone: unknown time zone "Factory"; expected an IANA identifier such as "Europe/Berlin" ("Factory" is tzdata's placeholder for a machine whose zone is not set, not a place's time zone)"#
        ),
        (
            #"[{ "type": "timeWindow", "timeZone": "UTC", "days": ["mon", "fry"], "from": "09:00", "to": "17:00" }]"#,
            #"services.s.gatekeepers[0].days[1]: expected one of mon, tue, wed, thu, fri, sat, sun, found "fry""#
        ),
        (
            #"[{ "type": "timeWindow", "timeZone": "UTC", "days": [], "from": "09:00", "to": "17:00" }]"#,
            #"services.s.gatekeepers[0].days: empty; list at least one day ("mon" … "sun")"#
        ),
        (
            #"[{ "type": "timeWindow", "timeZone": "UTC", "days": ["mon"], "from": "09:00", "to": "09:00" }]"#,
            #"services.s.gatekeepers[0].to: equals from (09:00); a window needs a start and a different end"#
        ),
        (
            #"[{ "type": "allowList", "resources": ["a/*"], "subjcts": ["alice"] }]"#,
            #"services.s.gatekeepers[0].subjcts: unknown key (did you mean "subjects"?)"#
        ),
        (
            #"[{ "type": "allowList", "resources": [] }]"#,
            #"services.s.gatekeepers[0].resources: empty; an empty list would deny everything (use alwaysDeny if you mean it)"#
        ),
        (
            #"[{ "type": "allowList" }]"#,
            #"services.s.gatekeepers[0].resources: missing; give "resources", "subjects" or both"#
        ),
        (
            #"[{ "type": "allowList", "resources": "a/*" }]"#,
            #"services.s.gatekeepers[0].resources: expected an array, found a string"#
        ),
        (
            #"[{ "type": "allowlist", "resources": ["a"] }]"#,
            #"services.s.gatekeepers[0].type: unknown policy type "allowlist" (did you mean "allowList"?); known: allOf, allowList, alwaysAllow, alwaysDeny, anyOf, file, not, remote, timeWindow"#
        ),
        (
            #"[{ "resources": ["a"] }]"#,
            #"services.s.gatekeepers[0].type: missing; every component names its type"#
        ),
        (
            #"[{ "type": 3 }]"#,
            #"services.s.gatekeepers[0].type: expected a type name (a string), found a number"#
        ),
        (
            #"["alwaysAllow"]"#,
            #"services.s.gatekeepers[0]: expected an object with a "type", found a string"#
        ),
        (
            #"[]"#,
            #"services.s.gatekeepers: empty; a service without gatekeepers is not an open door (use alwaysAllow if you mean it)"#
        ),
        (
            #"[{ "type": "allOf", "gatekeepers": [] }]"#,
            #"services.s.gatekeepers[0].gatekeepers: empty; allOf needs at least one gatekeeper"#
        ),
        (
            #"[{ "type": "not", "policy": { "type": "anyOf", "policies": [{ "type": "alwaysDeny", "reson": "x" }] } }]"#,
            #"services.s.gatekeepers[0].policy.policies[0].reson: unknown key (did you mean "reason"?)"#
        ),
        (#"[{ "type": "not" }]"#, #"services.s.gatekeepers[0].gatekeeper: missing"#),
        (#"[{ "type": "file", "path": "" }]"#, #"services.s.gatekeepers[0].path: must not be empty"#),
        (
            #"[{ "type": "alwaysAllow", "name": "" }]"#,
            #"services.s.gatekeepers[0].name: expected a non-empty string, found """#
        ),
    ])
    func eachGatekeeperErrorNamesItsPlace(gatekeepers: String, expected: String) {
        #expect(issues(service(gatekeepers: gatekeepers)) == [expected])
    }

    /// A component nested in a combinator is read as a gatekeeper is, with the same messages.
    @Test(arguments: [
        (
            #"[{ "type": "not", "policy": { "reason": "x" } }]"#,
            #"services.s.gatekeepers[0].policy.type: missing; every component names its type"#
        ),
        (
            #"[{ "type": "allOf", "policies": [{ "type": 3 }] }]"#,
            #"services.s.gatekeepers[0].policies[0].type: expected a type name (a string), found a number"#
        ),
        (
            #"[{ "type": "anyOf", "policies": ["alwaysAllow"] }]"#,
            #"services.s.gatekeepers[0].policies[0]: expected an object with a "type", found a string"#
        ),
    ])
    func aNestedComponentIsCheckedAsAGatekeeperIs(gatekeepers: String, expected: String) {
        #expect(issues(service(gatekeepers: gatekeepers)) == [expected])
    }

    @Test(arguments: [
        (
            #"{ "services": { "s": { "loader": { "type": "memory", "resources": {} }, "gatekeeper": [] } } }"#,
            [
                #"services.s.gatekeeper: unknown key (did you mean "gatekeepers"?); a service has "loader", "cache", "gatekeepers", "shadow", "attributes", "resourceAttributes", "invariants""#,
                #"services.s.gatekeepers: missing; a service without gatekeepers is not an open door (use alwaysAllow if you mean it)"#,
            ]
        ),
        (
            #"{ "services": { "s": { "gatekeepers": [{ "type": "alwaysAllow" }] } } }"#,
            [#"services.s.loader: missing; say which loader serves this service"#]
        ),
        (
            #"{ "services": { "s": { "loader": { "type": "dsk", "root": "x" }, "gatekeepers": [{ "type": "alwaysAllow" }] } } }"#,
            [
                #"services.s.loader.type: unknown loader type "dsk" (did you mean "disk"?); known: disk, memory"#
            ]
        ),
        (
            #"{ "services": { "s": { "loader": { "type": "disk", "root": "x", "maximumFileSize": "big" }, "gatekeepers": [{ "type": "alwaysAllow" }] } } }"#,
            [#"services.s.loader.maximumFileSize: expected a whole number, found "big""#]
        ),
        (
            #"{ "services": { "s": { "loader": { "type": "memory", "resources": {} }, "cache": { "countLimit": 0, "bytes": 5 }, "gatekeepers": [{ "type": "alwaysAllow" }] } } }"#,
            [
                #"services.s.cache.bytes: unknown key; a cache has "countLimit" and "byteLimit""#,
                #"services.s.cache.countLimit: expected a positive whole number, found 0"#,
            ]
        ),
        (
            #"{ "services": { "s": { "loader": { "type": "memory", "resources": { "Keys/../x": "1" } }, "gatekeepers": [{ "type": "alwaysAllow" }] } } }"#,
            [
                #"services.s.loader.resources["Keys/../x"]: the key has a ".." path component, which would name a resource outside its folder; no request could name it"#
            ]
        ),
        (#"{ "services": {} }"#, [#"services: empty; name at least one service"#]),
        (
            #"{ "service": {} }"#,
            [
                #"service: unknown key (did you mean "services"?); the top level has "services", "decisionLog" (and "$schema")"#,
                "services: missing; name at least one service",
            ]
        ),
        (#"[1, 2]"#, [#"the configuration is an array; expected a JSON object such as {"services": {...}}"#]),
    ])
    func eachServiceErrorNamesItsPlace(json: String, expected: [String]) {
        #expect(issues(json) == expected)
    }

    @Test(arguments: [
        (
            "{\n  \"services\": {\n    \"s\": { \"loader\": 1,, }\n  }\n}",
            "line 3, column 24: invalid JSON: unexpected ',', expected a key in double quotes"
        ),
        (
            "{ \"services\": { \"s\": 1 ",
            "line 1, column 24: invalid JSON: unexpected end of file, expected ',' or '}'"
        ),
        ("{ \"a\": 1, \"a\": 2 }", "line 1, column 11: invalid JSON: duplicate key \"a\""),
        ("{ \"a\": tru }", "line 1, column 8: invalid JSON: unexpected 't', expected a value"),
        ("{ \"a\": 01 }", "line 1, column 8: invalid JSON: a number may not start with 0"),
        (
            "{ \"a\": \"x\ty\" }",
            "line 1, column 10: invalid JSON: a control character must be escaped in a string"
        ),
        ("[", "line 1, column 2: invalid JSON: unexpected end of file, expected a value"),
        ("{} {}", "line 1, column 4: invalid JSON: unexpected '{' after the end of the document"),
    ])
    func invalidJSONIsReportedWithLineAndColumn(json: String, expected: String) {
        #expect(issues(json) == [expected])
    }

    @Test func validationCollectsEveryProblemInOnePass() {
        let json = """
            { "services": {
                "a": { "loader": { "type": "memory", "resources": {} },
                       "gatekeepers": [ { "type": "allowList", "resources": ["x"], "subjets": ["y"] },
                                        { "type": "timeWindow", "timeZone": "Mars/Olympus", "days": ["mon"], "from": "25:00", "to": "10:00" } ] },
                "b": { "loader": { "type": "nope" }, "gatekeepers": [ { "type": "nope" } ] } } }
            """
        let found = issues(json)
        #expect(found.count == 5)
        #expect(found.contains { $0.hasPrefix("services.a.gatekeepers[0].subjets: unknown key") })
        #expect(found.contains { $0.hasPrefix("services.a.gatekeepers[1].timeZone: unknown time zone") })
        #expect(found.contains { $0.hasPrefix("services.a.gatekeepers[1].from:") })
        #expect(
            found.contains { $0.hasPrefix("services.b.gatekeepers[0].type: unknown policy type \"nope\"") })
        #expect(found.contains { $0.hasPrefix("services.b.loader.type: unknown loader type \"nope\"") })
    }

    @Test func everyMemberOfACombinatorIsCheckedInOnePass() {
        let json = service(
            gatekeepers:
                #"[{ "type": "anyOf", "policies": [{ "type": "x" }, { "type": "alwaysAllow" }, { "type": "y" }] }]"#
        )
        let found = issues(json)
        #expect(found.count == 2)
        #expect(found[0].hasPrefix("services.s.gatekeepers[0].policies[0].type: unknown policy type \"x\""))
        #expect(found[1].hasPrefix("services.s.gatekeepers[0].policies[2].type: unknown policy type \"y\""))
    }

    @Test func nestingDeeperThanTheLimitIsAnError() {
        var policy = #"{ "type": "alwaysAllow" }"#
        for _ in 0..<20 { policy = #"{ "type": "not", "policy": \#(policy) }"# }
        let found = issues(service(gatekeepers: "[\(policy)]"))
        #expect(found.count == 1)
        #expect(found.first?.hasSuffix("policies are nested more than 16 levels deep") == true)
    }

    @Test func oddServiceNamesAreQuotedInPaths() {
        let json =
            #"{ "services": { "my service": { "loader": { "type": "memory", "resources": {} }, "gatekeepers": [] } } }"#
        #expect(issues(json).first?.hasPrefix(#"services["my service"].gatekeepers: empty"#) == true)
    }

    @Test func anUnreadableFileIsAConfigurationError() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let missing = folder.file("no-such-gatehouse.json")
        let error = #expect(throws: ConfigurationError.self) { try Assembler().assemble(contentsOf: missing) }
        #expect(error?.issues.first?.message.hasPrefix("cannot read: ") == true)
        #expect(error?.file == missing)
    }
}
