import Foundation
import GatehouseCore
import GatehousePolicies
import GatehouseTestSupport
import Testing

/// `FilePolicy(whenInvalid: .keepLastGood)`: a bad version leaves the last good one in charge,
/// and says so; a missing file is never a bad version.
@Suite("FilePolicy keeps the last good version when asked")
struct FilePolicyLastGoodTests {
    static let good = """
        allow * read public/*
        deny  * read public/secret
        """
    /// Line 2 has three fields.
    static let malformed = """
        allow * read public/*
        deny  * read
        """
    static let publicFile = AccessRequest(subject: "alice", resource: "public/a")
    static let secretFile = AccessRequest(subject: "alice", resource: "public/secret")
    static let otherFile = AccessRequest(subject: "alice", resource: "other/a")

    /// The words a reason decided by the last good version ends with.
    static func lastGoodNote(_ error: RulesFileError?) -> String {
        " (by the last good version; the current one is invalid: \(error?.errorDescription ?? "?"))"
    }

    @Test func aMalformedVersionLeavesTheLastGoodVersionDecidingAndEveryDenialSaysSo() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("docs.rules")
            try replaceAtomically(url, with: Self.good)
            let policy = FilePolicy(url: url, whenInvalid: .keepLastGood)
            #expect(policy.whenInvalid == .keepLastGood)
            #expect(try await policy.evaluate(Self.publicFile) == .allow)
            #expect(policy.invalidCurrentVersion == nil)

            try replaceAtomically(url, with: Self.malformed)
            // The first decision after the replace loads the new version and keeps the old.
            #expect(try await policy.evaluate(Self.publicFile) == .allow)
            let invalid = try #require(policy.invalidCurrentVersion)
            #expect(invalid.kind == .malformed)
            #expect(invalid.file == "docs.rules")
            #expect(invalid.line == 2)
            #expect(
                try await policy.evaluate(Self.secretFile)
                    == .deny(reason: "docs.rules:2 denies" + Self.lastGoodNote(invalid)))
            #expect(
                try await policy.evaluate(Self.otherFile)
                    == .deny(reason: "no rule in docs.rules allows" + Self.lastGoodNote(invalid)))
            #expect(try policy.decidingRule(for: Self.secretFile) == .init(effect: .deny, line: 2))
            #expect(policy.loadCount == 2)
        }
    }

    /// The allow made by the last good version says so too: in the gate's verdict and in the
    /// audit record, with the deciding rule and the error of the current version.
    @Test func anAllowByTheLastGoodVersionSaysSoInTheVerdictAndTheRecord() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("docs.rules")
            try replaceAtomically(url, with: Self.good)
            let observer = RecordingObserver()
            let gate = AccessGate(
                gatekeepers: [FilePolicy(url: url, whenInvalid: .keepLastGood)], observer: observer)
            let fresh = try await gate.decide(Self.publicFile)
            #expect(fresh.isAllowed && fresh.reason == nil)
            #expect(fresh.rule == RuleReference(source: "docs.rules", line: 1))

            try replaceAtomically(url, with: Self.malformed)
            let verdict = try await gate.decide(Self.publicFile)
            #expect(verdict.isAllowed)
            #expect(verdict.rule == RuleReference(source: "docs.rules", line: 1))
            #expect(
                verdict.reason
                    == "by the last good version; the current one is invalid: docs.rules:2: "
                    + "expected 4 fields (effect subject action resource), found 3")
            #expect(observer.records.last?.verdict == verdict)
            let denied = try await gate.decide(Self.secretFile)
            #expect(denied.reason?.hasPrefix("docs.rules:2 denies (by the last good version; ") == true)
        }
    }

    @Test func aGoodVersionAfterABadOneDecidesAndClearsTheError() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("docs.rules")
            try replaceAtomically(url, with: Self.good)
            let policy = FilePolicy(url: url, whenInvalid: .keepLastGood)
            #expect(
                try await policy.evaluate(Self.otherFile) == .deny(reason: "no rule in docs.rules allows"))
            try replaceAtomically(url, with: Self.malformed)
            #expect(try await policy.evaluate(Self.publicFile) == .allow)
            #expect(policy.invalidCurrentVersion != nil)

            try replaceAtomically(url, with: "# version 3\nallow * read other/*\n")
            #expect(policy.invalidCurrentVersion == nil)
            #expect(try await policy.evaluate(Self.otherFile) == .allow)
            #expect(
                try await policy.evaluate(Self.publicFile) == .deny(reason: "no rule in docs.rules allows"))
        }
    }

    @Test func aSecondBadVersionIsNamedAndTheFirstGoodVersionStillDecides() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("docs.rules")
            try replaceAtomically(url, with: Self.good)
            let policy = FilePolicy(url: url, whenInvalid: .keepLastGood)
            #expect(try await policy.evaluate(Self.publicFile) == .allow)
            try replaceAtomically(url, with: Self.malformed)
            #expect(policy.invalidCurrentVersion?.line == 2)
            try replaceAtomically(url, with: "# a note\n\npermit * read public/*\n")
            let invalid = try #require(policy.invalidCurrentVersion)
            #expect(invalid.line == 3)
            #expect(
                try await policy.evaluate(Self.secretFile)
                    == .deny(reason: "docs.rules:2 denies" + Self.lastGoodNote(invalid)))
        }
    }

    @Test func anEmptyVersionIsIncompleteAndKeepsTheLastGoodVersion() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("docs.rules")
            try replaceAtomically(url, with: Self.good)
            let policy = FilePolicy(url: url, whenInvalid: .keepLastGood)
            #expect(try await policy.evaluate(Self.publicFile) == .allow)
            try replaceAtomically(url, with: "")
            #expect(try await policy.evaluate(Self.publicFile) == .allow)
            #expect(policy.invalidCurrentVersion?.kind == .incomplete)
        }
    }

    @Test func aVersionLargerThanTheLimitKeepsTheLastGoodVersion() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("docs.rules")
            try replaceAtomically(url, with: "allow * read public/*\n")
            let policy = FilePolicy(url: url, maximumFileSize: 32, whenInvalid: .keepLastGood)
            #expect(try await policy.evaluate(Self.publicFile) == .allow)
            try replaceAtomically(url, with: "allow * read public/*\n# a comment that is too long\n")
            #expect(try await policy.evaluate(Self.publicFile) == .allow)
            #expect(policy.invalidCurrentVersion?.kind == .tooLarge)
        }
    }

    @Test func aFirstVersionThatIsBadFailsForThereIsNothingToKeep() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("docs.rules")
            try replaceAtomically(url, with: Self.malformed)
            let policy = FilePolicy(url: url, whenInvalid: .keepLastGood)
            let error = await #expect(throws: RulesFileError.self) {
                try await policy.evaluate(Self.publicFile)
            }
            #expect(error?.kind == .malformed)
            #expect(error?.line == 2)
            #expect(policy.invalidCurrentVersion == nil)
            // Once a version parses, it is kept.
            try replaceAtomically(url, with: Self.good)
            #expect(try await policy.evaluate(Self.publicFile) == .allow)
            try replaceAtomically(url, with: Self.malformed)
            #expect(try await policy.evaluate(Self.publicFile) == .allow)
        }
    }

    @Test func aMissingFileFailsEveryDecision() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("docs.rules")
            try replaceAtomically(url, with: Self.good)
            let policy = FilePolicy(url: url, whenInvalid: .keepLastGood)
            #expect(try await policy.evaluate(Self.publicFile) == .allow)
            try FileManager.default.removeItem(at: url)
            for _ in 0..<2 {
                let error = await #expect(throws: RulesFileError.self) {
                    try await policy.evaluate(Self.publicFile)
                }
                #expect(error?.kind == .cannotRead)
            }
            #expect(policy.invalidCurrentVersion == nil)
        }
    }

    @Test func aMissingFileForgetsTheLastGoodVersionSoALaterBadVersionFails() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("docs.rules")
            try replaceAtomically(url, with: Self.good)
            let policy = FilePolicy(url: url, whenInvalid: .keepLastGood)
            #expect(try await policy.evaluate(Self.publicFile) == .allow)
            try FileManager.default.removeItem(at: url)
            await #expect(throws: RulesFileError.self) { try await policy.evaluate(Self.publicFile) }

            // The deleted rules are not brought back by the next bad push.
            try replaceAtomically(url, with: Self.malformed)
            let error = await #expect(throws: RulesFileError.self) {
                try await policy.evaluate(Self.publicFile)
            }
            #expect(error?.kind == .malformed)
            #expect(policy.invalidCurrentVersion == nil)
        }
    }

    @Test func aDirectoryInPlaceOfTheFileForgetsTheLastGoodVersion() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("docs.rules")
            try replaceAtomically(url, with: Self.good)
            let policy = FilePolicy(url: url, whenInvalid: .keepLastGood)
            #expect(try await policy.evaluate(Self.publicFile) == .allow)
            try FileManager.default.removeItem(at: url)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
            let error = await #expect(throws: RulesFileError.self) {
                try await policy.evaluate(Self.publicFile)
            }
            #expect(error?.kind == .notRegularFile)

            try FileManager.default.removeItem(at: url)
            try replaceAtomically(url, with: Self.malformed)
            await #expect(throws: RulesFileError.self) { try await policy.evaluate(Self.publicFile) }
        }
    }

    @Test func aFileRecreatedAfterItWasMissingDecidesAgain() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("docs.rules")
            try replaceAtomically(url, with: Self.good)
            let policy = FilePolicy(url: url, whenInvalid: .keepLastGood)
            #expect(try await policy.evaluate(Self.publicFile) == .allow)
            try FileManager.default.removeItem(at: url)
            await #expect(throws: RulesFileError.self) { try await policy.evaluate(Self.publicFile) }
            try replaceAtomically(url, with: "deny * read public/*\n")
            #expect(try await policy.evaluate(Self.publicFile) == .deny(reason: "docs.rules:1 denies"))
            // And that version is now the one kept.
            try replaceAtomically(url, with: Self.malformed)
            #expect(try await policy.evaluate(Self.publicFile).isAllowed == false)
            #expect(try policy.decidingRule(for: Self.publicFile) == .init(effect: .deny, line: 1))
        }
    }

    @Test func theDefaultStillFailsEveryDecisionOnABadVersion() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("docs.rules")
            try replaceAtomically(url, with: Self.good)
            let policy = FilePolicy(url: url)
            #expect(policy.whenInvalid == .deny)
            #expect(try await policy.evaluate(Self.publicFile) == .allow)
            try replaceAtomically(url, with: Self.malformed)
            for _ in 0..<2 {
                let error = await #expect(throws: RulesFileError.self) {
                    try await policy.evaluate(Self.publicFile)
                }
                #expect(error?.kind == .malformed)
                #expect(error?.line == 2)
            }
            #expect(policy.invalidCurrentVersion == nil)
        }
    }

    @Test func aProxyDenialByTheLastGoodVersionNamesTheCurrentError() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("docs.rules")
            try replaceAtomically(url, with: Self.good)
            let policy = FilePolicy(url: url, name: "docs", whenInvalid: .keepLastGood)
            let files = FilePolicyTests.TextLoader().guarded(by: policy)
            try replaceAtomically(url, with: Self.malformed)
            await AccessContext.$current.withValue(AccessContext(subject: "alice")) {
                let denied = await #expect(throws: AccessDenied.self) {
                    try await files.load("public/secret")
                }
                // The first decision reads a bad first version: nothing to keep, a gate failure.
                #expect(denied?.isFailure == true)
            }
            try replaceAtomically(url, with: Self.good)
            try await AccessContext.$current.withValue(AccessContext(subject: "alice")) { () async throws in
                #expect(try await files.load("public/a") == "contents of public/a")
                try replaceAtomically(url, with: Self.malformed)
                #expect(try await files.load("public/a") == "contents of public/a")
                let denied = await #expect(throws: AccessDenied.self) {
                    try await files.load("public/secret")
                }
                #expect(denied?.isFailure == false)
                #expect(denied?.gatekeeper == "docs")
                let invalid = try #require(policy.invalidCurrentVersion)
                #expect(invalid.line == 2)
                #expect(denied?.reason == "docs.rules:2 denies" + Self.lastGoodNote(invalid))
            }
        }
    }
}
