import Foundation
import GatehouseCore
import GatehouseTestSupport
import Testing

@Suite("Nothing private in messages")
struct NothingPrivateInMessagesTests {
    static let context = AccessContext(subject: "dana", attributes: ["owner": "erin", "token": "s3cret"])

    struct LookupFailed: Error, CustomStringConvertible {
        var token: String
        var description: String { "the lookup of \(token) failed" }
    }

    /// A gatekeeper that quotes the token in its reason, as a careless one would.
    static let quoting = ClosurePolicy("quoting") { request in
        .deny(
            reason:
                "token \(request.attributes["token"] ?? "") is expired for owner \(request.attributes["owner"] ?? "")"
        )
    }

    @Test func aDenialsDescriptionNamesAttributesWithoutTheirValues() async throws {
        let proxy = SpyLoader().guarded(by: Self.quoting)
        let error = await #expect(throws: AccessDenied.self) {
            try await AccessContext.$current.withValue(Self.context) { try await proxy.load("docs/a") }
        }
        let texts = [error.map(String.init(describing:)), error?.localizedDescription].compactMap { $0 }
        #expect(texts.count == 2)
        for text in texts {
            #expect(!text.contains("s3cret"))
            #expect(!text.contains("erin"))
            #expect(text.contains("owner") && text.contains("token"))
            #expect(text.contains("dana read \"docs/a\""))
        }
    }

    @Test func aMaskedValueAppearsInNoRecordVerdictOrDenial() async throws {
        let observer = RecordingObserver()
        let failing = ClosurePolicy("failing") { request in
            throw LookupFailed(token: request.attributes["token"] ?? "")
        }
        let gate = AccessGate(
            gatekeepers: [Self.quoting], shadow: [failing], observer: observer, mask: ["token"])
        let request = AccessRequest(
            subject: "dana", resource: "docs/a", attributes: ["owner": "erin", "token": "s3cret"])
        let verdict = try await gate.decide(request)
        let denial = await #expect(throws: AccessDenied.self) { try await gate.authorize(request) }
        await gate.waitForShadowAnswers()

        var outputs =
            [String(describing: verdict), verdict.reason ?? ""] + verdict.steps.compactMap(\.reason)
        outputs += [
            denial.map(String.init(describing:)) ?? "", denial?.reason ?? "", "\(denial?.request as Any)",
        ]
        for record in observer.records {
            outputs.append(String(decoding: try JSONEncoder().encode(record), as: UTF8.self))
        }
        #expect(observer.records.count == 4)
        #expect(outputs.allSatisfy { !$0.contains("s3cret") })
        #expect(verdict.reason == "token (masked) is expired for owner erin")
        #expect(denial?.request.attributes["token"] == "(masked)")
    }

    @Test func aMaskOnTheProxyKeepsTheValueFromTheGatekeepers() async throws {
        let policy = SwitchPolicy("gate", .deny(reason: "no"))
        let proxy = SpyLoader().guarded(by: policy, mask: ["token"])
        let error = await #expect(throws: AccessDenied.self) {
            try await AccessContext.$current.withValue(Self.context) { try await proxy.load("docs/a") }
        }
        #expect(policy.seen.first?.attributes["token"] == "s3cret")
        #expect(error?.request.attributes["token"] == "(masked)")
    }
}
