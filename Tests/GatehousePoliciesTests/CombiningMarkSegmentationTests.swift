import GatehouseCore
import GatehouseTestSupport
import Testing

@testable import GatehousePolicies

/// Decisions and plans read a pattern the same way where a `*`, `/`, `{` or `}` is followed by a
/// combining mark (one `Character` with it, but still a wildcard, a separator or a brace to the
/// engine): the plan permits exactly the names the gate allows.
@Suite("One segmentation for decisions and plans")
struct CombiningMarkSegmentationTests {
    static let marks = ["\u{301}", "\u{308}", "\u{20DD}"]
    static let pieces = ["a", "b", "*", "/", "{subject}", "docs", "é"] + marks

    @Test func plansAgreeWithDecisionsOnPatternsWithCombiningMarksAfterEveryMetacharacter() async throws {
        var generator = SplitMix64(seed: 0x5E6)
        var checks = 0
        var names = Set<String>()
        while names.count < 400 {
            let count = Int.random(in: 1...5, using: &generator)
            let name = (0..<count).map { _ in
                (["a", "b", "/", "docs", "é", "alice"] + Self.marks).randomElement(using: &generator)!
            }.joined()
            if ResourceIdentity.path.violation(in: name) == nil { names.insert(name) }
        }
        for _ in 0..<60 {
            var lines: [String] = []
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let count = Int.random(in: 1...5, using: &generator)
                let pattern = (0..<count).map { _ in Self.pieces.randomElement(using: &generator)! }.joined()
                let effect = Int.random(in: 0..<4, using: &generator) == 0 ? "deny" : "allow"
                lines.append("\(effect) * read \(pattern)")
            }
            guard let policy = try? RulesPolicy(text: lines.joined(separator: "\n"), name: "marks") else {
                continue
            }
            let gate = AccessGate(gatekeepers: [policy])
            for subject in ["alice", "\u{301}"] {
                let plan = try await gate.plan(subject: subject, action: .read)
                for name in names {
                    let allowed = try await !gate.permitted([
                        AccessRequest(subject: subject, action: "read", resource: name)
                    ]).isEmpty
                    #expect(
                        plan.permits(name) == allowed,
                        "\(lines) \(subject) \(name.unicodeScalars.map(\.value))")
                    checks += 1
                }
            }
        }
        #expect(checks >= 20_000)
    }
}
