import Foundation
import GatehouseComposition
import GatehouseTestSupport
import Testing

/// A configuration with many mistakes reports every one of them in one error, each at its
/// place: mistakes in the file's shape do not hide those in the components, one component does
/// not hide another, and within a component one value does not hide the next.
@Suite("Every configuration problem in one pass")
struct OnePassValidationTests {
    @Test func aConfigurationWithNineMistakesReportsAllNineAtTheirPlaces() {
        let found = issues(SampleConfigurations.nineMistakes)
        let expected = [
            "decisionLg: unknown key",
            "services.docs.cache.countLimit: expected a positive whole number, found 0",
            "services.docs.gatekeepers[0].subjcts: unknown key",
            "services.docs.gatekeepers[1].timeZone:",
            "services.docs.gatekeepers[1].from: expected HH:mm",
            "services.docs.gatekeepers[2].requireEnd: expected true or false",
            "services.docs.gatekeepers[2].whenInvalid: unknown value \"keepLastGod\"",
            "services.docs.loader.type: unknown loader type \"dsk\"",
            "services.reports.gatekeepers[0].type: unknown policy type \"alowList\"",
        ]
        for start in expected {
            #expect(found.contains { $0.hasPrefix(start) }, "missing \(start) in \(found)")
        }
        #expect(found.count == 9, "\(found.joined(separator: "\n"))")
    }

    @Test func aFlagOfTheWrongTypeDoesNotHideTheNextValue() {
        let found = issues(
            service(
                gatekeepers:
                    #"[{"type": "file", "path": "a.rules", "requireEnd": 1, "whenInvalid": "never"}]"#))
        #expect(found.count == 2, "\(found)")
        #expect(found.contains { $0.hasPrefix("services.s.gatekeepers[0].requireEnd:") })
        #expect(found.contains { $0.hasPrefix("services.s.gatekeepers[0].whenInvalid:") })
    }

    @Test func everyBadValueOfATimeWindowIsReported() {
        let found = issues(
            service(
                gatekeepers: #"""
                    [{"type": "timeWindow", "timeZone": "Mars/Olympus", "days": ["mon", "funday"], "from": "25:00", "to": "noon"}]
                    """#))
        for key in ["timeZone", "days[1]", "from", "to"] {
            #expect(found.contains { $0.hasPrefix("services.s.gatekeepers[0].\(key):") }, "\(key): \(found)")
        }
    }

    @Test func aMissingRequiredSettingDoesNotHideAnUnknownValue() {
        let found = issues(service(gatekeepers: #"[{"type": "file", "whenInvalid": "never"}]"#))
        #expect(found.contains("services.s.gatekeepers[0].path: missing"), "\(found)")
        #expect(found.contains { $0.hasPrefix("services.s.gatekeepers[0].whenInvalid:") }, "\(found)")
    }

    @Test func everyBadListOfAnAllowListIsReported() {
        let found = issues(
            service(gatekeepers: #"[{"type": "allowList", "resources": [], "subjects": ["a", "", ""]}]"#))
        #expect(
            found == [
                "services.s.gatekeepers[0].resources: empty; an empty list would deny everything (use alwaysDeny if you mean it)",
                "services.s.gatekeepers[0].subjects[1]: an empty pattern matches nothing",
                "services.s.gatekeepers[0].subjects[2]: an empty pattern matches nothing",
            ])
    }
}
