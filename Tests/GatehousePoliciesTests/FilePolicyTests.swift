import Foundation
import GatehouseCore
import GatehousePolicies
import GatehouseTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("FilePolicy")
struct FilePolicyTests {
    static let example = """
        # effect  subject  action  resource
        allow     alice    read    avatars/alice/*
        allow     *        read    public/*
        deny      *        *       avatars/*/private-*

        """

    /// A loader that returns a fixed text, to put a real proxy in front of.
    struct TextLoader: ResourceLoading {
        func load(_ key: String) async throws -> String { "contents of \(key)" }
    }

    @Test func decidesByTheFileAndNamesTheDecidingLine() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("avatars.rules")
            try replaceAtomically(url, with: Self.example)
            let policy = FilePolicy(url: url)
            #expect(policy.name == "file")
            let allowed = AccessRequest(subject: "alice", resource: "avatars/alice/a.png")
            #expect(try await policy.evaluate(allowed) == .allow)
            #expect(try policy.decidingRule(for: allowed) == .init(effect: .allow, line: 2))
            #expect(try await policy.evaluate(AccessRequest(resource: "public/x")) == .allow)
            #expect(
                try await policy.evaluate(
                    AccessRequest(subject: "alice", resource: "avatars/alice/private-a"))
                    == .deny(reason: "avatars.rules:4 denies"))
            #expect(
                try await policy.evaluate(AccessRequest(subject: "bob", resource: "avatars/alice/a.png"))
                    == .deny(reason: "no rule in avatars.rules allows"))
        }
    }

    @Test func anUnchangedFileIsParsedOnlyOnce() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("avatars.rules")
            try replaceAtomically(url, with: Self.example)
            let policy = FilePolicy(url: url)
            for _ in 0..<20 {
                _ = try await policy.evaluate(AccessRequest(resource: "public/x"))
            }
            #expect(policy.loadCount == 1)
        }
    }

    @Test func theDecisionRightAfterAnAtomicReplaceUsesTheNewRules() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("avatars.rules")
            let policy = FilePolicy(url: url)
            let request = AccessRequest(subject: "alice", resource: "x")
            for round in 1...20 {
                let allows = round.isMultiple(of: 2)
                try replaceAtomically(url, with: allows ? "allow alice read x\n" : "deny alice read x\n")
                #expect(try await policy.evaluate(request).isAllowed == allows, "round \(round)")
                #expect(policy.loadCount == round)
            }
        }
    }

    @Test func anInPlaceRewriteThatChangesTheSizeIsSeen() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("avatars.rules")
            try replaceAtomically(url, with: "allow * read x\n")
            let policy = FilePolicy(url: url)
            let request = AccessRequest(resource: "x")
            #expect(try await policy.evaluate(request) == .allow)
            try rewriteInPlace(url, with: Array("# closed\ndeny * read x\n".utf8))
            #expect(try await policy.evaluate(request) == .deny(reason: "avatars.rules:2 denies"))
        }
    }

    @Test func anInPlaceRewriteOfTheSameSizeIsSeenWhenTheModificationTimeDiffersByOneNanosecond() async throws
    {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("avatars.rules")
            let before = Array("allow * read x\n".utf8)
            let after = Array("deny  * read x\n".utf8)
            #expect(before.count == after.count)
            try rewriteInPlace(url, with: before)
            try setModificationTime(url, seconds: 1_780_000_000, nanoseconds: 1)
            let policy = FilePolicy(url: url)
            let request = AccessRequest(resource: "x")
            #expect(try await policy.evaluate(request) == .allow)
            try rewriteInPlace(url, with: after)
            try setModificationTime(url, seconds: 1_780_000_000, nanoseconds: 2)
            #expect(try await policy.evaluate(request) == .deny(reason: "avatars.rules:1 denies"))
        }
    }

    @Test func aDeletedFileDeniesAsAGateFailureAndARecreatedFileAllowsAgain() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("avatars.rules")
            try replaceAtomically(url, with: "allow * read *\n")
            let avatars = TextLoader().guarded(by: FilePolicy(url: url))
            #expect(try await avatars.load("a") == "contents of a")

            try FileManager.default.removeItem(at: url)
            for _ in 0..<2 {
                do {
                    _ = try await avatars.load("a")
                    Issue.record("a missing rules file allowed a call")
                } catch let denied as AccessDenied {
                    #expect(denied.isFailure)
                    #expect(denied.gatekeeper == "file")
                    #expect(denied.reason == "avatars.rules: cannot read: No such file or directory")
                    #expect((denied.underlyingError as? RulesFileError)?.kind == .cannotRead)
                }
            }

            try replaceAtomically(url, with: "allow * read *\n")
            #expect(try await avatars.load("a") == "contents of a")
        }
    }

    @Test func aFileThatDoesNotExistYetFailsUntilItIsCreated() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("later.rules")
            let policy = FilePolicy(url: url)
            await #expect(throws: RulesFileError.self) {
                try await policy.evaluate(AccessRequest(resource: "x"))
            }
            await #expect(throws: RulesFileError.self) {
                try await policy.evaluate(AccessRequest(resource: "x"))
            }
            try replaceAtomically(url, with: "allow * * *\n")
            #expect(try await policy.evaluate(AccessRequest(resource: "x")) == .allow)
        }
    }

    @Test func aMalformedFileFailsEveryDecisionNamingTheLineAndIsReadOnce() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("avatars.rules")
            try replaceAtomically(url, with: "allow * read x\n# note\nallow * read\n")
            let policy = FilePolicy(url: url)
            for _ in 0..<3 {
                await #expect(
                    throws: RulesFileError(
                        file: "avatars.rules", line: 3, kind: .malformed,
                        message: "expected 4 fields (effect subject action resource), found 3")
                ) {
                    try await policy.evaluate(AccessRequest(resource: "x"))
                }
            }
            #expect(policy.loadCount == 1)
            try replaceAtomically(url, with: "allow * read x\n")
            #expect(try await policy.evaluate(AccessRequest(resource: "x")) == .allow)
        }
    }

    @Test func aValidFileReplacedByAMalformedOneFailsInsteadOfKeepingTheOldRules() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("avatars.rules")
            try replaceAtomically(url, with: "allow * read x\n")
            let policy = FilePolicy(url: url)
            #expect(try await policy.evaluate(AccessRequest(resource: "x")) == .allow)
            try replaceAtomically(url, with: "permit * read x\n")
            await #expect(throws: RulesFileError.self) {
                try await policy.evaluate(AccessRequest(resource: "x"))
            }
        }
    }

    @Test func aDirectoryInPlaceOfTheFileFails() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("avatars.rules")
            try replaceAtomically(url, with: "allow * read x\n")
            let policy = FilePolicy(url: url)
            #expect(try await policy.evaluate(AccessRequest(resource: "x")) == .allow)
            try FileManager.default.removeItem(at: url)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
            await #expect(
                throws: RulesFileError(
                    file: "avatars.rules", kind: .notRegularFile,
                    message: "is a directory, not a regular file; expected a rules file")
            ) {
                try await policy.evaluate(AccessRequest(resource: "x"))
            }
        }
    }

    @Test func aRulesFileInAFolderWithANonASCIINameIsRead() async throws {
        try await withTemporaryDirectory { directory in
            let folder = directory.appendingPathComponent("règles-ünï-日本")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            let url = folder.appendingPathComponent("zugriff-é.rules")
            try replaceAtomically(url, with: "allow * read x\n")
            let policy = FilePolicy(url: url)
            #expect(try await policy.evaluate(AccessRequest(resource: "x")) == .allow)
            #expect(
                try await policy.evaluate(AccessRequest(resource: "y"))
                    == .deny(reason: "no rule in zugriff-é.rules allows"))
        }
    }

    @Test func aPathHoldingANULIsNeverReadAsThePathBeforeIt() async throws {
        try await withTemporaryDirectory { directory in
            try replaceAtomically(directory.appendingPathComponent("open"), with: "allow * * *\n")
            let policy = FilePolicy(url: directory.appendingPathComponent("open\u{0}.rules"))
            await #expect(throws: RulesFileError.self) {
                try await policy.evaluate(AccessRequest(resource: "x"))
            }
        }
    }

    @Test func eachAppendToTheFileIsReadWhole() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("growing.rules")
            try Data("allow * read x\n".utf8).write(to: url)
            let policy = FilePolicy(url: url)
            #expect(try await policy.evaluate(AccessRequest(resource: "x")) == .allow)
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            for index in 0..<200 {
                try handle.seekToEnd()
                try handle.write(contentsOf: Data("allow * read y\(index)\n".utf8))
                let rules = try policy.currentRules()
                #expect(rules.ruleCount == index + 2)
            }
        }
    }

    /// A procfs file is "regular" to `stat` but reports size 0 and holds more: it was said to
    /// have "changed 3 times while being read" (finding 10 of the third security round).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status")))
    func aProcFileLinkedAsTheRulesFileIsASpecialFileNotAChangingOne() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("avatars.rules")
            try FileManager.default.createSymbolicLink(
                at: url, withDestinationURL: URL(fileURLWithPath: "/proc/self/status"))
            let policy = FilePolicy(url: url)
            await #expect(
                throws: RulesFileError(
                    file: "avatars.rules", kind: .notRegularFile,
                    message: "is a special file whose size is not known (the system reports 0 bytes, "
                        + "and it holds more: a /proc or /sys file?), not a regular file; expected a rules file"
                )
            ) {
                try await policy.evaluate(AccessRequest(resource: "x"))
            }
        }
    }

    /// A rules file saved as UTF-16 says so, instead of naming a NUL in line 1.
    @Test(
        arguments: [
            [0xFF, 0xFE, 0x61, 0x00, 0x6C, 0x00], [0xFE, 0xFF, 0x00, 0x61, 0x00, 0x6C],
            [0x61, 0x00, 0x6C, 0x00, 0x6C, 0x00],
        ] as [[UInt8]])
    func aRulesFileInUTF16SaysItMustBeUTF8(_ bytes: [UInt8]) async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("avatars.rules")
            try Data(bytes).write(to: url)
            let policy = FilePolicy(url: url)
            await #expect(throws: RulesFileError.self) {
                try await policy.evaluate(AccessRequest(resource: "x"))
            }
            do {
                _ = try await policy.evaluate(AccessRequest(resource: "x"))
            } catch let error as RulesFileError {
                #expect(error.kind == .notUTF8)
                #expect(error.message.hasPrefix("is UTF-16"), "\(error.message)")
                #expect(error.message.hasSuffix("; save the file as UTF-8"))
            }
        }
    }

    @Test func aFileLargerThanTheLimitFails() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("avatars.rules")
            let policy = FilePolicy(url: url, maximumFileSize: 16)
            try replaceAtomically(url, with: "allow * read x\n#")  // exactly 16 bytes
            #expect(try await policy.evaluate(AccessRequest(resource: "x")) == .allow)
            try replaceAtomically(url, with: "allow * read x\n#\n")
            await #expect(
                throws: RulesFileError(
                    file: "avatars.rules", kind: .tooLarge,
                    message: "is 17 bytes, larger than the limit of 16 bytes")
            ) {
                try await policy.evaluate(AccessRequest(resource: "x"))
            }
        }
    }

    @Test func bytesThatAreNotUTF8Fail() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("avatars.rules")
            try rewriteInPlace(url, with: Array("allow * read x\nallow * read ".utf8) + [0xFE, 0x0A])
            let policy = FilePolicy(url: url)
            await #expect {
                try await policy.evaluate(AccessRequest(resource: "x"))
            } throws: { error in
                (error as? RulesFileError)?.errorDescription
                    == "avatars.rules:2: not valid UTF-8; save the file as UTF-8"
            }
        }
    }

    @Test func removingReadPermissionIsNoticedAtTheNextDecision() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("avatars.rules")
            try replaceAtomically(url, with: "allow * read x\n")
            let policy = FilePolicy(url: url)
            #expect(try await policy.evaluate(AccessRequest(resource: "x")) == .allow)
            #expect(chmod(url.path, 0) == 0)
            defer { chmod(url.path, 0o644) }
            if geteuid() == 0 {
                // Root reads regardless of permission bits: the change is noticed (the file is
                // read again) and the rules still apply.
                #expect(try await policy.evaluate(AccessRequest(resource: "x")) == .allow)
            } else {
                await #expect(
                    throws: RulesFileError(
                        file: "avatars.rules", kind: .cannotRead, message: "cannot read: Permission denied")
                ) {
                    try await policy.evaluate(AccessRequest(resource: "x"))
                }
            }
            #expect(policy.loadCount == 2)
        }
    }

    @Test func concurrentDecisionsWhileTheFileIsReplacedEachSeeOneWholeVersion() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("avatars.rules")
            // Each version decides the request with its own line; a decision that mixed the two
            // (or saw a partial file) would give another answer.
            let versionA = "allow * read r\n"
            let versionB = "# b\n# b\ndeny * read r\nallow * read r\n"
            let outcomes: Set<RulesFile.Verdict> = [
                .init(effect: .allow, line: 1), .init(effect: .deny, line: 3),
            ]
            try replaceAtomically(url, with: versionA)
            let policy = FilePolicy(url: url)
            let request = AccessRequest(subject: "alice", resource: "r")
            try await withThrowingTaskGroup(of: Set<RulesFile.Verdict?>.self) { group in
                group.addTask {
                    for round in 0..<200 {
                        try replaceAtomically(url, with: round.isMultiple(of: 2) ? versionB : versionA)
                        await Task.yield()
                    }
                    return []
                }
                for _ in 0..<4 {
                    group.addTask {
                        var seen: Set<RulesFile.Verdict?> = []
                        for _ in 0..<500 {
                            seen.insert(try policy.decidingRule(for: request))
                            await Task.yield()
                        }
                        return seen
                    }
                }
                for try await seen in group {
                    #expect(seen.allSatisfy { $0.map(outcomes.contains) ?? false }, "\(seen)")
                }
            }
            // The writer's last version (round 199: A) is what decides now.
            #expect(try policy.decidingRule(for: request) == .init(effect: .allow, line: 1))
        }
    }

    @Test func agreesWithALinearScanOnRandomFiles() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("random.rules")
            let policy = FilePolicy(url: url)
            var random = SplitMix64(seed: 0xf11e_0001)
            for _ in 0..<20 {
                var lines: [String] = []
                var reference: [ReferenceRule] = []
                for _ in 0..<Int.random(in: 1...30, using: &random) {
                    let rule = ReferenceRule(
                        effect: Int.random(in: 0..<6, using: &random) == 0 ? .deny : .allow,
                        subject: random.string(from: "ab*", maxLength: 2).nonEmpty,
                        action: random.string(from: "rw*", maxLength: 1).nonEmpty,
                        resource: random.string(from: "ab/*", maxLength: 5).nonEmpty, line: lines.count + 1)
                    let effect = rule.effect == .deny ? "deny" : "allow"
                    lines.append("\(effect) \(rule.subject) \(rule.action) \(rule.resource)")
                    reference.append(rule)
                }
                try replaceAtomically(url, with: lines.joined(separator: "\n"))
                for _ in 0..<40 {
                    let subject: String? =
                        Int.random(in: 0..<5, using: &random) == 0
                        ? nil : random.string(from: "ab", maxLength: 2)
                    let request = AccessRequest(
                        subject: subject, action: random.string(from: "rw", maxLength: 1).nonEmpty,
                        resource: random.string(from: "ab/", maxLength: 6))
                    let expected = referenceDecide(
                        reference, subject: subject, action: request.action.rawValue,
                        resource: request.resource)
                    let decision: AccessDecision =
                        switch expected {
                        case .some(let verdict) where verdict.effect == .allow: .allow
                        case .some(let verdict): .deny(reason: "random.rules:\(verdict.line) denies")
                        case .none: .deny(reason: "no rule in random.rules allows")
                        }
                    #expect(try await policy.evaluate(request) == decision, "\(request)")
                }
            }
        }
    }
}
