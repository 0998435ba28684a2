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

    /// A policy over its own file `NAME.rules` of `count` rules; each fixture has its own file, so
    /// that the reload case, which rewrites its file every round, never touches another case's.
    static func policy(count: Int, named name: String, in scratch: Scratch) async throws -> FilePolicy {
        try await policy(text: text(count: count), allowing: requests(count: count), named: name, in: scratch)
    }

    /// A policy over its own file `NAME.rules` holding `text`, parsed once already: the first two
    /// of `requests` must be allowed.
    static func policy(
        text: String, allowing requests: [AccessRequest], named name: String, in scratch: Scratch
    ) async throws -> FilePolicy {
        let url = try scratch.write("\(name).rules", Data(text.utf8))
        let policy = FilePolicy(url: url)
        for request in requests.prefix(2) {
            let decision = try await policy.evaluate(request)
            precondition(decision == .allow, "the bench rules of \(name) must allow \(request): \(decision)")
        }
        return policy
    }

    /// `count` rules naming `groups` groups nested `depth` deep (second-edition format).
    ///
    /// The groups `g-0` … `g-(groups - 1)` form chains of `depth`: `g-K` has the members
    /// `user-K-0` and `user-K-1` and, unless it ends its chain, `@g-(K + 1)`. So the subjects
    /// of a chain's last group are members of its first group through `depth - 1` nested groups.
    /// The rules: one deny with wildcards, then `allow @g-K read area-K/doc-J/*` for every group
    /// `K` in turn, with `J` counting the rounds, until there are `count` rules.
    static func groupsText(count: Int, groups: Int, depth: Int) -> String {
        precondition(groups % depth == 0 && count - 1 >= groups)
        var text = "# \(count) rules naming \(groups) groups nested \(depth) deep\n"
        text.reserveCapacity(groups * 40 + count * 40)
        for group in 0..<groups {
            text += "group g-\(group) user-\(group)-0 user-\(group)-1"
            text += group % depth == depth - 1 ? "\n" : " @g-\(group + 1)\n"
        }
        text += "deny * * */private-*\n"
        for rule in 0..<(count - 1) {
            let group = rule % groups
            text += "allow @g-\(group) read area-\(group)/doc-\(rule / groups)/*\n"
        }
        return text
    }

    /// 1,024 requests spread evenly over the chains of ``groupsText(count:groups:depth:)``: each
    /// by a subject of a chain's last group, for a document under its first group's area, so the
    /// allowing rule names a group the subject is a member of only `depth - 1` groups down.
    static func groupsRequests(count: Int, groups: Int, depth: Int) -> [AccessRequest] {
        let chains = groups / depth
        let documents = (count - 1) / groups
        return (0..<Keys.count).map { index in
            let first = index * chains / Keys.count * depth
            let last = first + depth - 1
            return AccessRequest(
                subject: "user-\(last)-\(index & 1)",
                resource: "area-\(first)/doc-\(index % documents)/report.txt")
        }
    }

    /// `count` rules whose resources hold placeholders (second-edition format): one deny with
    /// wildcards, then, for `R` from 0, `allow * read space-R/{subject}/*` for even `R` and
    /// `allow * read space-R/{tenant}/*` for odd `R`.
    static func placeholdersText(count: Int) -> String {
        precondition(count >= 3)
        var text = "# \(count) rules with placeholders\n"
        text.reserveCapacity(count * 40)
        text += "deny * * */private-*\n"
        for rule in 0..<(count - 1) {
            text += "allow * read space-\(rule)/\(rule.isMultiple(of: 2) ? "{subject}" : "{tenant}")/*\n"
        }
        return text
    }

    /// 1,024 requests spread evenly over the rules of ``placeholdersText(count:)``, each with a
    /// subject and a `tenant` attribute, for a document in the folder its rule's placeholder names.
    static func placeholdersRequests(count: Int) -> [AccessRequest] {
        (0..<Keys.count).map { index in
            let rule = index * (count - 1) / Keys.count
            let subject = "user-\(index)"
            let tenant = "tenant-\(index % 32)"
            let folder = rule.isMultiple(of: 2) ? subject : tenant
            return AccessRequest(
                subject: subject, resource: "space-\(rule)/\(folder)/doc.txt", attributes: ["tenant": tenant])
        }
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
