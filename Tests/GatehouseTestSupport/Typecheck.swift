import Foundation

/// What `swiftc -typecheck` said of a snippet: its exit status, its standard error, and the
/// snippet's path (each error line starts with it).
public struct TypecheckResult: Sendable {
    /// The compiler's exit status: 0 when the snippet compiles.
    public var status: Int32
    /// The compiler's standard error.
    public var errors: String
    /// The snippet's path.
    public var file: String

    /// The error lines about the snippet itself.
    public var errorLines: [Substring] {
        errors.split(separator: "\n").filter { $0.hasPrefix(file + ":") && $0.contains(": error: ") }
    }
}

/// Runs `swiftc -typecheck` on `source` against the package's built modules (a test target must
/// depend on every module the snippet imports, so that it is built); the waits happen on a
/// thread of their own, never on the cooperative pool.
public func typecheck(_ source: String) async throws -> TypecheckResult {
    let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return try await withTemporaryDirectory { folder in
        let file = folder.appendingPathComponent("snippet.swift")
        try Data(source.utf8).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "swiftc", "-typecheck", "-I", builtModules.path,
            "-I", packageRoot.appendingPathComponent("Sources/CGatehouseLinux/include").path, file.path,
        ]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let reader = errors.fileHandleForReading
        let output = try await onAThreadOfItsOwn { reader.readDataToEndOfFile() }
        try await onAThreadOfItsOwn { process.waitUntilExit() }
        return TypecheckResult(
            status: process.terminationStatus, errors: String(decoding: output, as: UTF8.self),
            file: file.path)
    }
}

/// The folder holding the package's built modules, beside the test bundle.
private var builtModules: URL {
    #if canImport(Darwin)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("Modules")
        }
    #endif
    return Bundle.main.bundleURL.appendingPathComponent("Modules")
}
