import Foundation
import GatehouseTestSupport
import Testing

@testable import GatehouseComposition

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading a configuration file: what is found is said when it is not a JSON object, any file
/// but a directory is read (bounded), and a pipe never hangs the reader.
@Suite("Configuration files are read boundedly and described when wrong")
struct ConfigurationFileTests {
    static let expected = #"expected a JSON object such as {"services": {...}}"#

    /// The issues of reading `url`, as `path: message` lines.
    func issues(reading url: URL) -> [String] {
        do {
            _ = try GatehouseConfiguration(contentsOf: url)
            return []
        } catch let error as ConfigurationError {
            #expect(error.file == url)
            return error.issues.map(\.description)
        } catch {
            Issue.record("not a ConfigurationError: \(error)")
            return []
        }
    }

    @Test func devNullIsAnEmptyConfiguration() {
        #expect(
            issues(reading: URL(fileURLWithPath: "/dev/null")) == [
                "the configuration is empty; \(Self.expected)"
            ])
    }

    @Test(arguments: [
        ("", "the configuration is empty"),
        ("\u{FEFF}", "the configuration is empty"),
        (" \r\n\t", "the configuration is only white space"),
        ("[]", "the configuration is an array"),
        ("[{\"services\": {}}]", "the configuration is an array"),
        ("42", "the configuration is a number"),
        ("true", "the configuration is a boolean"),
        ("null", "the configuration is null"),
    ])
    func aConfigurationThatIsNotAnObjectSaysWhatWasFound(content: String, found: String) throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let file = try folder.write(content, to: "gatehouse.json")
        #expect(issues(reading: file) == ["\(found); \(Self.expected)"])
        #expect(throws: ConfigurationError.self) {
            try Assembler().assemble(json: Data(content.utf8), baseDirectory: folder.url)
        }
    }

    /// A configuration saved as UTF-16 or UTF-32 (with or without a byte-order mark) says it
    /// must be UTF-8; it was "unexpected a non-ASCII character" (finding 10 of the third
    /// security round).
    @Test(
        arguments: [
            ("UTF-16LE", [0xFF, 0xFE] + Array("{}".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
            ("UTF-16BE", [0xFE, 0xFF] + Array("{}".utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }),
            ("UTF-16LE", Array(" {}".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
            ("UTF-16BE", Array("{}".utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }),
            ("UTF-32LE", [0xFF, 0xFE, 0x00, 0x00, 0x7B, 0x00, 0x00, 0x00]),
        ] as [(String, [UInt8])])
    func aConfigurationInUTF16SaysItMustBeUTF8(encoding: String, bytes: [UInt8]) throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let file = folder.url.appendingPathComponent("gatehouse.json")
        try Data(bytes).write(to: file)
        #expect(
            issues(reading: file) == [
                "the configuration is \(encoding), not UTF-8; save it as UTF-8"
            ])
    }

    /// A non-ASCII character where JSON expects something else is named, not "a non-ASCII
    /// character" (read as "unexpected a non-ASCII character").
    @Test func aCurlyQuoteIsNamedByItsCodePoint() {
        #expect(
            GatehouseCompositionTests.issues("{ \u{201C}services\u{201D}: {} }") == [
                "line 1, column 3: invalid JSON: unexpected U+201C (LEFT DOUBLE QUOTATION MARK), expected a "
                    + "key in double quotes"
            ])
    }

    @Test func aDirectoryIsNotAConfiguration() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        #expect(
            issues(reading: folder.url)
                == ["is a directory; expected a configuration file"])
    }

    @Test func anEndlessDeviceIsRefusedAtTheSizeLimit() {
        #expect(
            issues(reading: URL(fileURLWithPath: "/dev/zero")) == [
                "is larger than the limit of 16777216 bytes"
            ])
    }

    @Test func aPipeIsReadToItsEnd() throws {
        let pipe = Pipe()
        defer { try? pipe.fileHandleForReading.close() }
        pipe.fileHandleForWriting.write(
            Data(
                #"{ "services": { "s": { "loader": { "type": "memory", "resources": {} }, "gatekeepers": [ { "type": "alwaysAllow" } ] } } }"#
                    .utf8))
        try pipe.fileHandleForWriting.close()
        // The path a shell's <(...) passes: the pipe's descriptor under /dev/fd.
        let path = URL(fileURLWithPath: "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)")
        let configuration = try GatehouseConfiguration(contentsOf: path)
        #expect(configuration.services.map(\.name) == ["s"])
    }

    @Test func aNamedPipeWithoutAWriterReadsAsEmptyAtOnce() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanUp() }
        let fifo = folder.url.appendingPathComponent("gatehouse.json")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        #expect(issues(reading: fifo) == ["the configuration is empty; \(Self.expected)"])
    }
}
