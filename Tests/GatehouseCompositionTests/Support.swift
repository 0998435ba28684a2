import Foundation
import GatehouseComposition
import GatehouseCore

/// A fresh folder under the temporary directory, removed by `cleanUp()`.
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("gatehouse-composition-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    @discardableResult
    func write(_ text: String, to name: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file, options: .atomic)
        return file
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// An observer that keeps every record.
final class RecordingObserver: AccessObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [AccessRecord] = []
    func observe(_ record: AccessRecord) { lock.withLock { stored.append(record) } }
    var records: [AccessRecord] { lock.withLock { stored } }
}

/// A switch shared between a test and a plugin-built policy, to revoke access mid-test.
final class AccessSwitch: @unchecked Sendable {
    private let lock = NSLock()
    private var open = true
    var isOpen: Bool {
        get { lock.withLock { open } }
        set { lock.withLock { open = newValue } }
    }
}

struct SwitchPolicy: AccessPolicy {
    let name = "switch"
    let toggle: AccessSwitch
    func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        toggle.isOpen ? .allow : .deny(reason: "switched off")
    }
}

/// A loader that counts its calls, registered as a plugin in tests.
final class CountingLoader: ResourceLoading, @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func load(_ key: String) async throws -> Data {
        lock.withLock { count += 1 }
        return Data("content of \(key)".utf8)
    }
    var calls: Int { lock.withLock { count } }
}

/// Assembles `json` with `baseDirectory` the temporary directory and returns the issues as text.
func issues(_ json: String, registry: PluginRegistry = PluginRegistry()) -> [String] {
    do {
        _ = try Assembler(registry: registry).assemble(
            json: Data(json.utf8), baseDirectory: FileManager.default.temporaryDirectory)
        return []
    } catch let error as ConfigurationError {
        return error.issues.map(\.description)
    } catch {
        return ["unexpected error: \(error)"]
    }
}

/// A one-service configuration with the given gatekeepers (JSON array text) and a memory loader.
func service(gatekeepers: String, extra: String = "") -> String {
    """
    { "services": { "s": {
        "loader": { "type": "memory", "resources": { "a": "A" } }\(extra),
        "gatekeepers": \(gatekeepers) } } }
    """
}
