import Foundation
import GatehouseComposition
import GatehouseCore
import GatehouseTestSupport
import Testing

/// The `whenInvalid` key of a `file` gatekeeper.
@Suite("Configuration: whenInvalid on a file gatekeeper")
struct WhenInvalidConfigurationTests {
    static let good = "allow * read a\ndeny * read b\n"
    static let malformed = "allow * read a\ndeny * read\n"

    /// A one-service configuration whose second gatekeeper is the file `docs.rules`.
    static func configuration(whenInvalid: String?) -> String {
        let key = whenInvalid.map { #", "whenInvalid": "\#($0)""# } ?? ""
        return """
            { "services": { "s": {
                "loader": { "type": "memory", "resources": { "a": "A", "b": "B" } },
                "gatekeepers": [
                    { "type": "alwaysAllow" },
                    { "type": "file", "path": "docs.rules"\(key) } ] } } }
            """
    }

    @Test func explainSaysTheFileKeepsItsLastGoodVersion() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        try folder.write(Self.good, to: "docs.rules")
        let keeping = try folder.write(Self.configuration(whenInvalid: "keepLastGood"), to: "keeping.json")
        let plain = try folder.write(Self.configuration(whenInvalid: nil), to: "plain.json")
        let keepingLines = try Assembler().assemble(contentsOf: keeping).service(named: "s").description
        let plainLines = try Assembler().assemble(contentsOf: plain).service(named: "s").description
        #expect(
            keepingLines.contains {
                $0.hasSuffix("file: rules in docs.rules (keeps the last good version when invalid)")
            })
        #expect(plainLines.contains { $0.hasSuffix("file: rules in docs.rules") })
    }

    @Test func keepLastGoodDecidesWithTheLastGoodVersionAfterABadRewrite() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        try folder.write(Self.good, to: "docs.rules")
        let file = try folder.write(Self.configuration(whenInvalid: "keepLastGood"), to: "gatehouse.json")
        let service = try Assembler().assemble(contentsOf: file).service(named: "s")
        #expect(try await service.load("a") == Data("A".utf8))

        try folder.write(Self.malformed, to: "docs.rules")  // written to a temporary file, then renamed
        #expect(try await service.load("a") == Data("A".utf8))
        let denied = await #expect(throws: AccessDenied.self) { try await service.load("b") }
        #expect(denied?.isFailure == false)
        #expect(denied?.gatekeeper == "file")
        #expect(
            denied?.reason.hasPrefix(
                "docs.rules:2 denies (by the last good version; the current one is invalid: docs.rules:2: ")
                == true)
    }

    @Test(arguments: [nil, "deny"] as [String?])
    func withoutKeepLastGoodABadRewriteFailsTheGate(whenInvalid: String?) async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        try folder.write(Self.good, to: "docs.rules")
        let file = try folder.write(Self.configuration(whenInvalid: whenInvalid), to: "gatehouse.json")
        let service = try Assembler().assemble(contentsOf: file).service(named: "s")
        #expect(try await service.load("a") == Data("A".utf8))

        try folder.write(Self.malformed, to: "docs.rules")
        let denied = await #expect(throws: AccessDenied.self) { try await service.load("a") }
        #expect(denied?.isFailure == true)
        #expect(denied?.reason.hasPrefix("docs.rules:2: ") == true)
    }

    @Test func aMisspelledValueIsAConfigurationErrorWithADidYouMean() {
        #expect(
            issues(Self.configuration(whenInvalid: "keepLastGod")) == [
                #"services.s.gatekeepers[1].whenInvalid: unknown value "keepLastGod"; expected "deny" or "keepLastGood"; did you mean "keepLastGood"?"#
            ])
        #expect(
            issues(Self.configuration(whenInvalid: "keeplastgood")) == [
                #"services.s.gatekeepers[1].whenInvalid: unknown value "keeplastgood"; expected "deny" or "keepLastGood"; did you mean "keepLastGood"?"#
            ])
    }

    @Test func anUnrelatedValueIsAConfigurationErrorWithoutASuggestion() {
        #expect(
            issues(Self.configuration(whenInvalid: "allow")) == [
                #"services.s.gatekeepers[1].whenInvalid: unknown value "allow"; expected "deny" or "keepLastGood""#
            ])
    }

    @Test func aValueThatIsNotAStringIsAConfigurationErrorAtTheKey() {
        let json = service(gatekeepers: #"[{ "type": "file", "path": "docs.rules", "whenInvalid": true }]"#)
        let found = issues(json)
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("services.s.gatekeepers[0].whenInvalid: ") == true, "\(found)")
    }
}
