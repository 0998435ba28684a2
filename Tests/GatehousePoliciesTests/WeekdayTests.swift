import Foundation
import GatehousePolicies
import Testing

@Suite("Weekday")
struct WeekdayTests {
    @Test func weekStartsOnMonday() {
        #expect(Weekday.allCases.map(\.rawValue) == ["mon", "tue", "wed", "thu", "fri", "sat", "sun"])
        #expect(Weekday.allCases.map(\.shortName) == ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"])
        #expect(Set(Weekday.allCases).sorted() == Weekday.allCases)
        #expect(Weekday.sun > Weekday.mon)
    }

    @Test(arguments: [
        ([Weekday.mon, .tue, .wed, .thu, .fri], "Mon–Fri"),
        ([.mon, .wed, .fri], "Mon, Wed, Fri"),
        ([.sat, .sun], "Sat, Sun"),
        ([.mon, .tue, .wed, .sat], "Mon–Wed, Sat"),
        ([.fri, .sat, .sun, .mon], "Fri–Mon"),
        ([.wed, .sat, .sun, .mon], "Wed, Sat–Mon"),
        ([.sun, .mon], "Mon, Sun"),
        ([.thu], "Thu"),
        (Weekday.allCases, "Mon–Sun"),
        ([], "no day"),
    ])
    func summaryShowsRunsAsRanges(days: [Weekday], summary: String) {
        #expect(Weekday.summary(of: Set(days)) == summary)
    }

    @Test func codesAsItsRawValue() throws {
        let json = try JSONEncoder().encode([Weekday.mon, .sun])
        #expect(String(decoding: json, as: UTF8.self) == #"["mon","sun"]"#)
        #expect(try JSONDecoder().decode([Weekday].self, from: json) == [.mon, .sun])
    }

    @Test func decodingAnUnknownDayListsTheKnownOnes() {
        let error = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([Weekday].self, from: Data(#"["Monday"]"#.utf8))
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(String(describing: error))")
            return
        }
        #expect(
            context.debugDescription == "expected one of mon, tue, wed, thu, fri, sat, sun, found \"Monday\"")
    }
}
