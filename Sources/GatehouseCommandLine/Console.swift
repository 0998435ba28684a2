import Foundation

/// Where a command writes: results to `out`, errors and denials to `err`.
struct Console: Sendable {
    let out: @Sendable (String) -> Void
    let err: @Sendable (String) -> Void
    let outData: @Sendable (Data) -> Void
    /// Writes progress as it is (no newline); `nil` unless standard error is a terminal.
    var progressLine: (@Sendable (String) -> Void)? = nil
    var progressDelay: Duration = .seconds(1)

    /// The process's standard output and standard error, unbuffered.
    static let standard = Console(
        out: { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) },
        err: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) },
        outData: { FileHandle.standardOutput.write($0) },
        progressLine: isatty(STDERR_FILENO) == 1 ? writeError : nil)

    private static let writeError: @Sendable (String) -> Void = {
        FileHandle.standardError.write(Data($0.utf8))
    }

    /// A progress line that starts with `text`; it shows nothing unless standard error is a terminal.
    func progress(_ text: String) -> Progress { Progress(text, write: progressLine, delay: progressDelay) }
}

/// The exit statuses of `gatehouse`, as documented in docs/cli.md.
enum ExitStatus: Int32 {
    case ok = 0
    case error = 1
    case usage = 2
    case denied = 3
}
