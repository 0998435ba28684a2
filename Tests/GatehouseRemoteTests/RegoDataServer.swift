import Foundation

/// The Python that can run the Rego interpreter regopy, if this machine has one, found in this
/// order: the environment variable `GATEHOUSE_REGOPY_PYTHON`, then the virtual environment
/// `.build/regopy-venv` in the package (`.ci/run` makes it; README.md, "Interop tests").
enum RegoInterpreter {
    /// The command that makes the interpreter available, for skip messages.
    static let howToEnable =
        "needs Python with regopy: python3 -m venv .build/regopy-venv && .build/regopy-venv/bin/pip install regopy"

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The Python executable with regopy importable, or `nil`.
    static let python: String? = {
        let candidates: [String?] = [
            ProcessInfo.processInfo.environment["GATEHOUSE_REGOPY_PYTHON"],
            packageRoot.appendingPathComponent(".build/regopy-venv/bin/python").path,
        ]
        for case let path? in candidates where FileManager.default.isExecutableFile(atPath: path) {
            if imports(regopy: path) { return path }
        }
        return nil
    }()

    static var isAvailable: Bool { python != nil }

    /// Whether CI asks for the interop tests (`GATEHOUSE_REQUIRE_INTEROP=1`): then an interpreter
    /// that cannot be found is a failure, not a skip.
    static var isRequired: Bool { ProcessInfo.processInfo.environment["GATEHOUSE_REQUIRE_INTEROP"] == "1" }

    private static func imports(regopy python: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", "import regopy"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

/// Tests/Interop/opa_data_server.py running on a loopback port: OPA's data API answered by
/// regopy from Rego files. Stopped by `stop()` (its standard input closes, then SIGTERM).
///
/// `@unchecked Sendable`: `Process` and `Pipe` are not `Sendable`; every property is a `let`.
final class RegoDataServer: @unchecked Sendable {
    let port: Int
    private let process: Process
    private let input: Pipe

    enum Failure: Error, CustomStringConvertible {
        case noInterpreter
        case noPort(String)
        var description: String {
            switch self {
            case .noInterpreter: RegoInterpreter.howToEnable
            case .noPort(let text): "the OPA data server did not print its port: \(text)"
            }
        }
    }

    /// Starts the server on the Rego files (paths relative to the package) and waits for its port.
    init(policies: [String]) throws {
        guard let python = RegoInterpreter.python else { throw Failure.noInterpreter }
        let root = RegoInterpreter.packageRoot
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments =
            [root.appendingPathComponent("Tests/Interop/opa_data_server.py").path]
            + policies.map { root.appendingPathComponent($0).path }
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // The first line is the port; read it on a thread so that a silent server cannot hang
        // the test beyond the wait below.
        let line = LineBox()
        let reader = output.fileHandleForReading
        Thread {
            var bytes = Data()
            while !bytes.contains(UInt8(ascii: "\n")) {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                bytes.append(chunk)
            }
            line.set(String(decoding: bytes, as: UTF8.self))
        }.start()
        guard let text = line.wait(seconds: 60),
            let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            process.terminate()
            throw Failure.noPort(line.wait(seconds: 0) ?? "nothing within 60 s")
        }
        self.port = port
        self.process = process
        self.input = input
    }

    deinit {
        stop()
    }

    /// `http://127.0.0.1:<port>/v1/data/<path>`.
    func url(_ path: String = "gatehouse") -> URL {
        URL(string: "http://127.0.0.1:\(port)/v1/data/\(path)")!
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}

/// A line handed from a reading thread to a waiting one.
private final class LineBox: @unchecked Sendable {
    private let condition = NSCondition()
    private var text: String?

    func set(_ value: String) {
        condition.lock()
        text = value
        condition.broadcast()
        condition.unlock()
    }

    func wait(seconds: Double) -> String? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: seconds)
        while text == nil, condition.wait(until: deadline) {}
        return text
    }
}
