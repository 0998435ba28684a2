import Foundation
import GatehouseComposition
import GatehouseCore
import GatehouseTestSupport

@testable import GatehouseCommandLine

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

    /// Spawns the `gatehouse` binary: for the smoke tests that need a process (the program's
    /// name, standard input, a working directory, the exit of the process itself).
    static func gatehouse(_ arguments: String..., in directory: URL? = nil, input: Data? = nil) async throws
        -> ExampleRun
    {
        try await run("gatehouse", arguments, in: directory, input: input)
    }

    /// Runs the `gatehouse` command in this process (`GatehouseCommand(registry:console:)`, the
    /// built-in plugin types, as the binary has), capturing the bytes it writes to standard
    /// output and standard error. Relative paths resolve against the working directory, the
    /// package root under `swift test`; elsewhere the binary is spawned in the package root.
    /// Nothing is read from standard input: a command that would read it must be spawned.
    static func command(_ arguments: String...) async throws -> ExampleRun {
        try await command(arguments)
    }

    /// ``command(_:)-(String...)`` with the arguments as an array.
    static func command(_ arguments: [String]) async throws -> ExampleRun {
        guard FileManager.default.currentDirectoryPath == packageRoot.path else {
            return try await run("gatehouse", arguments)
        }
        let written = LockedState((out: Data(), err: Data()))
        let console = Console(
            out: { text in written.withLock { $0.out.append(Data((text + "\n").utf8)) } },
            err: { text in written.withLock { $0.err.append(Data((text + "\n").utf8)) } },
            outData: { data in written.withLock { $0.out.append(data) } })
        let status = await GatehouseCommand(registry: .command, console: console).run(arguments)
        return written.withLock {
            ExampleRun(
                status: status, stdout: String(decoding: $0.out, as: UTF8.self),
                stderr: String(decoding: $0.err, as: UTF8.self))
        }
    }
}
