import Foundation
import GatehouseCore

/// An `AccessObserver` that writes one JSON object per line (JSON Lines) for every record, with
/// the field names of OPA's decision log, ready for a log shipper to tail.
///
/// ```swift
/// let log = try DecisionLog(url: URL(fileURLWithPath: "decisions.jsonl"), mask: ["token"])
/// let gate = AccessGate(gatekeepers: [rules], observer: log, service: "documents")
/// // … decide …
/// await log.close()   // everything accepted is written, synchronized and the file closed
/// ```
///
/// Lines, masking, overflow and rotation are in docs/configuration.md ("Decision log").
/// ``observe(_:)`` only queues the record; one writer thread appends whole lines, so a line is
/// never torn. Write errors never crash or block callers: every observed record ends up as a
/// line, in ``lostCount`` or in ``droppedCount``. Only a regular file is opened, never through a
/// link. Close the log before a process exits.
public final class DecisionLog: AccessObserver, Sendable {
    /// What ``DecisionLog/observe(_:)`` does when the queue is full.
    public enum Overflow: String, Sendable, Hashable, CaseIterable {
        /// Drop the record and count it; a report line says how many were dropped.
        case drop
        /// Block the deciding caller until there is room: nothing is lost, decisions slow down.
        case wait
    }

    /// The log file.
    public let url: URL
    /// Attribute keys that never reach the file.
    public let mask: Set<String>
    /// The most records queued and not yet taken by the writer.
    public let capacity: Int
    /// What happens when the queue is full.
    public let overflow: Overflow

    /// The default ``capacity``: ten thousand records.
    public static let defaultCapacity = 10_000

    private let queue: DecisionQueue

    /// Opens (creating if needed, `rw-r-----`) the regular file at `url` and starts the writer
    /// thread. `capacity` is at least 1; `clock` stamps the drop report lines.
    ///
    /// - Throws: ``DecisionLogError`` when the file cannot be opened or is not a regular file.
    public convenience init(
        url: URL, mask: Set<String> = [], capacity: Int = DecisionLog.defaultCapacity,
        overflow: Overflow = .drop, clock: @escaping @Sendable () -> Date = { Date() }
    ) throws(DecisionLogError) {
        try self.init(
            url: url, mask: mask, capacity: capacity, overflow: overflow, clock: clock,
            write: AppendOnlyFile.systemWrite)
    }

    /// Tests pass a `write` that fails.
    init(
        url: URL, mask: Set<String>, capacity: Int, overflow: Overflow, clock: @escaping @Sendable () -> Date,
        write: @escaping AppendOnlyFile.SystemWrite
    ) throws(DecisionLogError) {
        precondition(capacity >= 1, "a decision log's capacity must be at least 1, found \(capacity)")
        self.url = url
        self.mask = mask
        self.capacity = capacity
        self.overflow = overflow
        let file = try AppendOnlyFile(path: url.path, write: write)
        let queue = DecisionQueue(
            file: file, mask: mask, capacity: capacity, overflow: overflow, clock: clock)
        self.queue = queue
        let thread = Thread { queue.run() }
        thread.name = "gatehouse.decision-log"
        thread.start()
    }

    /// Checks that ``init(url:mask:capacity:overflow:clock:)`` could open `url`, without creating,
    /// opening or changing anything (`gatehouse validate`): its folder exists, is a folder and
    /// may be written, and the path is not a directory, a link or another special file.
    ///
    /// - Throws: the ``DecisionLogError`` opening would throw.
    package static func checkOpening(url: URL) throws(DecisionLogError) {
        try AppendOnlyFile.checkOpening(url.path)
    }

    deinit {
        queue.beginClosing()
    }

    /// Queues one line for `record`; never touches the file. With ``Overflow/wait``, blocks
    /// while the queue is full.
    public func observe(_ record: AccessRecord) {
        queue.accept(record)
    }

    /// Returns when every record accepted before the call is written and synchronized.
    public func flush() async {
        await queue.waitForWriter(closing: false)
    }

    /// Stops accepting records and returns when every accepted record is written, synchronized,
    /// and the file closed. Calling it again returns at once.
    public func close() async {
        await queue.waitForWriter(closing: true)
    }

    /// Records queued so far (written, being written, or lost to a write error).
    public var acceptedCount: Int { queue.counts.accepted }
    /// Records not queued: dropped because the queue was full, or observed after closing.
    public var droppedCount: Int { queue.counts.dropped }
    /// Accepted records whose line a write error kept out of the file.
    public var lostCount: Int { queue.counts.lost }
    /// The last write or synchronization error, if any.
    public var lastError: DecisionLogError? { queue.counts.lastError }
    /// Whether ``close()`` was called.
    public var isClosed: Bool { queue.counts.isClosed }
}
