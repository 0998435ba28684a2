import Foundation
import GatehouseComposition
import GatehouseCore
import Testing

@Suite("Example configurations")
struct ExampleConfigurationTests {
    static let reports = "Examples/configurations/reports.json"
    static let documents = "Examples/configurations/documents.json"

    @Test func everyConfigurationUnderExamplesIsValid() async throws {
        let examples = Examples.packageRoot.appendingPathComponent("Examples")
        let files =
            FileManager.default.enumerator(at: examples, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }
            // A test table (`*.tests.json`, for `gatehouse test`) is not a configuration.
            .filter { $0.pathExtension == "json" && !$0.lastPathComponent.hasSuffix(".tests.json") } ?? []
        #expect(files.count >= 3)
        for file in files {
            let run = try await Examples.command("validate", file.path)
            #expect(run.status == 0, "\(file.path): \(run.stderr)")
        }
    }

    @Test func anAuditorPassesOutsideOfficeHoursThroughAnyOf() async throws {
        let sunday = "2026-11-29T15:00:00Z"
        let auditor = try await Examples.command(
            "check", "--config", Self.reports, "--service", "reports", "--subject", "auditor-7", "--at",
            sunday,
            "avatars/bob.txt")
        #expect(auditor.status == 0)
        let staff = try await Examples.command(
            "check", "--config", Self.reports, "--service", "reports", "--subject", "bob", "--at", sunday,
            "avatars/bob.txt")
        #expect(staff.status == 3)
        #expect(
            staff.stderr.hasPrefix(
                "denied by hours-or-auditor: no gatekeeper allowed (timeWindow: outside Mon–Fri 07:00–19:00 America/New_York; it is Sun 10:00 there; allowList: "
            ))
    }

    @Test func notDeniesDraftsThatTheAllowListMatches() async throws {
        let run = try await Examples.command(
            "check", "--config", Self.reports, "--service", "reports", "--subject", "carol", "--at",
            "2026-11-30T15:00:00Z",
            "avatars/carol/private-draft.txt")
        #expect(run.status == 3)
        #expect(run.stderr.hasPrefix("denied by no-drafts: allowList allows, and not(allowList) inverts it"))
    }

    @Test func theClosedArchiveSaysWhy() async throws {
        let run = try await Examples.command(
            "load", "--config", Self.reports, "--service", "archive", "anything")
        #expect(run.status == 3)
        #expect(
            run.stderr.hasPrefix(
                "denied by alwaysDeny: the archive is closed for migration until further notice"))
    }

    @Test func aFileWithSeveralServicesNeedsServiceNamed() async throws {
        let run = try await Examples.command("check", "--config", Self.reports, "health")
        #expect(run.status == 2)
        #expect(
            run.stderr.hasPrefix(
                #"error: the configuration has 3 services ("reports", "status", "archive"); choose one with --service"#
            ))
    }
}

extension ExampleConfigurationTests {
    /// documents.json and its documents.rules, assembled as an app would assemble them: nested
    /// groups, `{subject}`, `{tenant}` and `if` conditions (docs/policies.md, "Roles, ownership,
    /// conditions").
    @Suite("documents.json")
    struct Documents {
        static let configuration = ExampleConfigurationTests.documents
        static let rules = "Examples/configurations/documents.rules"

        /// The configuration's one service.
        static func service() throws -> ConfiguredService {
            let file = Examples.packageRoot.appendingPathComponent(configuration)
            return try Assembler().assemble(contentsOf: file).service(named: "documents")
        }

        /// `nil` when the service allows the request; otherwise the denial's reason (prefixed with
        /// `gate failure: ` when the rules could not decide).
        static func denial(
            _ subject: String?, _ action: String, _ resource: String, _ attributes: [String: String] = [:]
        ) async throws -> String? {
            let request = AccessRequest(
                subject: subject, action: action, resource: resource, attributes: attributes)
            do {
                try await service().authorize(request)
                return nil
            } catch let denied as AccessDenied {
                return (denied.isFailure ? "gate failure: " : "") + denied.reason
            }
        }

        /// The reason naming the rules line that is exactly `text` (blanks between fields collapsed).
        static func denies(_ text: String) throws -> String {
            let file = Examples.packageRoot.appendingPathComponent(rules)
            let lines = try String(contentsOf: file, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            let wanted = text.split(separator: " ")
            let index = try #require(
                lines.firstIndex { $0.split(separator: " ") == wanted }, "no line \(text)")
            return "documents.rules:\(index + 1) denies"
        }

        static let noRuleAllows = "no rule in documents.rules allows"

        @Test func viewersReadSharedDocumentsThroughNestedGroups() async throws {
            // gina is a viewer; erin an editor (editors are viewers); dana an owner (owners are editors).
            #expect(try await Self.denial("gina", "read", "docs/handbook.txt") == nil)
            #expect(try await Self.denial("erin", "read", "docs/handbook.txt") == nil)
            #expect(try await Self.denial("dana", "read", "docs/handbook.txt") == nil)
            #expect(try await Self.denial("zoe", "read", "docs/handbook.txt") == Self.noRuleAllows)
            #expect(try await Self.denial(nil, "read", "docs/handbook.txt") == Self.noRuleAllows)
        }

        @Test func editorsWriteSharedDocumentsAndViewersDoNot() async throws {
            #expect(try await Self.denial("frank", "write", "docs/roadmap.txt") == nil)
            #expect(try await Self.denial("dana", "write", "docs/roadmap.txt") == nil)
            #expect(try await Self.denial("gina", "write", "docs/roadmap.txt") == Self.noRuleAllows)
        }

        @Test func theOwnerOfADocumentWritesItThroughACondition() async throws {
            #expect(try await Self.denial("gina", "write", "docs/roadmap.txt", ["owner": "gina"]) == nil)
            #expect(try await Self.denial("zoe", "write", "docs/roadmap.txt", ["owner": "zoe"]) == nil)
            #expect(
                try await Self.denial("gina", "write", "docs/roadmap.txt", ["owner": "erin"])
                    == Self.noRuleAllows)
            // Conditions compare exact values.
            #expect(
                try await Self.denial("gina", "write", "docs/roadmap.txt", ["owner": "Gina"])
                    == Self.noRuleAllows)
            // No subject: {subject} has no value, so the condition does not hold.
            #expect(
                try await Self.denial(nil, "write", "docs/roadmap.txt", ["owner": ""]) == Self.noRuleAllows)
        }

        @Test func everyUserReadsAndWritesTheirOwnFolderOnly() async throws {
            #expect(try await Self.denial("zoe", "read", "users/zoe/notes.txt") == nil)
            #expect(try await Self.denial("zoe", "write", "users/zoe/notes.txt") == nil)
            #expect(try await Self.denial("zoe", "read", "users/erin/notes.txt") == Self.noRuleAllows)
            #expect(try await Self.denial("dana", "read", "users/erin/notes.txt") == Self.noRuleAllows)
            #expect(try await Self.denial(nil, "read", "users/zoe/notes.txt") == Self.noRuleAllows)
        }

        @Test func viewersReadTheirOwnTenantsDocumentsOnly() async throws {
            #expect(try await Self.denial("gina", "read", "tenants/acme/plan.txt", ["tenant": "acme"]) == nil)
            #expect(
                try await Self.denial("gina", "read", "tenants/globex/plan.txt", ["tenant": "acme"])
                    == Self.noRuleAllows)
            #expect(try await Self.denial("gina", "read", "tenants/acme/plan.txt") == Self.noRuleAllows)
            #expect(
                try await Self.denial("zoe", "read", "tenants/acme/plan.txt", ["tenant": "acme"])
                    == Self.noRuleAllows)
        }

        @Test func aTenantValueIsMatchedLiterallyAndNeverHoldsASlash() async throws {
            // "*" is text, not a wildcard: it matches only a folder named "*".
            #expect(
                try await Self.denial("gina", "read", "tenants/acme/plan.txt", ["tenant": "*"])
                    == Self.noRuleAllows)
            // A value holding "/" makes the rule match nothing, even where the text would line up.
            #expect(
                try await Self.denial("gina", "read", "tenants/acme/team/list.txt", ["tenant": "acme/team"])
                    == Self.noRuleAllows)
            #expect(
                try await Self.denial("gina", "read", "tenants/acme/plan.txt", ["tenant": ""])
                    == Self.noRuleAllows)
        }

        @Test func secretsAreDeniedWhateverTheAttributes() async throws {
            let secrets = try Self.denies("deny * * tenants/*/secrets/*")
            let key = "tenants/acme/secrets/api-key.txt"
            #expect(try await Self.denial("dana", "read", key, ["tenant": "acme"]) == secrets)
            #expect(try await Self.denial("dana", "read", key) == secrets)
            #expect(try await Self.denial(nil, "read", key, ["tenant": "acme/secrets"]) == secrets)
        }

        @Test func exportsNeedAnOwnerOnAManagedDevice() async throws {
            let unmanaged = try Self.denies("deny * * exports/* if device=unmanaged")
            let export = "exports/customers.csv"
            #expect(try await Self.denial("dana", "read", export, ["device": "managed"]) == nil)
            #expect(try await Self.denial("dana", "read", export, ["device": "unmanaged"]) == unmanaged)
            // Without the attribute neither rule matches, and nothing allows.
            #expect(try await Self.denial("dana", "read", export) == Self.noRuleAllows)
            #expect(try await Self.denial("erin", "read", export, ["device": "managed"]) == Self.noRuleAllows)
        }

        @Test func theArchiveIsNeverWrittenEvenByItsOwner() async throws {
            let archive = try Self.denies("deny * write docs/archive/*")
            let plan = "docs/archive/2025-plan.txt"
            #expect(try await Self.denial("dana", "write", plan, ["owner": "dana"]) == archive)
            #expect(try await Self.denial("dana", "read", plan) == nil)
        }

        @Test func anAllowedLoadReturnsTheDocument() async throws {
            let service = try Self.service()
            let context = AccessContext(subject: "erin", attributes: ["tenant": "acme"])
            let data = try await AccessContext.$current.withValue(context) {
                try await service.load("users/erin/notes.txt")
            }
            #expect(String(decoding: data, as: UTF8.self) == "Erin's notes.")
        }
    }
}
