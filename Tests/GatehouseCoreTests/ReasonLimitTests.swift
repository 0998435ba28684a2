import Foundation
import GatehouseCore
import GatehouseTestSupport
import Testing

/// Every reason a gate gives is bounded: at most 1,000 characters (and 4,000 bytes) and then
/// `…`, cut between characters, whatever the gatekeeper answered or threw.
@Suite("Reasons are bounded")
struct ReasonLimitTests {
    /// A gatekeeper's reason of a megabyte.
    static let huge = String(repeating: "x", count: 1_000_000)

    struct Huge: Error, CustomStringConvertible {
        var description: String { ReasonLimitTests.huge }
    }

    static let request = AccessRequest(subject: "mallory", action: "read", resource: "docs/a")

    /// Gates whose gatekeeper answers without suspending or suspends, with and without an observer.
    static func gates(_ decide: @escaping @Sendable (AccessRequest) throws -> AccessDecision) -> [AccessGate]
    {
        [
            AccessGate(gatekeepers: [SynchronousClosurePolicy("huge", decide)]),
            AccessGate(gatekeepers: [ClosurePolicy("huge", decide)]),
            AccessGate(gatekeepers: [ClosurePolicy("huge", decide)], observer: RecordingObserver()),
        ]
    }

    @Test func aMegabyteDenialReasonIsCutToAThousandCharacters() async throws {
        for gate in Self.gates({ _ in .deny(reason: Self.huge) }) {
            let verdict = try await gate.decide(Self.request)
            #expect(verdict.reason == String(repeating: "x", count: 1_000) + "…")
            #expect(verdict.steps.map(\.reason) == [verdict.reason])
            let denial = try await #require(throws: AccessDenied.self) {
                try await gate.authorize(Self.request)
            }
            #expect(denial.reason == verdict.reason)
            #expect(denial.description.count < 1_100)
        }
    }

    @Test func aMegabyteErrorIsCutToAThousandCharacters() async throws {
        for gate in Self.gates({ _ in throw Huge() }) {
            let verdict = try await gate.decide(Self.request)
            #expect(verdict.outcome == .failed)
            #expect(verdict.reason == String(repeating: "x", count: 1_000) + "…")
            let denial = try await #require(throws: AccessDenied.self) {
                try await gate.authorize(Self.request)
            }
            #expect(denial.isFailure)
            #expect(denial.reason == verdict.reason)
        }
    }

    /// An allow's note is its reason, and bounded the same way.
    @Test func aMegabyteNoteOnAnAllowIsCutToo() async throws {
        struct Noting: AccessPolicy {
            let name = "noting"
            func evaluate(_ request: AccessRequest) async throws -> AccessDecision { .allow }
            func explain(_ request: AccessRequest) async throws -> AccessExplanation {
                AccessExplanation(.allow, note: ReasonLimitTests.huge)
            }
        }
        let verdict = try await AccessGate(gatekeepers: [Noting()]).decide(Self.request)
        #expect(verdict.isAllowed)
        #expect(verdict.reason == String(repeating: "x", count: 1_000) + "…")
    }

    /// A resource that breaks the identity rule is quoted in the reason; a long one is cut.
    @Test func anIdentityReasonQuotingALongResourceIsCut() async throws {
        let decomposed = String(repeating: "e\u{301}", count: 100_000)
        let gate = AccessGate(gatekeepers: [SynchronousClosurePolicy("any") { _ in .allow }], identity: .text)
        let verdict = try await gate.decide(AccessRequest(subject: "a", action: "read", resource: decomposed))
        #expect(verdict.gatekeeper == AccessGate.identityGatekeeper)
        let reason = try #require(verdict.reason)
        #expect(reason.hasPrefix("the resource "))
        #expect(reason.count == 1_001)
        #expect(reason.hasSuffix("…"))
    }

    @Test func aReasonWithinTheLimitIsKeptWhole() async throws {
        let reason = String(repeating: "é", count: 1_000)
        for gate in Self.gates({ _ in .deny(reason: reason) }) {
            #expect(try await gate.decide(Self.request).reason == reason)
        }
    }

    /// Characters of several scalars (`e` and a combining accent) are kept whole or left out.
    @Test func aReasonIsCutBetweenCharactersNeverInsideOne() async throws {
        let reason = String(repeating: "e\u{301}", count: 5_000)
        let verdict = try await Self.gates({ _ in .deny(reason: reason) })[0].decide(Self.request)
        let cut = try #require(verdict.reason)
        #expect(cut == String(repeating: "e\u{301}", count: 1_000) + "…")
        #expect(cut.unicodeScalars.count == 2_001)
    }

    /// One character may be a megabyte (a letter and a million combining marks): it is left
    /// out whole, so the bytes are bounded too.
    @Test func aCharacterLongerThanTheByteLimitIsLeftOut() async throws {
        let reason = "denied: a" + String(repeating: "\u{301}", count: 1_000_000)
        let verdict = try await Self.gates({ _ in .deny(reason: reason) })[0].decide(Self.request)
        #expect(verdict.reason == "denied: …")
    }
}
