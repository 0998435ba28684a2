import Foundation

/// The PostgreSQL server the tests may run SQL on, found by the environment: its connection URL
/// in `GATEHOUSE_POSTGRES_URL` (`.ci/start-postgres` starts a throwaway one and prints it) and
/// the `psql` client (`GATEHOUSE_PSQL`, else on the `PATH` or under `/usr/lib/postgresql`).
/// Nothing links libpq: a script runs through `psql`, a process of its own.
public enum PostgreSQLServer {
    /// The command that makes the server available, for skip messages.
    public static let howToEnable =
        "needs a PostgreSQL server and psql: eval \"$(.ci/start-postgres)\" sets GATEHOUSE_POSTGRES_URL"

    /// The server's connection URL, or `nil`.
    public static let url: String? = {
        guard let url = ProcessInfo.processInfo.environment["GATEHOUSE_POSTGRES_URL"], !url.isEmpty else {
            return nil
        }
        return url
    }()

    /// The `psql` executable, or `nil`.
    public static let psql: String? = {
        let environment = ProcessInfo.processInfo.environment
        var candidates = [environment["GATEHOUSE_PSQL"]].compactMap { $0 }
        candidates += (environment["PATH"] ?? "").split(separator: ":").map { "\($0)/psql" }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        candidates += versions.sorted().reversed().map { "/usr/lib/postgresql/\($0)/bin/psql" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Whether a server and a client were found.
    public static var isAvailable: Bool { url != nil && psql != nil }

    /// Whether CI asks for the PostgreSQL tests (`GATEHOUSE_REQUIRE_POSTGRES=1`): then a server
    /// that cannot be found is a failure, not a skip.
    public static var isRequired: Bool {
        ProcessInfo.processInfo.environment["GATEHOUSE_REQUIRE_POSTGRES"] == "1"
    }

    /// What `psql` did with a script.
    public struct Run: Sendable {
        /// `psql`'s exit status: 0 when every statement succeeded (it stops at the first error).
        public var status: Int32
        /// The rows, one a line, fields separated by a space, no headers.
        public var rows: [String]
        /// What it printed on standard error.
        public var errors: String
    }

    /// Runs `script` in one session (a temporary table lives until its end) and collects the
    /// rows; the waits happen on threads of their own, never on the cooperative pool. The script
    /// is read from a file, so a client that fails early cannot break a pipe.
    public static func run(_ script: String) async throws -> Run {
        guard let url, let psql else { throw Unavailable() }
        return try await withTemporaryDirectory { folder in
            let file = folder.appendingPathComponent("script.sql")
            try Data(script.utf8).write(to: file)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: psql)
            process.arguments = [
                "-X", "-q", "-A", "-t", "-F", " ", "-v", "ON_ERROR_STOP=1", "-d", url, "-f", file.path,
            ]
            process.environment = ProcessInfo.processInfo.environment.merging(
                ["PGCONNECT_TIMEOUT": "10", "PGCLIENTENCODING": "UTF8"]
            ) { $1 }
            process.standardInput = FileHandle.nullDevice
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            let outReader = output.fileHandleForReading
            let errReader = errors.fileHandleForReading
            async let errData = onAThreadOfItsOwn { errReader.readDataToEndOfFile() }
            let outData = try await onAThreadOfItsOwn { outReader.readDataToEndOfFile() }
            let errBytes = try await errData
            try await onAThreadOfItsOwn { process.waitUntilExit() }
            return Run(
                status: process.terminationStatus,
                rows: String(decoding: outData, as: UTF8.self).split(separator: "\n").map(String.init),
                errors: String(decoding: errBytes, as: UTF8.self))
        }
    }

    /// No server or no client was found.
    public struct Unavailable: Error, CustomStringConvertible {
        /// ``howToEnable``.
        public var description: String { PostgreSQLServer.howToEnable }
    }
}
