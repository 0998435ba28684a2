import Foundation
import GatehouseCore
import GatehouseLoaders
import GatehousePolicies

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SplitMix64: a tiny seeded generator, so every run builds the same data.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}

/// The keys every loader case rotates through (1,024 of them, so a lookup is not always the
/// same hot entry), and the resources stored for them.
enum Keys {
    static let count = 1024
    static let mask = count - 1
    static let all: [String] = (0..<count).map { "avatars/user-\($0)/photo.png" }

    static func memoryLoader() -> MemoryLoader<String, Data> {
        var resources: [String: Data] = [:]
        for (index, key) in all.enumerated() {
            resources[key] = Data(repeating: UInt8(truncatingIfNeeded: index), count: 64)
        }
        return MemoryLoader(resources)
    }
}

/// A scratch directory with the files the cases read; removed when the run ends.
final class Scratch: @unchecked Sendable {
    let directory: URL

    init() throws {
        let base = FileManager.default.temporaryDirectory
        directory = base.appendingPathComponent("gatehouse-bench-\(getpid())", isDirectory: true)
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func url(_ name: String) -> URL {
        directory.appendingPathComponent(name)
    }

    /// Writes `bytes` to `name` atomically (a temporary file renamed over it).
    @discardableResult
    func write(_ name: String, _ bytes: Data) throws -> URL {
        let target = url(name)
        try bytes.write(to: target, options: .atomic)
        return target
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Rules files of a given size and requests spread over all of their rules.
enum Rules {
    /// `count` rules: one deny with wildcards, one per-user allow for `count - 2` users, and one
    /// allow for every avatar (so any user's request matches three patterns).
    static func text(count: Int) -> String {
        precondition(count >= 3)
        var text = "# effect subject action resource (\(count) rules)\n"
        text.reserveCapacity(count * 48)
        text += "deny * * avatars/*/private-*\n"
        for user in 0..<(count - 2) {
            text += "allow user-\(user) read avatars/user-\(user)/*\n"
        }
        text += "allow * read avatars/*\n"
        return text
    }

    /// 1,024 requests for users spread evenly over the file's per-user rules.
    static func requests(count: Int) -> [AccessRequest] {
        let users = count - 2
        return (0..<Keys.count).map { index in
            let user = index * users / Keys.count
            return AccessRequest(subject: "user-\(user)", resource: "avatars/user-\(user)/photo.png")
        }
    }

    /// A FilePolicy on a freshly written file of `count` rules, parsed once already.
    /// A policy over its own file `NAME.rules` of `count` rules; each fixture has its own file, so
    /// that the reload case, which rewrites its file every round, never touches another case's.
    static func policy(count: Int, named name: String, in scratch: Scratch) async throws -> FilePolicy {
        let url = try scratch.write("\(name).rules", Data(text(count: count).utf8))
        let policy = FilePolicy(url: url)
        let decision = try await policy.evaluate(requests(count: count)[1])
        precondition(decision == .allow, "the bench rules must allow: \(decision)")
        return policy
    }
}

/// A fixed instant inside a Mon–Sun 09:00–17:00 Europe/Berlin window: Wed 2024-06-12 12:00 CEST.
let windowInstant = Date(timeIntervalSince1970: 1_718_186_400)

func openWindow() throws -> TimeWindow {
    try TimeWindow(
        days: Set(Weekday.allCases), from: LocalTime("09:00"), to: LocalTime("17:00"),
        timeZone: "Europe/Berlin", now: { windowInstant })
}

/// A small C path, kept for the lifetime of the run.
final class CPath: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<CChar>

    init(_ path: String) {
        pointer = strdup(path)!
    }

    deinit {
        free(pointer)
    }
}

/// The floor for reading a file: open, read to the end into a fresh buffer, close, as `Data`.
func rawRead(_ path: UnsafePointer<CChar>, expectedSize: Int) -> Data {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    precondition(descriptor >= 0, "raw read: cannot open \(String(cString: path))")
    let capacity = expectedSize + 1
    let buffer = malloc(capacity)!
    var count = 0
    while true {
        let got = read(descriptor, buffer + count, capacity - count)
        if got > 0 {
            count += got
            if count == capacity { break }
        } else if got == 0 || errno != EINTR {
            break
        }
    }
    close(descriptor)
    return Data(bytesNoCopy: buffer, count: count, deallocator: .free)
}

/// A payload object for the cache insert cases (NSCache stores objects).
final class Payload: Sendable {
    let bytes: Int

    init(bytes: Int) {
        self.bytes = bytes
    }
}
