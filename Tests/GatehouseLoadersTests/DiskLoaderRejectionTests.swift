import Foundation
import GatehouseLoaders
import GatehouseTestSupport
import Testing

/// The kind of a ``DiskLoaderError``, without its payload, for the rejection table.
enum DiskErrorKind: String, Sendable, CustomStringConvertible {
    case invalidKey, notFound, notARegularFile, tooLarge, outsideRoot, rootUnavailable, spellingMismatch, io,
        missingFolder

    init(_ error: DiskLoaderError) {
        switch error {
        case .invalidKey: self = .invalidKey
        case .notFound: self = .notFound
        case .notARegularFile: self = .notARegularFile
        case .tooLarge: self = .tooLarge
        case .outsideRoot: self = .outsideRoot
        case .rootUnavailable: self = .rootUnavailable
        case .spellingMismatch: self = .spellingMismatch
        case .io: self = .io
        case .missingFolder: self = .missingFolder
        }
    }

    var description: String { rawValue }
}

/// One hostile key and the error kind it must be refused with.
struct HostileKey: Sendable, CustomTestStringConvertible {
    var key: String
    var expected: DiskErrorKind

    init(_ key: String, _ expected: DiskErrorKind) {
        self.key = key
        self.expected = expected
    }

    var testDescription: String {
        let shown =
            key.utf8.count > 40
            ? "\(String(reflecting: String(key.prefix(12))))… (\(key.utf8.count) bytes)"
            : String(reflecting: key)
        return "\(shown) is refused as \(expected)"
    }
}

/// Keys that break the path rules, refused before the file system is touched.
let malformedKeys: [HostileKey] = [
    HostileKey("", .invalidKey),
    HostileKey("/etc/passwd", .invalidKey),
    HostileKey("/", .invalidKey),
    HostileKey("//etc/passwd", .invalidKey),
    HostileKey("/dev/zero", .invalidKey),
    HostileKey("/../secret.txt", .invalidKey),
    HostileKey("..", .invalidKey),
    HostileKey("../outside/secret.txt", .invalidKey),
    HostileKey("sub/../../outside/secret.txt", .invalidKey),
    HostileKey("sub/..", .invalidKey),
    HostileKey("sub/deeper/../../../outside/secret.txt", .invalidKey),
    HostileKey("~/../secret.txt", .invalidKey),
    HostileKey(".../..", .invalidKey),
    HostileKey(".", .invalidKey),
    HostileKey("./file.txt", .invalidKey),
    HostileKey("sub/./file.txt", .invalidKey),
    HostileKey("sub/./../file.txt", .invalidKey),
    HostileKey("sub//file.txt", .invalidKey),
    HostileKey("sub/", .invalidKey),
    HostileKey("file.txt/", .invalidKey),
    HostileKey("..\\outside\\secret.txt", .invalidKey),
    HostileKey("sub\\file.txt", .invalidKey),
    HostileKey("\\\\server\\share\\secret.txt", .invalidKey),
    HostileKey("C:\\Windows\\win.ini", .invalidKey),
    HostileKey("file.txt\u{0}.png", .invalidKey),
    HostileKey("\u{0}", .invalidKey),
    HostileKey("\u{0}/etc/passwd", .invalidKey),
    HostileKey("file\n.txt", .invalidKey),
    HostileKey("file.txt\r", .invalidKey),
    HostileKey("sub\t/file.txt", .invalidKey),
    HostileKey("sub/\u{8}file.txt", .invalidKey),
    HostileKey("\u{1B}[31mfile.txt", .invalidKey),
    HostileKey("file\u{1F}.txt", .invalidKey),
    HostileKey("file\u{7F}.txt", .invalidKey),
    HostileKey("file\u{85}.txt", .invalidKey),
    HostileKey("file\u{9B}.txt", .invalidKey),
    HostileKey(String(repeating: "a", count: 256), .invalidKey),
    HostileKey("sub/" + String(repeating: "b", count: 256), .invalidKey),
    HostileKey(String(repeating: "a/", count: 512) + "b", .invalidKey),
    HostileKey(String(repeating: "é", count: 513), .invalidKey),
]

/// Well-formed keys that name something the loader must not return.
let refusedPaths: [HostileKey] = [
    HostileKey("missing.txt", .notFound),
    HostileKey("sub/missing.txt", .notFound),
    HostileKey("missing/file.txt", .notFound),
    HostileKey("file.txt/x", .notFound),
    HostileKey("link-out", .outsideRoot),
    HostileKey("link-out-relative", .outsideRoot),
    HostileKey("link-in", .outsideRoot),
    HostileKey("dirlink-out/secret.txt", .outsideRoot),
    HostileKey("dirlink-in/file.txt", .outsideRoot),
    HostileKey("sub/link-up/outside/secret.txt", .outsideRoot),
    HostileKey("dangling", .outsideRoot),
    HostileKey("link-root/file.txt", .outsideRoot),
    HostileKey("self-loop", .outsideRoot),
    HostileKey("link-devzero", .outsideRoot),
    HostileKey("sub/link-etc/passwd", .outsideRoot),
    HostileKey("sub", .notARegularFile),
    HostileKey("sub/deeper", .notARegularFile),
    HostileKey("fifo", .notARegularFile),
    HostileKey("big.bin", .tooLarge),
]

@Suite("DiskLoader rejection table")
struct DiskLoaderRejectionTests {
    /// A root with files, directories, a fifo and links inside and out, beside a secret outside it.
    final class Fixture: Sendable {
        let directory: TemporaryDirectory
        let loader: DiskLoader

        init() throws {
            let directory = try TemporaryDirectory()
            try directory.write("outside/secret.txt", "SECRET")
            try directory.write("outside/dir/secret.txt", "SECRET")
            try directory.write("root/file.txt", "hello")
            try directory.write("root/sub/file.txt", "nested")
            try directory.makeDirectory("root/sub/deeper")
            try directory.write("root/big.bin", Data(repeating: 7, count: 2048))
            try directory.makeFifo("root/fifo")
            try directory.symlink("root/link-out", to: directory.path("outside/secret.txt"))
            try directory.symlink("root/link-out-relative", to: "../outside/secret.txt")
            try directory.symlink("root/link-in", to: "file.txt")
            try directory.symlink("root/dirlink-out", to: directory.path("outside/dir"))
            try directory.symlink("root/dirlink-in", to: "sub")
            try directory.symlink("root/sub/link-up", to: "../..")
            try directory.symlink("root/dangling", to: "nowhere")
            try directory.symlink("root/link-root", to: ".")
            try directory.symlink("root/self-loop", to: "self-loop")
            try directory.symlink("root/link-devzero", to: "/dev/zero")
            try directory.symlink("root/sub/link-etc", to: "/etc")
            self.directory = directory
            loader = DiskLoader(root: directory.url.appendingPathComponent("root"), maximumFileSize: 1024)
        }
    }

    @Test func theFixtureServesItsOrdinaryFiles() async throws {
        let fixture = try Fixture()
        #expect(try await fixture.loader.load("file.txt") == Data("hello".utf8))
        #expect(try await fixture.loader.load("sub/file.txt") == Data("nested".utf8))
    }

    @Test(arguments: malformedKeys + refusedPaths)
    func aHostileKeyIsRefusedWithTheExpectedError(_ hostile: HostileKey) async throws {
        let fixture = try Fixture()
        let error = await #expect(throws: DiskLoaderError.self) { try await fixture.loader.load(hostile.key) }
        if let error {
            #expect(DiskErrorKind(error) == hostile.expected, "\(error)")
        }
    }

    @Test func theTableHoldsAtLeastFortyHostileKeys() {
        #expect(malformedKeys.count + refusedPaths.count >= 40)
        #expect(Set(malformedKeys.map(\.key)).count == malformedKeys.count)
    }

    @Test func anInvalidKeyErrorSaysWhichRuleWasBroken() async throws {
        let loader = DiskLoader(root: URL(fileURLWithPath: "/nonexistent"))
        let cases: [(key: String, reason: String)] = [
            ("", "it is empty"),
            ("/etc/passwd", "it starts with \"/\", so it is an absolute path"),
            ("a/../b", "it contains a \"..\" component"),
            ("a/./b", "it contains a \".\" component"),
            ("a//b", "it contains an empty component (\"//\")"),
            ("a/", "it ends with \"/\""),
            ("a\\b", "it contains a backslash"),
            ("a\u{0}b", "it contains a NUL character"),
            ("a\nb", "it contains the control character U+000A"),
            ("a\u{85}b", "it contains the control character U+0085"),
            (String(repeating: "x", count: 300), "a component is 300 bytes long, more than 255"),
            (String(repeating: "x/", count: 600), "it is 1200 bytes long, more than 1024"),
        ]
        for (key, reason) in cases {
            await #expect(throws: DiskLoaderError.invalidKey(key: key, reason: reason)) {
                try await loader.load(key)
            }
        }
    }

    /// Seeded random keys of every length up to 40 bytes and around the 255-byte component limit,
    /// made of the bytes the rules care about at random places (the check looks at eight bytes
    /// at a time, so each lands at every offset of a word): a key is `invalidKey` exactly when a
    /// plain reading of the rules says so. The root does not exist, so a valid key is
    /// `rootUnavailable`.
    @Test func aKeyIsInvalidExactlyWhenAPlainReadingOfTheRulesSaysSo() async throws {
        let loader = DiskLoader(root: URL(fileURLWithPath: "/nonexistent-gatehouse-root"))
        let special: [UInt8] = [
            0x2F, 0x2F, 0x2E, 0x2E, 0x5C, 0x00, 0x01, 0x1F, 0x7E, 0x7F, 0xC2, 0x80, 0x9F, 0xA0, 0xC3, 0xA9,
        ]
        var generator = SplitMix64(seed: 16)
        var valid = 0
        var invalid = 0
        for round in 0..<20_000 {
            let length = round % 4 == 3 ? Int.random(in: 248...266, using: &generator) : round % 41
            var bytes = [UInt8](repeating: 0x61, count: length)
            for _ in 0..<Int.random(in: 0...4, using: &generator) where length > 0 {
                bytes[Int.random(in: 0..<length, using: &generator)] = special.randomElement(
                    using: &generator)!
            }
            let key = String(decoding: bytes, as: UTF8.self)
            let broken = Self.plainRuleBroken(key)
            let error = await #expect(throws: DiskLoaderError.self) { try await loader.load(key) }
            if case .invalidKey(let reported, _) = error {
                #expect(reported == key)
                #expect(broken != nil, "\(key.debugDescription) breaks no rule but was refused as invalid")
                invalid += 1
            } else {
                #expect(
                    broken == nil,
                    "\(key.debugDescription) breaks a rule (\(broken ?? "")) but got \(String(describing: error))"
                )
                valid += 1
            }
        }
        #expect(valid > 1_000 && invalid > 1_000)
    }

    /// The rule a key breaks, read plainly from the documented rules; `nil` for a valid key.
    static func plainRuleBroken(_ key: String) -> String? {
        let bytes = Array(key.utf8)
        if bytes.isEmpty { return "empty" }
        if bytes.count > 1024 { return "too long" }
        if bytes.contains(0x5C) { return "backslash" }
        if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return "C0 control or DEL" }
        if key.unicodeScalars.contains(where: { (0x80...0x9F).contains($0.value) }) { return "C1 control" }
        for component in bytes.split(separator: 0x2F, omittingEmptySubsequences: false) {
            if component.isEmpty { return "empty component" }
            if component.elementsEqual([0x2E]) || component.elementsEqual([0x2E, 0x2E]) {
                return "dot component"
            }
            if component.count > 255 { return "long component" }
        }
        return nil
    }
}
