import Foundation
import GatehouseTestSupport
import Testing

@testable import GatehouseCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The package's one bounded read of a file (rules, attributes, configuration, test tables, store
/// input, the disk loader): never more than its limit and one byte in memory, never a hang on a
/// pipe, and one set of messages, each to follow the file's name.
@Suite("BoundedRead")
struct BoundedReadTests {
    @Test func anOversizeFileIsRefusedWithTheOneMessage() throws {
        let folder = try TemporaryDirectory()
        let file = folder.url.appendingPathComponent("big.txt")
        try Data(repeating: 0x41, count: 17).write(to: file)
        #expect(throws: FileReadError.tooLarge(size: 17, limit: 16)) {
            try BoundedRead.contents(ofFile: file.path, limit: 16, expected: "a test file")
        }
        #expect(
            FileReadError.tooLarge(size: 17, limit: 16).message
                == "is 17 bytes, larger than the limit of 16 bytes")
    }

    @Test func aFileOfExactlyTheLimitIsReadWhole() throws {
        let folder = try TemporaryDirectory()
        let file = folder.url.appendingPathComponent("full.txt")
        try Data(repeating: 0x42, count: 16).write(to: file)
        let bytes = try BoundedRead.contents(ofFile: file.path, limit: 16, expected: "a test file")
        #expect(bytes == Data(repeating: 0x42, count: 16))
    }

    @Test func anEndlessDeviceIsRefusedAtTheLimit() {
        #expect(throws: FileReadError.tooLarge(size: nil, limit: 1 << 20)) {
            try BoundedRead.contents(
                ofFile: "/dev/zero", limit: 1 << 20, expected: "a test file",
                accepting: .anythingButDirectories)
        }
        #expect(FileReadError.tooLarge(size: nil, limit: 8).message == "is larger than the limit of 8 bytes")
    }

    @Test func aStreamIsReadNoFurtherThanOneByteOverTheLimit() throws {
        let pipe = Pipe()
        defer { try? pipe.fileHandleForReading.close() }
        pipe.fileHandleForWriting.write(Data(repeating: 0x43, count: 20))
        try pipe.fileHandleForWriting.close()
        let descriptor = pipe.fileHandleForReading.fileDescriptor
        #expect(throws: FileReadError.tooLarge(size: nil, limit: 10)) {
            try BoundedRead.contents(
                of: descriptor, limit: 10, expected: "a test file", accepting: .anythingButDirectories)
        }
        // 11 bytes were taken; the other 9 are still in the pipe.
        #expect(try BoundedRead.bytes(of: descriptor, upTo: 100).count == 9)
    }

    @Test func aDirectoryIsRefusedSayingWhatWasExpected() throws {
        let folder = try TemporaryDirectory()
        #expect(
            throws: FileReadError(kind: .notRegularFile, message: "is a directory; expected a test file")
        ) {
            try BoundedRead.contents(
                ofFile: folder.url.path, limit: 16, expected: "a test file",
                accepting: .anythingButDirectories)
        }
        #expect(
            throws: FileReadError(
                kind: .notRegularFile, message: "is a directory, not a regular file; expected a test file")
        ) {
            try BoundedRead.contents(ofFile: folder.url.path, limit: 16, expected: "a test file")
        }
    }

    @Test func aMissingFileCannotBeReadAndSaysWhy() {
        #expect(throws: FileReadError.cannotRead(ENOENT)) {
            try BoundedRead.contents(ofFile: "/nonexistent/gatehouse", limit: 16, expected: "a test file")
        }
        #expect(FileReadError.cannotRead(ENOENT).message == "cannot read: No such file or directory")
    }

    @Test func aFailedReadIsReportedWithItsCode() throws {
        let folder = try TemporaryDirectory()
        let descriptor = open(folder.url.path, O_RDONLY | O_CLOEXEC)
        defer { close(descriptor) }
        #expect(throws: FileReadError.cannotRead(EISDIR)) { try BoundedRead.bytes(of: descriptor, upTo: 16) }
    }

    @Test(.timeLimit(.minutes(1)))
    func aPipeThatNeverEndsIsAnErrorAfterThePatienceNotAHang() throws {
        let pipe = Pipe()
        defer {
            try? pipe.fileHandleForWriting.close()
            try? pipe.fileHandleForReading.close()
        }
        pipe.fileHandleForWriting.write(Data(#"{ "services": "#.utf8))
        let path = "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)"
        let started = ContinuousClock.now
        #expect(throws: FileReadError.didNotEnd(within: .milliseconds(300))) {
            try BoundedRead.contents(
                ofFile: path, limit: 1 << 20, expected: "a test file", accepting: .anythingButDirectories,
                patience: .milliseconds(300))
        }
        #expect(ContinuousClock.now - started >= .milliseconds(290))
        #expect(
            FileReadError.didNotEnd(within: .milliseconds(300)).message
                == "did not end within 300 ms (a pipe or device still open)")
    }
}
