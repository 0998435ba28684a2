import Foundation

/// How big the large cases of the test suite run: at full size when the environment sets
/// `GATEHOUSE_FULL_SIZE=1` (`.ci/run` does), otherwise at a tenth or so, so that no single test
/// of a plain `swift test` takes more than a few seconds on a developer's machine.
public enum TestSize {
    /// Whether the environment asks for the full sizes.
    public static let isFull = ProcessInfo.processInfo.environment["GATEHOUSE_FULL_SIZE"] == "1"

    /// `full` when the full sizes are asked for, otherwise `quick`.
    public static func count(full: Int, quick: Int) -> Int {
        isFull ? full : quick
    }
}
