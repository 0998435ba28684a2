import Foundation
import GatehouseCore
import GatehousePolicies
import GatehouseTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Groups at a scale an attacker who may write a rules file can choose: a chain of groups many
/// thousands deep, and a cycle through 100,000 groups. Loading costs time and memory in
/// proportion to the file, and every message stays short.
@Suite("Rules: deep groups and long cycles")
struct RulesGroupScaleTests {
    /// `group gI @gI+1 sI` for I in 0..<depth (the last group holds only its subject), then
    /// `rules`: a chain in which `s(depth - 1)`, at the bottom, belongs to every group, and `s0`,
    /// at the top, only to `g0`.
    static func chain(depth: Int, rules: [String]) -> String {
        var text = ""
        text.reserveCapacity(depth * 26)
        for index in 0..<(depth - 1) {
            text += "group g\(index) @g\(index + 1) s\(index)\n"
        }
        text += "group g\(depth - 1) s\(depth - 1)\n"
        return text + rules.joined(separator: "\n") + "\n"
    }

    /// Once every member's groups were worked out when the file was read, which for this chain
    /// is `depth × depth / 2` memberships: 16,000 deep took 25 s and 2.4 GB in a release build.
    @Test func aChainOfSixteenThousandGroupsLoadsQuicklyAndDecidesAtBothEnds() async throws {
        let depth = 16_000
        let bottom = "s\(depth - 1)"
        // Line numbers of the rules: the group lines come first.
        let text = Self.chain(
            depth: depth,
            rules: [
                "allow @g0 read docs/*",
                "allow @g\(depth - 1) write docs/*",
            ]
                // Ten rules on one resource pattern: more than a decision reads one by one, so
                // these are looked up by the subject's groups (see RulesFile).
                + (0..<10).map { "allow @g\(depth - 1 - $0) list docs/*" })
        // Near-linear, not members × depth: a chain 8 times deeper takes about 8 times as long
        // to load, not 64 times. A ratio inside one run, so that a sanitizer or a slow machine
        // does not fail it; the time this thread spent on the processor, not the time on a
        // clock, so that other tests (and other processes) running meanwhile do not count.
        let small = Self.chain(depth: depth / 8, rules: ["allow @g0 read docs/*"])
        var start = Self.threadProcessorTime()
        _ = try RulesPolicy(text: small, name: "small")
        let smallLoading = Self.threadProcessorTime() - start
        start = Self.threadProcessorTime()
        let rules = try RulesPolicy(text: text, name: "chain")
        let loading = Self.threadProcessorTime() - start
        #expect(
            loading < 24 * max(smallLoading, 0.001),
            "loading \(depth) groups took \(loading) s of processor time, \(depth / 8) took \(smallLoading) s"
        )

        func decide(_ subject: String, _ action: String) async throws -> AccessDecision {
            try await rules.explain(AccessRequest(subject: subject, action: action, resource: "docs/a"))
                .decision
        }
        // The bottom subject belongs to the top group, through 15,999 others.
        #expect(try await decide(bottom, "read") == .allow)
        #expect(try await decide(bottom, "write") == .allow)
        #expect(try await decide(bottom, "list") == .allow)
        // The top subject belongs to the top group only, not to the bottom one.
        #expect(try await decide("s0", "read") == .allow)
        #expect(try await decide("s0", "write") == .deny(reason: "no rule in chain allows"))
        #expect(try await decide("s0", "list") == .deny(reason: "no rule in chain allows"))
        // One in the middle: in the groups above it, not in those below.
        #expect(try await decide("s8000", "read") == .allow)
        #expect(try await decide("s8000", "write") == .deny(reason: "no rule in chain allows"))
        #expect(try await decide("s\(depth - 10)", "list") == .allow)
        #expect(try await decide("s\(depth - 11)", "list") == .deny(reason: "no rule in chain allows"))
        // No group holds this subject; a group's name is not a subject.
        #expect(try await decide("s\(depth)", "read") == .deny(reason: "no rule in chain allows"))
        #expect(try await decide("g0", "read") == .deny(reason: "no rule in chain allows"))
    }

    /// Forty levels of two groups, each holding both groups of the level below: a subject at
    /// the bottom belongs to all 80 groups through 2^40 paths. More groups than are kept when
    /// the file is read, so a decision walks up, and visits each group once.
    @Test func aLadderOfDiamondsFortyDeepAgreesWithTheReference() throws {
        var lines: [String] = []
        for level in 0..<39 {
            for side in ["a", "b"] {
                lines.append("group \(side)\(level) @a\(level + 1) @b\(level + 1) \(side)-member-\(level)")
            }
        }
        lines += ["group a39 bottom", "group b39 other-bottom"]
        lines += [
            "allow @a0 read docs/*", "deny @b20 read docs/secret", "allow @a39 write docs/*",
            "allow @b0 list *",
        ]
        // Ten rules on one resource pattern, looked up by the subject's groups.
        lines += (0..<10).map { "allow @a\($0 * 3) delete logs/*" }
        let text = lines.joined(separator: "\n")
        let rules = try RulesFile.parse(text, fileName: "ladder.rules")
        let reference = try ReferenceRules(parsing: text)
        let subjects = ["bottom", "other-bottom", "a-member-0", "b-member-20", "a-member-21", "nobody"]
        for subject in subjects {
            for (action, resource) in [
                ("read", "docs/a"), ("read", "docs/secret"), ("write", "docs/a"), ("list", "x"),
                ("delete", "logs/a"),
            ] {
                let request = AccessRequest(subject: subject, action: action, resource: resource)
                #expect(
                    rules.decide(request) == reference.decide(request), "\(subject) \(action) \(resource)")
            }
        }
        #expect(
            rules.decide(subject: "bottom", action: "read", resource: "docs/secret")
                == .init(effect: .deny, line: 82))
    }

    /// The processor time the calling thread has used, in seconds.
    static func threadProcessorTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// A cycle through 100,000 groups was named group by group: a message of about 989 KB in
    /// every error, denial reason and decision-log line. (25,000 here, for a test's time.)
    @Test func aCycleThroughTwentyFiveThousandGroupsIsNamedInAShortMessage() throws {
        let count = 25_000
        var text = ""
        for index in 0..<count {
            text += "group g\(index) @g\((index + 1) % count)\n"
        }
        text += "allow @g0 read docs/*\n"
        let error = try #require(throws: RulesFileError.self) {
            try RulesFile.parse(text, fileName: "r.rules")
        }
        #expect(error.line == count)
        #expect(
            error.message
                == "group cycle: g0 -> g1 -> g2 -> g3 -> g4 -> … (24,995 more) -> g0; a group cannot hold itself"
        )
        #expect((error.errorDescription ?? "").count < 200)
    }

    /// The same file read by a `FilePolicy`: every decision fails with the file's error as its
    /// reason, which was the whole cycle.
    @Test func aFilePolicyOnSuchACycleFailsEachDecisionWithAShortReason() async throws {
        let count = 25_000
        var text = ""
        for index in 0..<count {
            text += "group g\(index) @g\((index + 1) % count)\n"
        }
        let folder = try TemporaryDirectory()
        let url = folder.file("cycle.rules")
        try Data(text.utf8).write(to: url)
        let gate = AccessGate(gatekeepers: [FilePolicy(url: url)])
        let verdict = try await gate.decide(AccessRequest(subject: "s", action: "read", resource: "docs/a"))
        #expect(verdict.outcome == .failed)
        let reason = try #require(verdict.reason)
        #expect(reason.count < 300, "\(reason.prefix(300))")
        #expect(reason.contains("group cycle: g0 -> g1 -> g2 -> g3 -> g4 -> … (24,995 more) -> g0"))
    }

    /// A cycle of a few groups is named in full, however it was found.
    @Test func aShortCycleIsNamedInFull() throws {
        var text = ""
        for index in 0..<8 {
            text += "group g\(index) @g\((index + 1) % 8)\n"
        }
        let error = try #require(throws: RulesFileError.self) {
            try RulesFile.parse(text, fileName: "r.rules")
        }
        #expect(
            error.message
                == "group cycle: g0 -> g1 -> g2 -> g3 -> g4 -> g5 -> g6 -> g7 -> g0; a group cannot hold itself"
        )
    }
}
