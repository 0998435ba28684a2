import Foundation
import GatehouseCore
import GatehousePolicies
import Testing

/// The README's `decide` and `AccessObserver` example, as written there.
@Suite("The README's examples")
struct ReadmeExampleTests {
    struct PrintingObserver: AccessObserver {
        let printed = Printed()
        func observe(_ record: AccessRecord) {
            printed.append("\(record.request.resource) \(record.verdict)")
        }
    }

    final class Printed: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    @Test func decideAnswersWithAVerdictAndTheObserverReceivesIt() async throws {
        let observer = PrintingObserver()
        let gate = AccessGate(
            gatekeepers: [try RulesPolicy(text: "allow alice read docs/*", name: "docs")],
            observer: observer, mask: ["token"])
        let verdict = try await gate.decide(AccessRequest(subject: "bob", action: .read, resource: "docs/a"))
        #expect(!verdict.isAllowed)
        #expect(verdict.gatekeeper == "docs")
        #expect(verdict.reason == "no rule in docs allows")
        #expect(observer.printed.all == ["docs/a denied by docs: no rule in docs allows"])
    }
}
