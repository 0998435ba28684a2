import Foundation
import GatehouseCore
import GatehouseRemote
import GatehouseTestSupport
import Testing

/// A remote URL's user information and query may carry secrets (a password, `?token=…`): no
/// denial reason, error or record shows them. A URL with user information is refused; the query
/// is sent, but shown as `?…`.
@Suite("RemotePolicy keeps the secrets of its URL out of what it says")
struct RemoteURLSecretTests {
    @Test func aURLWithAPasswordIsRefusedWithoutShowingThePassword() throws {
        let url = URL(string: "http://admin:S3cr3t@127.0.0.1:8181/v1/data/x")!
        do {
            _ = try RemotePolicy(url: url, protocol: .opa)
            Issue.record("a URL with a password was accepted")
        } catch let error as RemotePolicyError {
            let text = error.errorDescription ?? ""
            #expect(!text.contains("S3cr3t"), "\(text)")
            #expect(!text.contains("admin"), "\(text)")
            #expect(text.contains("bearerToken"), "\(text)")
            #expect(!"\(error)".contains("S3cr3t"), "\(error)")
        }
    }

    @Test func aURLWithAUserAloneIsRefusedToo() throws {
        #expect(throws: RemotePolicyError.self) {
            try RemotePolicy(url: URL(string: "http://token123@127.0.0.1:8181/v1/data/x")!, protocol: .opa)
        }
    }

    @Test func aDenialReasonShowsTheQueryAsAnEllipsis() async throws {
        let server = try LoopbackServer(json: #"{"result": false}"#)
        let url = URL(string: server.url().absoluteString + "?token=T0pS3cr3t")!
        let policy = try RemotePolicy(url: url, protocol: .opa)
        let decision = try await policy.evaluate(aliceReads)
        #expect(
            decision
                == .deny(reason: "the OPA policy at \(server.url().absoluteString)?… does not allow it"))
        #expect(
            server.requests.first?.path == "/v1/data/gatehouse?token=T0pS3cr3t", "the query is still sent")
    }

    @Test func anUndefinedOPADecisionAndAnAuthZENDenialShowTheQueryAsAnEllipsis() async throws {
        let opa = try LoopbackServer(json: #"{}"#)
        let undefined = try await RemotePolicy(
            url: URL(string: opa.url().absoluteString + "?token=T0pS3cr3t")!, protocol: .opa
        ).evaluate(aliceReads)
        #expect(!"\(undefined)".contains("T0pS3cr3t"), "\(undefined)")
        let authzen = try LoopbackServer(json: #"{"decision": false}"#)
        let denied = try await RemotePolicy(
            url: URL(string: authzen.url().absoluteString + "?token=T0pS3cr3t#frag")!, protocol: .authzen
        ).evaluate(aliceReads)
        #expect(
            denied == .deny(reason: "the AuthZEN service at \(authzen.url().absoluteString)?…#… denied it"))
    }

    @Test func aFailureShowsTheQueryAsAnEllipsis() async throws {
        let server = try LoopbackServer(status: 500, json: "{}")
        let url = URL(string: server.url().absoluteString + "?token=T0pS3cr3t")!
        let outcome = await timed { try await RemotePolicy(url: url, protocol: .opa).evaluate(aliceReads) }
        let text = message(of: outcome.error)
        #expect(
            text.hasPrefix("the decision service \(server.url().absoluteString)?… answered HTTP 500"),
            "\(text)")
        #expect(!"\(String(describing: outcome.error))".contains("T0pS3cr3t"))
    }

    @Test func theGateFailureRecordAndItsReasonCarryNoQuery() async throws {
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let port = refusing.port
        let url = URL(string: "http://127.0.0.1:\(port)/v1/data/gatehouse?token=T0pS3cr3t")!
        let remote = try RemotePolicy(name: "opa", url: url, protocol: .opa, timeout: .seconds(2))
        let observer = RecordsKept()
        let proxy = AccessProxy(CountingLoader(), gatekeepers: [remote], observer: observer)
        do {
            _ = try await AccessContext.$current.withValue(AccessContext(subject: "alice")) {
                try await proxy.load("avatars/alice.png")
            }
            Issue.record("an unreachable service allowed the call")
        } catch let denied as AccessDenied {
            #expect(denied.isFailure)
            #expect(!denied.reason.contains("T0pS3cr3t"), "\(denied.reason)")
            #expect(!"\(denied)".contains("T0pS3cr3t"), "\(denied)")
        }
        let records = observer.records.withLock { $0 }
        #expect(records.count == 1)
        for record in records {
            #expect(!"\(record)".contains("T0pS3cr3t"), "\(record)")
        }
    }
}

/// An observer that keeps every record.
final class RecordsKept: AccessObserver {
    let records = LockedState<[AccessRecord]>([])
    func observe(_ record: AccessRecord) {
        records.withLock { $0.append(record) }
    }
}
