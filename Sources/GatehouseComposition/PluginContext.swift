import Foundation
import GatehouseCore

/// What a plugin factory knows about where it is being built, and a way to build nested gatekeepers.
public struct PluginContext: Sendable {
    /// The configuration's folder; relative paths resolve against it, never the working directory.
    public let baseDirectory: URL
    /// The clock of this assembly: give it to time-dependent policies (`gatehouse check --at`).
    public let clock: @Sendable () -> Date
    /// The observer of this assembly, if any.
    public let observer: (any AccessObserver)?
    /// Where the component being built sits in the file, such as `services.avatars.gatekeepers[1]`.
    public let path: String

    let build: AssemblyRun
    let depth: Int

    /// `path` if absolute, else `path` under ``baseDirectory``, standardized.
    public func resolve(_ path: String) -> URL {
        Self.resolve(path, against: baseDirectory)
    }

    static func resolve(_ path: String, against baseDirectory: URL) -> URL {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path).standardizedFileURL }
        return baseDirectory.appendingPathComponent(path).standardizedFileURL
    }

    /// Builds a nested gatekeeper (as `not` does with its `gatekeeper`). Problems in it are
    /// reported at its own path; the call then throws and the enclosing component is not built.
    /// Its configured `"name"` is shown by a built-in combinator that holds it, not by your own.
    public func gatekeeper(_ component: ComponentConfiguration) throws -> any AccessPolicy {
        try member(component).policy
    }

    /// Builds nested gatekeepers (as `allOf` does), reporting the problems of every one before
    /// throwing.
    public func gatekeepers(_ components: [ComponentConfiguration]) throws -> [any AccessPolicy] {
        try members(components).map(\.policy)
    }

    /// A nested gatekeeper with its configured name, for a combinator that shows it.
    func member(_ component: ComponentConfiguration) throws -> NamedGatekeeper {
        let path = ConfigurationPath.appending(self.path, component.relativePath)
        guard let built = build.policy(component, path: path, depth: depth + 1) else {
            throw NestedComponentFailed()
        }
        return built.member
    }

    /// Nested gatekeepers with their configured names, every one's problems reported.
    func members(_ components: [ComponentConfiguration]) throws -> [NamedGatekeeper] {
        let built = components.map { try? member($0) }
        guard built.allSatisfy({ $0 != nil }) else { throw NestedComponentFailed() }
        return built.compactMap { $0 }
    }
}

/// Thrown when a nested component failed; its problems are reported already.
struct NestedComponentFailed: Error {}
