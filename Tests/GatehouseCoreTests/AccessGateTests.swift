import Foundation
import GatehouseCore
import GatehouseTestSupport
import Testing

/// A policy with numbered rules: allows the resources it lists, each "written" on its own line.
private struct NumberedRules: AccessPolicy {
    let name: String
    /// The allowed resources; rule n allows `allowed[n - 1]`.
    let allowed: [String]
    var note: String?

    func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        try await explain(request).decision
    }

    func explain(_ request: AccessRequest) async throws -> AccessExplanation {
        guard let index = allowed.firstIndex(of: request.resource) else {
            return AccessExplanation(.deny(reason: "no rule allows"), note: note)
        }
        return AccessExplanation(
            .allow, rule: RuleReference(source: "\(name).rules", line: index + 1), note: note)
    }
}

@Suite("AccessGate on its own")
struct AccessGateTests {
    static let request = AccessRequest(subject: "alice", action: "share", resource: "docs/plan")

    @Test func anAllowIsExplainedWithEveryStepAndTheDecidingRule() async throws {
        let gate = AccessGate(gatekeepers: [
            SwitchPolicy("first", allow), NumberedRules(name: "documents", allowed: ["x", "docs/plan"]),
        ])
        let verdict = try await gate.decide(Self.request)
        #expect(verdict.outcome == .allowed)
        #expect(verdict.gatekeeper == "documents")
        #expect(verdict.rule == RuleReference(source: "documents.rules", line: 2))
        #expect(
            verdict.steps == [
                AccessVerdict.Step(gatekeeper: "first", outcome: .allowed),
                AccessVerdict.Step(
                    gatekeeper: "documents", outcome: .allowed,
                    rule: RuleReference(source: "documents.rules", line: 2)),
            ])
        #expect(verdict.description == "allowed by documents (documents.rules:2)")
    }

    @Test func aDenialEndsTheStepsAndLaterGatekeepersAreNotAsked() async throws {
        let later = SwitchPolicy("later", allow)
        let gate = AccessGate(gatekeepers: [
            SwitchPolicy("first", allow), SwitchPolicy("no", deny("closed")), later,
        ])
        let verdict = try await gate.decide(Self.request)
        #expect(verdict.outcome == .denied)
        #expect(verdict.gatekeeper == "no" && verdict.reason == "closed")
        #expect(verdict.steps.map(\.gatekeeper) == ["first", "no"])
        #expect(later.evaluations == 0)
        #expect(verdict.decision == .deny(reason: "closed"))
    }

    @Test func aGatekeeperThatThrowsFailsTheVerdictAndAuthorizeThrowsAGateFailure() async throws {
        let gate = AccessGate(gatekeepers: [ThrowingPolicy()])
        let verdict = try await gate.decide(Self.request)
        #expect(verdict.outcome == .failed && verdict.gatekeeper == "throwing")
        #expect(verdict.reason == "the policy store is unreachable")
        let error = await #expect(throws: AccessDenied.self) { try await gate.authorize(Self.request) }
        #expect(error?.kind == .failed && error?.gatekeeper == "throwing")
        #expect(error?.underlyingError as? GateFailure == GateFailure())
    }

    @Test func aDenialByARuleNamesTheRuleInTheErrorAndItsDescription() async throws {
        let gate = AccessGate(gatekeepers: [
            Not(NumberedRules(name: "blocked", allowed: ["docs/plan"]), name: "not-blocked")
        ])
        let error = await #expect(throws: AccessDenied.self) { try await gate.authorize(Self.request) }
        #expect(error?.rule == RuleReference(source: "blocked.rules", line: 1))
        #expect(error?.gatekeeper == "not-blocked")
        #expect(error?.description.hasPrefix("access denied by not-blocked (blocked.rules:1): ") == true)
    }

    @Test func combinatorsPassOnTheDecidingMembersRule() async throws {
        let first = NumberedRules(name: "a", allowed: ["docs/plan"])
        let second = NumberedRules(name: "b", allowed: ["y", "docs/plan"])
        let refusing = NumberedRules(name: "c", allowed: [])
        #expect(try await AllOf(first, second).explain(Self.request).rule?.description == "b.rules:2")
        #expect(try await AnyOf(refusing, second).explain(Self.request).rule?.description == "b.rules:2")
        #expect(try await AnyOf(refusing).explain(Self.request).rule == nil)
        #expect(try await Not(first).explain(Self.request).rule?.description == "a.rules:1")
    }

    @Test func aNoteOnAnAllowIsTheVerdictsReasonAndIsAddedToADenialsReason() async throws {
        let note = "by the last good version"
        let allowing = AccessGate(gatekeepers: [NumberedRules(name: "r", allowed: ["docs/plan"], note: note)])
        #expect(try await allowing.decide(Self.request).reason == note)
        let denying = AccessGate(gatekeepers: [NumberedRules(name: "r", allowed: [], note: note)])
        #expect(try await denying.decide(Self.request).reason == "no rule allows (\(note))")
    }

    @Test func theIdentityCheckAndAnEmptyGateAreVerdictsOfTheirOwn() async throws {
        let gate = AccessGate(gatekeepers: [SwitchPolicy("open", allow)])
        let broken = try await gate.decide(AccessRequest(subject: "alice", resource: "docs/../keys"))
        #expect(broken.outcome == .denied && broken.gatekeeper == AccessGate.identityGatekeeper)
        #expect(broken.steps.isEmpty)
        let empty = try await AccessGate(gatekeepers: []).decide(Self.request)
        #expect(empty.outcome == .denied && empty.gatekeeper == AccessGate.noGatekeeper)
    }

    @Test func permittedKeepsTheAllowedRequestsInTheirOrder() async throws {
        let gate = AccessGate(gatekeepers: [NumberedRules(name: "r", allowed: ["c", "a"])])
        let requests = ["a", "b", "c", "../a", "a"].map { AccessRequest(subject: "alice", resource: $0) }
        let permitted = try await gate.permitted(requests)
        #expect(permitted.map(\.resource) == ["a", "c", "a"])
    }

    @Test func everyVerdictIsRecordedOnceWithTheServiceAndTheShadowAnswersUnderItsRequestID() async throws {
        let observer = RecordingObserver()
        let instant = Date(timeIntervalSince1970: 1_790_000_000)
        let gate = AccessGate(
            gatekeepers: [SwitchPolicy("open", allow)], shadow: [SwitchPolicy("candidate", deny("not yet"))],
            observer: observer, clock: { instant }, service: "documents")
        try await gate.authorize(Self.request)
        await gate.waitForShadowAnswers()
        _ = try await gate.decide(Self.request)
        await gate.waitForShadowAnswers()
        let records = observer.records
        #expect(records.map(\.isShadow) == [false, true, false, true])
        #expect(records.allSatisfy { $0.service == "documents" && $0.instant == instant })
        #expect(records[0].requestID == records[1].requestID)
        #expect(records[2].requestID == records[3].requestID)
        #expect(records[0].requestID != records[2].requestID)
        #expect(records[1].verdict.reason == "not yet" && records[1].verdict.gatekeeper == "candidate")
        #expect(records[0].verdict.steps.map(\.gatekeeper) == ["open"])
    }

    @Test func aShadowGatekeeperIsNotAskedWithoutAnObserverAndNeverDecides() async throws {
        let candidate = SwitchPolicy("candidate", deny("not yet"))
        let gate = AccessGate(gatekeepers: [SwitchPolicy("open", allow)], shadow: [candidate])
        try await gate.authorize(Self.request)
        #expect(candidate.evaluations == 0)
    }

    @Test func aVerdictRoundTripsThroughJSONAsOutcomeGatekeeperReasonRuleAndSteps() throws {
        let verdict = AccessVerdict(
            outcome: .denied, gatekeeper: "rules", reason: "docs.rules:9 denies",
            rule: RuleReference(source: "docs.rules", line: 9),
            steps: [
                AccessVerdict.Step(gatekeeper: "team", outcome: .allowed),
                AccessVerdict.Step(
                    gatekeeper: "rules", outcome: .denied, reason: "docs.rules:9 denies",
                    rule: RuleReference(source: "docs.rules", line: 9)),
            ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(verdict), as: UTF8.self)
        #expect(
            text.hasPrefix(
                #"{"gatekeeper":"rules","outcome":"denied","reason":"docs.rules:9 denies","rule":"docs.rules:9","steps":[{"#
            ))
        #expect(try JSONDecoder().decode(AccessVerdict.self, from: Data(text.utf8)) == verdict)
        let record = AccessRecord(
            request: Self.request, verdict: verdict, instant: Date(timeIntervalSince1970: 1_790_000_000.5),
            service: "documents", isShadow: true)
        #expect(try JSONDecoder().decode(AccessRecord.self, from: try JSONEncoder().encode(record)) == record)
    }

    @Test func aRuleReferenceReadsOnlySourceColonLine() throws {
        for text in [#""docs.rules""#, #""docs.rules:""#, #""docs.rules:0""#, #""docs.rules:x""#] {
            #expect(throws: DecodingError.self) {
                try JSONDecoder().decode(RuleReference.self, from: Data(text.utf8))
            }
        }
        #expect(
            try JSONDecoder().decode(RuleReference.self, from: Data(#""a:b.rules:12""#.utf8))
                == RuleReference(source: "a:b.rules", line: 12))
    }
}

/// One cancellation rule, whether the gatekeepers suspend or not.
@Suite("AccessGate cancellation")
struct AccessGateCancellationTests {
    @Test(arguments: GatePath.allCases)
    func aTaskCancelledBeforeTheGateAsksNoGatekeeperAndNeverReachesTheLoader(_ path: GatePath) async throws {
        let asked = SwitchPolicy("asked", allow)
        let loader = SpyLoader()
        let proxy = loader.guarded(by: path.gate("kind") { _ in .allow }, asked)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await proxy.load("a")
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(asked.evaluations == 0 && loader.calls == 0)
    }

    @Test(arguments: GatePath.allCases, [true, false])
    func aTaskCancelledBeforeTheGateGetsCancellationWhateverTheVerdict(_ path: GatePath, allows: Bool)
        async throws
    {
        let asked = Counter()
        let loader = SpyLoader()
        let proxy = loader.guarded(
            by: path.gate("counting") { _ in
                asked.increment()
                return allows ? .allow : .deny(reason: "no")
            })
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await proxy.load("a")
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(asked.value == 0 && loader.calls == 0)
    }

    @Test(arguments: GatePath.allCases)
    func aTaskCancelledWhileTheGatekeepersAllowNeverReachesTheLoader(_ path: GatePath) async throws {
        let loader = SpyLoader()
        let proxy = loader.guarded(
            by: path.gate("cancelling") { _ in
                withUnsafeCurrentTask { $0?.cancel() }
                return .allow
            })
        await #expect(throws: CancellationError.self) { try await Task { try await proxy.load("a") }.value }
        #expect(loader.calls == 0)
    }

    @Test(arguments: GatePath.allCases)
    func aDenialWhileCancelledStaysADenial(_ path: GatePath) async throws {
        let loader = SpyLoader()
        let proxy = loader.guarded(
            by: path.gate("cancelling") { _ in
                withUnsafeCurrentTask { $0?.cancel() }
                return .deny(reason: "no")
            })
        await #expect(throws: AccessDenied.self) { try await Task { try await proxy.load("a") }.value }
        #expect(loader.calls == 0)
    }
}
