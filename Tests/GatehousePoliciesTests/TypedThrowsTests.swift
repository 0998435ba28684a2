import GatehouseCore
import GatehousePolicies
import Testing

/// The initializers throw the error type their documentation names, so a caller reads its
/// members without a cast.
@Suite("Typed throws")
struct TypedThrowsTests {
    @Test func rulesPolicyThrowsARulesFileError() {
        do {
            _ = try RulesPolicy(text: "allw alice read docs/*", name: "docs")
            Issue.record("a malformed text was accepted")
        } catch {
            // `error` is a RulesFileError here: no cast.
            #expect(error.problemDescriptions.first?.hasPrefix("docs:1: ") == true)
        }
    }

    @Test func allowListLocalTimeAndTimeWindowThrowAPolicyConfigurationError() {
        do {
            _ = try AllowList(resources: [], name: "team")
            Issue.record("an empty list was accepted")
        } catch {
            #expect(error.policy == "team")
        }
        do {
            _ = try LocalTime("9am")
            Issue.record("9am was accepted")
        } catch {
            #expect(error.message == #"expected HH:mm, found "9am""#)
        }
        do {
            _ = try TimeWindow(
                days: [.mon], from: LocalTime(hour: 9, minute: 0), to: LocalTime(hour: 9, minute: 0),
                timeZone: "Europe/Berlin")
            Issue.record("an empty window was accepted")
        } catch {
            #expect(error.policy == "timeWindow")
        }
    }
}
