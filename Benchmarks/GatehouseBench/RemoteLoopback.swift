import Foundation
import GatehouseCore
import GatehouseRemote

/// `remote-opa-loopback`: one `RemotePolicy` decision against OPA's data API on the loopback
/// interface, served by the real Rego interpreter regopy (Tests/Interop/opa_data_server.py on
/// Tests/Interop/gatehouse.rego). Reported with no target: it measures HTTP on loopback and a
/// Python server, not Gatehouse. Skipped, with how to enable it, where regopy is not installed.
enum RemoteLoopback {
    static let name = "remote-opa-loopback"

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let howToEnable =
        "skipped (needs Python with regopy: python3 -m venv .build/regopy-venv && "
        + ".build/regopy-venv/bin/pip install regopy, or GATEHOUSE_REGOPY_PYTHON=/path/to/python)"

    /// The case, or the line that says why it is skipped.
    static func benchCase() throws -> Result<BenchCase, SkippedCase> {
        guard let python = python() else { return .failure(SkippedCase(name: name, reason: howToEnable)) }
        let server = try RegoServer(python: python, root: packageRoot)
        let policy = try RemotePolicy(
            url: URL(string: "http://127.0.0.1:\(server.port)/v1/data/gatehouse")!, protocol: .opa,
            timeout: .seconds(5))
        let requests = [
            AccessRequest(subject: "dana", action: "read", resource: "docs/plan.md"),
            AccessRequest(subject: "zoe", action: "read", resource: "docs/plan.md"),
        ]
        return .success(
            BenchCase(
                name, "one RemotePolicy decision: OPA data API on loopback, served by regopy",
                iterations: 1_000, quick: 20
            ) {
                n in
                var sum = 0
                for i in 0..<n {
                    sum &+= try await policy.evaluate(requests[i & 1]).isAllowed ? 1 : 0
                }
                return withExtendedLifetime(server) { sum }
            })
    }

    /// `GATEHOUSE_REGOPY_PYTHON`, else `.build/regopy-venv/bin/python`, if it imports regopy.
    static func python() -> String? {
        let candidates: [String?] = [
            ProcessInfo.processInfo.environment["GATEHOUSE_REGOPY_PYTHON"],
            packageRoot.appendingPathComponent(".build/regopy-venv/bin/python").path,
        ]
        for case let path? in candidates where FileManager.default.isExecutableFile(atPath: path) {
            let probe = Process()
            probe.executableURL = URL(fileURLWithPath: path)
            probe.arguments = ["-c", "import regopy"]
            probe.standardOutput = FileHandle.nullDevice
            probe.standardError = FileHandle.nullDevice
            guard (try? probe.run()) != nil else { continue }
            probe.waitUntilExit()
            if probe.terminationStatus == 0 { return path }
        }
        return nil
    }
}

/// A case that could not run here, and why.
struct SkippedCase: Error {
    let name: String
    let reason: String
}

/// opa_data_server.py, running until this value goes away (its standard input then closes).
///
/// `@unchecked Sendable`: `Process` and `Pipe` are not `Sendable`; every property is a `let`.
final class RegoServer: @unchecked Sendable {
    let port: Int
    private let process: Process
    private let input: Pipe

    init(python: String, root: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [
            root.appendingPathComponent("Tests/Interop/opa_data_server.py").path,
            root.appendingPathComponent("Tests/Interop/gatehouse.rego").path,
        ]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var bytes = Data()
        while !bytes.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            bytes.append(chunk)
        }
        guard
            let port = Int(
                String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            process.terminate()
            throw SkippedCase(name: RemoteLoopback.name, reason: "the OPA data server did not start")
        }
        self.port = port
        self.process = process
        self.input = input
    }

    deinit {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
