import Foundation
import GatehouseTestSupport

/// Runs a built example executable and captures what it printed, like
/// swift-argument-parser's example tests.
struct ExampleRun {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum Examples {
    /// The folder the package's products are built into (beside the test bundle).
    static var productsDirectory: URL {
        #if canImport(Darwin)
            for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
                return bundle.bundleURL.deletingLastPathComponent()
            }
        #endif
        return Bundle.main.bundleURL
    }

    /// The package root (three levels above this file).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `executable` with `arguments` in `directory` (the package root by default), with this
    /// process's environment and the `environment` given added to it.
    ///
    /// The waits (for the child's output and its exit) happen on threads of their own, never on
    /// the cooperative pool the tests share: a test that runs the command many times would
    /// otherwise hold one of this machine's two pool threads for all of them.
    static func run(
        _ executable: String, _ arguments: [String], in directory: URL? = nil, input: Data? = nil,
        environment: [String: String] = [:]
    ) async throws -> ExampleRun {
        let process = Process()
        process.executableURL = productsDirectory.appendingPathComponent(executable)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.currentDirectoryURL = directory ?? packageRoot
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let inputPipe = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
        try process.run()
        if let input {
            inputPipe.fileHandleForWriting.write(input)
            try inputPipe.fileHandleForWriting.close()
        }
        // Both pipes are read to the end at once, so a chatty child never blocks on a full pipe.
        let outReader = out.fileHandleForReading
        let errReader = err.fileHandleForReading
        async let errData = onAThreadOfItsOwn { errReader.readDataToEndOfFile() }
        let outData = try await onAThreadOfItsOwn { outReader.readDataToEndOfFile() }
        let errBytes = try await errData
        try await onAThreadOfItsOwn { process.waitUntilExit() }
        return ExampleRun(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errBytes, as: UTF8.self))
    }

    static func gatehouse(_ arguments: String..., in directory: URL? = nil, input: Data? = nil) async throws
        -> ExampleRun
    {
        try await run("gatehouse", arguments, in: directory, input: input)
    }
}
