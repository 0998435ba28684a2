import Foundation
import GatehouseCore
import GatehouseTestSupport
import Testing

@Suite("AccessProxy")
struct AccessProxyTests {
    @Test func deniedAccessNeverCallsTheLoader() async throws {
        let loader = SpyLoader()
        let proxy = loader.guarded(by: SwitchPolicy("gate", deny("not yours")))
        let error = await #expect(throws: AccessDenied.self) { try await proxy.load("a.png") }
        #expect(loader.calls == 0)
        #expect(error?.gatekeeper == "gate")
        #expect(error?.reason == "not yours")
        #expect(error?.kind == .denied)
        #expect(error?.request.resource == "a.png")
    }

    @Test func grantedAccessForwardsTheExactKeyAndResult() async throws {
        let loader = SpyLoader()
        let proxy = loader.guarded(by: SwitchPolicy("gate", allow))
        let key = "avatars/Ünïcode name/x.png"
        let data = try await proxy.load(key)
        #expect(loader.receivedKeys == [key])
        #expect(data == Data(key.utf8))
    }

    @Test func loaderErrorsPropagateUnchanged() async throws {
        struct LoaderFailed: Error, Equatable { let code: Int }
        let loader = SpyLoader { _ in throw LoaderFailed(code: 42) }
        let proxy = loader.guarded(by: SwitchPolicy("gate", allow))
        await #expect(throws: LoaderFailed(code: 42)) { try await proxy.load("a") }
        #expect(loader.calls == 1)
    }

    @Test func aGrantRevokedBetweenTwoCallsDeniesTheSecond() async throws {
        let loader = SpyLoader()
        let gate = SwitchPolicy("gate", allow)
        let proxy = loader.guarded(by: gate)
        _ = try await proxy.load("a")
        gate.set(deny("revoked in Settings"))
        await #expect(throws: AccessDenied.self) { try await proxy.load("a") }
        #expect(loader.calls == 1)
        #expect(gate.evaluations == 2)
    }

    @Test func aThrowingGateDeniesAsAGateFailure() async throws {
        let loader = SpyLoader()
        let proxy = loader.guarded(by: ThrowingPolicy())
        let error = await #expect(throws: AccessDenied.self) { try await proxy.load("a") }
        #expect(loader.calls == 0)
        #expect(error?.kind == .failed)
        #expect(error?.isFailure == true)
        #expect(error?.gatekeeper == "throwing")
        #expect(error?.reason.contains("the policy store is unreachable") == true)
        #expect(error?.underlyingError as? GateFailure == GateFailure())
    }

    @Test func anOrdinaryDenialIsNotAGateFailure() async throws {
        let proxy = SpyLoader().guarded(by: SwitchPolicy("gate", deny("no")))
        let error = await #expect(throws: AccessDenied.self) { try await proxy.load("a") }
        #expect(error?.isFailure == false)
        #expect(error?.underlyingError == nil)
    }

    @Test func cancellationBeforeForwardingNeverCallsTheLoader() async throws {
        let loader = SpyLoader()
        let gate = SwitchPolicy("gate", allow)
        let proxy = loader.guarded(by: gate)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await proxy.load("a")
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(loader.calls == 0)
        #expect(gate.evaluations == 0)
    }

    @Test func cancellationDuringTheGatesNeverCallsTheLoader() async throws {
        let loader = SpyLoader()
        let later = SwitchPolicy("later", allow)
        let proxy = loader.guarded(by: CancellingPolicy(), later)
        await #expect(throws: CancellationError.self) {
            try await Task { try await proxy.load("a") }.value
        }
        #expect(loader.calls == 0)
    }

    @Test func gatesRunInOrderAndTheFirstRefusalEndsTheCall() async throws {
        let first = SwitchPolicy("first", allow)
        let second = SwitchPolicy("second", deny("second says no"))
        let third = SwitchPolicy("third", allow)
        let loader = SpyLoader()
        let proxy = loader.guarded(by: first, second, third)
        let error = await #expect(throws: AccessDenied.self) { try await proxy.load("a") }
        #expect(error?.gatekeeper == "second")
        #expect(first.evaluations == 1)
        #expect(second.evaluations == 1)
        #expect(third.evaluations == 0)
        #expect(loader.calls == 0)
    }

    @Test func everyGateIsAskedOnEveryCall() async throws {
        let first = SwitchPolicy("first", allow)
        let second = SwitchPolicy("second", allow)
        let proxy = SpyLoader().guarded(by: first, second)
        for _ in 0..<5 { _ = try await proxy.load("a") }
        #expect(first.evaluations == 5)
        #expect(second.evaluations == 5)
    }

    @Test func aProxyWithoutGatekeepersDeniesEveryCall() async throws {
        let loader = SpyLoader()
        let proxy = AccessProxy(loader, gatekeepers: [])
        let error = await #expect(throws: AccessDenied.self) { try await proxy.load("a") }
        #expect(loader.calls == 0)
        #expect(error?.reason.contains("AlwaysAllow") == true)
    }

    @Test func theTaskLocalSubjectAndAttributesReachTheGate() async throws {
        let gate = SwitchPolicy("gate", allow)
        let proxy = SpyLoader().guarded(by: gate, action: "thumbnail")
        let context = AccessContext(subject: "alice", attributes: ["device": "phone"])
        _ = try await AccessContext.$current.withValue(context) { try await proxy.load("avatars/alice") }
        _ = try await proxy.load("public/logo")
        #expect(
            gate.seen == [
                AccessRequest(
                    subject: "alice", action: "thumbnail", resource: "avatars/alice",
                    attributes: ["device": "phone"]),
                AccessRequest(subject: nil, action: "thumbnail", resource: "public/logo"),
            ])
    }

    @Test func nonStringKeysAreDescribedAsTheResource() async throws {
        struct AssetID: CustomStringConvertible, Sendable {
            let value: Int
            var description: String { "asset-\(value)" }
        }
        struct AssetLoader: ResourceLoading {
            func load(_ key: AssetID) async throws -> Int { key.value }
        }
        let gate = SwitchPolicy("gate", allow)
        let proxy = AssetLoader().guarded(by: gate)
        #expect(try await proxy.load(AssetID(value: 7)) == 7)
        let custom = AccessProxy(AssetLoader(), gatekeepers: [gate], resource: { "assets/\($0.value)" })
        #expect(try await custom.load(AssetID(value: 8)) == 8)
        #expect(gate.seen.map(\.resource) == ["asset-7", "assets/8"])
    }

    @Test func authorizeDecidesWithoutLoading() async throws {
        let loader = SpyLoader()
        let gate = SwitchPolicy("gate", allow)
        let proxy = loader.guarded(by: gate)
        try await proxy.authorize("a", action: .read)
        gate.set(deny("no"))
        await #expect(throws: AccessDenied.self) { try await proxy.authorize("a", action: .read) }
        #expect(loader.calls == 0)
    }

    @Test func theDenialDescribesGateReasonAndRequest() async throws {
        let proxy = SpyLoader().guarded(
            by: SwitchPolicy("allowList", deny("subject \"bob\" is not listed")))
        let error = await AccessContext.$current.withValue(AccessContext(subject: "bob")) {
            await #expect(throws: AccessDenied.self) { try await proxy.load("avatars/a.png") }
        }
        #expect(
            error.map(String.init(describing:))
                == "access denied by allowList: subject \"bob\" is not listed (bob read \"avatars/a.png\")")
    }
}
