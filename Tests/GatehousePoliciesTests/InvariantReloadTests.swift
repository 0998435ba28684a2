import Foundation
import GatehouseCore
import GatehouseTestSupport
import Testing

@testable import GatehousePolicies

/// A reload of a rules file that breaks an invariant is refused: the last good version keeps
/// deciding (``FilePolicy/WhenInvalid/keepLastGood``), or every decision fails (the default), and
/// the reason names the invariant, a counterexample and the rule that allows it.
@Suite("Invariants at reload")
struct InvariantReloadTests {
    static let invariants = try! Invariants(text: "never * read secrets/*", name: "guard.invariants")
    static let good = "allow * read public/*\n"
    /// Breaks the invariant through a placeholder, and no longer allows `public/a`.
    static let breaking = "allow * read {subject}/*\n"
    static let publicFile = AccessRequest(subject: "alice", resource: "public/a")
    static let secretFile = AccessRequest(subject: "secrets", resource: "secrets/a")

    @Test func aBreakingVersionAtTheFirstLoadFailsEveryDecisionNamingTheInvariant() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("docs.rules")
            try replaceAtomically(url, with: Self.breaking)
            let gate = AccessGate(gatekeepers: [
                FilePolicy(url: url, whenInvalid: .keepLastGood, invariants: Self.invariants)
            ])
            let verdict = try await gate.decide(Self.publicFile)
            #expect(verdict.outcome == .failed)
            let reason = try #require(verdict.reason)
            #expect(
                reason.contains(
                    "docs.rules:1: breaks the invariant guard.invariants:1 (never * read secrets/*)"))
            #expect(reason.contains("subject \"secrets\", action \"read\", resource \"secrets/"))
            // The counterexample is a name a proxy lets reach its gates: a path.
            #expect(!reason.contains("resource \"secrets/\""))
        }
    }

    @Test func aBreakingReloadFailsClosedByDefault() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("docs.rules")
            try replaceAtomically(url, with: Self.good)
            let policy = FilePolicy(url: url, invariants: Self.invariants)
            #expect(try await policy.evaluate(Self.publicFile) == .allow)
            try replaceAtomically(url, with: Self.breaking)
            let error = try #require(throws: RulesFileError.self) { try policy.currentRules() }
            #expect(error.kind == .breaksInvariant)
            #expect(error.line == 1)
            #expect(throws: RulesFileError.self) { try policy.validate() }
        }
    }

    @Test func aBreakingReloadKeepsTheLastGoodVersionAndSaysWhy() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("docs.rules")
            try replaceAtomically(url, with: Self.good)
            let policy = FilePolicy(url: url, whenInvalid: .keepLastGood, invariants: Self.invariants)
            #expect(try await policy.evaluate(Self.publicFile) == .allow)
            try replaceAtomically(url, with: Self.breaking)
            #expect(try await policy.evaluate(Self.publicFile) == .allow)
            #expect(policy.invalidCurrentVersion?.kind == .breaksInvariant)
            guard case .deny(let reason) = try await policy.evaluate(Self.secretFile) else {
                Issue.record("the breaking version decided")
                return
            }
            #expect(
                reason.contains("by the last good version; the current one is invalid: docs.rules:1: breaks"))
        }
    }

    /// Readers decide while a writer flips the file between a good and a breaking version: every
    /// decision follows the good version, none the breaking one, and none fails.
    @Test func decisionsUnderLoadNeverFollowTheBreakingVersion() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("docs.rules")
            try replaceAtomically(url, with: Self.good)
            let policy = FilePolicy(url: url, whenInvalid: .keepLastGood, invariants: Self.invariants)
            #expect(try await policy.evaluate(Self.publicFile) == .allow)
            let flips = 100
            let decisionsPerReader = 800
            let (wrong, refusedSeen) = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
                group.addTask {
                    for flip in 0..<flips {
                        try replaceAtomically(url, with: flip % 2 == 0 ? Self.breaking : Self.good)
                        await Task.yield()
                    }
                    try replaceAtomically(url, with: Self.good)
                    return (0, 0)
                }
                for _ in 0..<2 {
                    group.addTask {
                        var wrong = 0
                        var refused = 0
                        for step in 0..<decisionsPerReader {
                            let secret = try await policy.evaluate(Self.secretFile)
                            let visible = try await policy.evaluate(Self.publicFile)
                            if secret == .allow || visible != .allow { wrong += 1 }
                            if step % 10 == 0, policy.invalidCurrentVersion?.kind == .breaksInvariant {
                                refused += 1
                            }
                            await Task.yield()
                        }
                        return (wrong, refused)
                    }
                }
                var total = (0, 0)
                for try await each in group { total = (total.0 + each.0, total.1 + each.1) }
                return total
            }
            #expect(wrong == 0)
            // The breaking version was really loaded, and refused, while decisions went on.
            #expect(refusedSeen > 0)
            #expect(policy.loadCount > 2)
        }
    }
}
