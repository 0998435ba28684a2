import Foundation
import GatehouseTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `gatehouse` refuses input that is not what it looks like: an `--at` that names no real
/// instant, a configuration that is empty or not a JSON object.
@Suite("gatehouse command: --at and --config input")
struct GatehouseCommandInputTests {
    static let config = GatehouseCommandTests.config
    static let expectedInstant =
        "error: --at expects an ISO-8601 instant such as 2026-11-30T10:00:00Z or 2026-11-30T11:00:00+01:00"
    static let expectedObject = #"expected a JSON object such as {"services": {...}}"#

    @Test(arguments: [
        ("2026-02-30T10:00:00Z", "there is no day 30 in 2026-02; it has 28 days"),
        ("2025-02-29T10:00:00Z", "there is no day 29 in 2025-02; it has 28 days"),
        ("2026-04-31T10:00:00Z", "there is no day 31 in 2026-04; it has 30 days"),
        ("2026-11-00T10:00:00Z", "there is no day 00 in 2026-11; it has 30 days"),
        ("2026-13-01T10:00:00Z", "there is no month 13; months run 01–12"),
        ("2026-11-30T24:00:00Z", "there is no hour 24; hours run 00–23"),
        ("2026-11-30T10:60:00Z", "there is no minute 60; minutes run 00–59"),
        ("2026-11-30T10:00:61Z", "there is no second 61; seconds run 00–59"),
        ("2026-11-30T10:00:00+24:00", "the offset must be at most 23:59"),
        ("2026-11-30T10:00:00", "write YYYY-MM-DDTHH:MM:SS, optionally a fraction (.5), then Z or an offset"),
        ("2026-11-30T10:00:00.Z", "write YYYY-MM-DDTHH:MM:SS"),
        ("2026-11-30 10:00:00Z", "write YYYY-MM-DDTHH:MM:SS"),
        ("2026-11-30T10:00:00Zjunk", "write YYYY-MM-DDTHH:MM:SS"),
    ])
    func atRefusesAnInstantThatDoesNotExist(value: String, reason: String) async throws {
        let run = try await Examples.command(
            "check", "--config", Self.config, "--subject", "alice", "--at", value, "avatars/alice.txt")
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(
            run.stderr.hasPrefix("\(Self.expectedInstant), found '\(value)'; \(reason)"),
            "stderr: \(run.stderr)")
    }

    @Test(arguments: [
        ("2026-11-30T10:00:00.250Z", 0),
        ("2026-11-30T10:00:00.123456789Z", 0),
        ("2026-11-30T11:00:00+01:00", 0),
        ("2026-11-30T11:00:00.5+01:00", 0),
        ("2026-11-30T11:00:00+0100", 0),
        ("2026-11-30T05:00:00-05:00", 0),
        ("2028-02-29T10:00:00Z", 0),  // a Tuesday in a leap year
        ("2026-11-30T01:00:00+05:00", 3),  // Sunday 21:00 in Berlin: the offset is applied
    ])
    func atAcceptsFractionsOffsetsAndLeapDays(value: String, status: Int32) async throws {
        let run = try await Examples.command(
            "check", "--config", Self.config, "--subject", "alice", "--at", value, "avatars/alice.txt")
        #expect(run.status == status, "stderr: \(run.stderr)")
    }

    @Test func configDevNullSaysTheConfigurationIsEmpty() async throws {
        let run = try await Examples.command("check", "--config", "/dev/null", "k")
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "/dev/null: the configuration is empty; \(Self.expectedObject)\n")
        let json = try await Examples.command("validate", "--json", "/dev/null")
        #expect(json.status == 1)
        #expect(
            json.stdout
                == #"{"file":"/dev/null","valid":false,"errors":["the configuration is empty; expected a JSON object such as {\"services\": {...}}"]}"#
                + "\n")
    }

    @Test(arguments: [
        ("", "the configuration is empty"),
        (" \n\t\n", "the configuration is only white space"),
        ("[]", "the configuration is an array"),
        ("42", "the configuration is a number"),
        (#""services""#, "the configuration is a string"),
        ("null", "the configuration is null"),
    ])
    func aConfigurationThatIsNotAnObjectSaysWhatWasFound(content: String, found: String) async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let file = try folder.write("gatehouse.json", content)
        let run = try await Examples.command("check", "--config", file.path, "k")
        #expect(run.status == 1)
        #expect(run.stderr == "\(file.path): \(found); \(Self.expectedObject)\n")
    }

    @Test func aDirectoryIsNotAConfiguration() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let run = try await Examples.command("validate", folder.url.path)
        #expect(run.status == 1)
        #expect(
            run.stderr
                == "\(folder.url.path): is a directory; expected a configuration file\n"
        )
    }

    @Test func aMissingConfigurationSaysSoInOneLine() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let missing = folder.file("none.json")
        let run = try await Examples.command("validate", missing.path)
        #expect(run.status == 1)
        #expect(run.stderr == "\(missing.path): cannot read: No such file or directory\n")
    }

    @Test func aNamedPipeNobodyWritesToReadsAsEmptyWithoutHanging() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let fifo = folder.path("gatehouse.json")
        #expect(mkfifo(fifo, 0o600) == 0)
        let run = try await Examples.command("validate", fifo)
        #expect(run.status == 1)
        #expect(run.stderr == "\(fifo): the configuration is empty; \(Self.expectedObject)\n")
    }
}
