import GatehouseTestSupport
import Testing

@testable import GatehouseCore

@Suite("Combinators")
struct CombinatorTests {
    let request = AccessRequest(subject: "alice", resource: "a")

    @Test(arguments: [
        ([true, true], true), ([true, false], false), ([false, true], false), ([false, false], false),
        ([true], true), ([false], false),
    ])
    func allOfAllowsOnlyWhenEveryMemberAllows(members: [Bool], expected: Bool) async throws {
        let policies = members.enumerated().map {
            SwitchPolicy("p\($0.offset)", $0.element ? allow : deny("no"))
        }
        #expect(try await AllOf(policies).evaluate(request).isAllowed == expected)
    }

    @Test(arguments: [
        ([true, true], true), ([true, false], true), ([false, true], true), ([false, false], false),
        ([true], true), ([false], false),
    ])
    func anyOfAllowsWhenAnyMemberAllows(members: [Bool], expected: Bool) async throws {
        let policies = members.enumerated().map {
            SwitchPolicy("p\($0.offset)", $0.element ? allow : deny("no"))
        }
        #expect(try await AnyOf(policies).evaluate(request).isAllowed == expected)
    }

    @Test func notInvertsItsMember() async throws {
        let decisionForAllow = try await Not(SwitchPolicy("inner", allow)).evaluate(request)
        #expect(decisionForAllow == .deny(reason: "inner allows, and not(inner) inverts it"))
        #expect(try await Not(SwitchPolicy("inner", deny("no"))).evaluate(request) == .allow)
        #expect(Not(SwitchPolicy("inner", allow)).name == "not(inner)")
    }

    @Test func emptyAllOfAndAnyOfThrowRatherThanDeny() async throws {
        await #expect(throws: EmptyCombinatorError(policy: "allOf")) { try await AllOf([]).evaluate(request) }
        await #expect(throws: EmptyCombinatorError(policy: "anyOf")) { try await AnyOf([]).evaluate(request) }
        #expect(
            EmptyCombinatorError(policy: "allOf").description
                == "allOf has no policies, so it cannot decide; give it at least one")
    }

    @Test func notOfAnEmptyCombinatorFailsOnBothPaths() async throws {
        for empty in [AllOf([]) as any AccessPolicy, AnyOf([])] {
            await #expect(throws: EmptyCombinatorError.self) { try await Not(empty).evaluate(request) }
            let loader = SpyLoader()
            let error = await #expect(throws: AccessDenied.self) {
                try await loader.guarded(by: Not(empty)).load("a")
            }
            #expect(error?.kind == .failed)
            #expect(loader.calls == 0)
        }
    }

    @Test func allOfShortCircuitsAtTheFirstRefusal() async throws {
        let first = SwitchPolicy("first", deny("closed"))
        let second = SwitchPolicy("second", allow)
        #expect(try await AllOf(first, second).evaluate(request) == .deny(reason: "first: closed"))
        #expect(second.evaluations == 0)
    }

    @Test func anyOfShortCircuitsAtTheFirstAllow() async throws {
        let first = SwitchPolicy("first", allow)
        let second = SwitchPolicy("second", allow)
        #expect(try await AnyOf(first, second).evaluate(request) == .allow)
        #expect(second.evaluations == 0)
    }

    @Test func anyOfDenialSaysWhyEachMemberDenied() async throws {
        let decision = try await AnyOf(
            SwitchPolicy("allowList", deny("not listed")), SwitchPolicy("hours", deny("closed"))
        )
        .evaluate(request)
        #expect(decision == .deny(reason: "no gatekeeper allowed (allowList: not listed; hours: closed)"))
    }

    @Test func aThrowingMemberMakesEveryCombinatorThrow() async throws {
        await #expect(throws: GateFailure.self) {
            try await AllOf(SwitchPolicy("a", allow), ThrowingPolicy()).evaluate(request)
        }
        await #expect(throws: GateFailure.self) {
            try await AnyOf(ThrowingPolicy(), SwitchPolicy("a", allow)).evaluate(request)
        }
        await #expect(throws: GateFailure.self) { try await Not(ThrowingPolicy()).evaluate(request) }
    }

    @Test func combinatorsNestAndComposeReasons() async throws {
        let policy = AllOf(
            SwitchPolicy("a", allow),
            AnyOf(SwitchPolicy("b", deny("b says no")), Not(SwitchPolicy("c", allow))),
            name: "team")
        #expect(
            try await policy.evaluate(request)
                == .deny(
                    reason: "anyOf: no gatekeeper allowed (b: b says no; "
                        + "not(c): c allows, and not(c) inverts it)"
                ))
        let proxy = SpyLoader().guarded(by: policy)
        let error = await #expect(throws: AccessDenied.self) { try await proxy.load("a") }
        #expect(error?.gatekeeper == "team")
    }
}
