import Foundation
import GatehouseCore

/// The real loader of the lesson: returns the bytes of the key's name for any key and records
/// every key it is asked for, so the lesson can print exactly what it saw.
struct RecordingLoader: ResourceLoading {
    private let keys = Locked<[String]>([])

    /// Records `key` and returns its bytes.
    func load(_ key: String) async throws -> Data {
        keys.withLock { $0.append(key) }
        return Self.contents(of: key)
    }

    /// What this loader returns for `key`: the bytes of `contents of <key>`.
    static func contents(of key: String) -> Data {
        Data("contents of \(key)".utf8)
    }

    /// The keys this loader was asked for, in order.
    var receivedKeys: [String] {
        keys.withLock { $0 }
    }
}
