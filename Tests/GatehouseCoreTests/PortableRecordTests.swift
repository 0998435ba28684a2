import Foundation
import GatehouseCore
import Testing

@Suite("Portable records and errors")
struct PortableRecordTests {
    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func aRequestIsWrittenWithItsFourFieldsAndNoSubjectLeftOut() throws {
        var request = AccessRequest(action: "write", resource: "a/b", attributes: ["tenant": "acme"])
        #expect(
            try Self.json(request)
                == #"{"action":"write","attributes":{"tenant":"acme"},"resource":"a\/b"}"#)
        request.subject = "alice"
        #expect(
            request
                == AccessRequest(
                    subject: "alice", action: "write", resource: "a/b", attributes: ["tenant": "acme"]))
        #expect(
            try Self.json(request)
                == #"{"action":"write","attributes":{"tenant":"acme"},"resource":"a\/b","subject":"alice"}"#)
        #expect(try JSONDecoder().decode(AccessRequest.self, from: Data(Self.json(request).utf8)) == request)
    }

    @Test(arguments: [
        AccessRecord(
            request: AccessRequest(
                subject: "alice", action: "read", resource: "a/b", attributes: ["tenant": "acme"]),
            verdict: AccessVerdict(outcome: .allowed, gatekeeper: "rules"),
            instant: Date(timeIntervalSince1970: 1_700_000_000)),
        AccessRecord(
            request: AccessRequest(subject: nil, action: "write", resource: "x"),
            verdict: AccessVerdict(outcome: .failed, gatekeeper: "rules", reason: "rules.rules:3 denies"),
            instant: Date(timeIntervalSince1970: 1_700_000_000.25), isShadow: true),
    ])
    func aRecordRoundTripsThroughJSON(record: AccessRecord) throws {
        let data = try JSONEncoder().encode(record)
        #expect(try JSONDecoder().decode(AccessRecord.self, from: data) == record)
    }

    @Test func aRequestLeftWithoutActionOrAttributesReadsWithTheDefaults() throws {
        let request = try JSONDecoder().decode(AccessRequest.self, from: Data(#"{"resource":"a"}"#.utf8))
        #expect(request == AccessRequest(subject: nil, action: "read", resource: "a", attributes: [:]))
    }

    @Test func aDenialDescribesItselfAsALocalizedError() {
        let denied = AccessDenied(
            request: AccessRequest(subject: "bob", resource: "a"), gatekeeper: "allowList",
            reason: "bob is not listed")
        let error: any Error = denied
        #expect(
            error.localizedDescription == #"access denied by allowList: bob is not listed (bob read "a")"#)
        #expect(!error.localizedDescription.contains("could not be completed"))
    }
}
