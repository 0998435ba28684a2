import Foundation
import GatehouseCore

/// An `AccessObserver` that writes one JSON object per line (JSON Lines) for
/// every record, with the field names of OPA's decision log where OPA has one, ready for a log
/// shipper (Fluent Bit, Vector) to tail.
///
/// ```swift
/// let log = try DecisionLog(url: URL(fileURLWithPath: "decisions.jsonl"), mask: ["token"])
/// let gate = AccessGate(gatekeepers: [rules], observer: log, service: "documents")
/// // … decide …
/// await log.close()   // everything accepted is written, synchronized and the file closed
/// ```
///
/// One line per record:
///
/// ```json
/// {"decision_id":"3f0c…","timestamp":"2026-12-01T13:45:00.123456Z","service":"documents",
///  "input":{"subject":"alice","action":"read","resource":"docs/a.txt","attributes":{"device":"managed"}},
///  "result":true,"gatekeeper":"rules","rule":"documents.rules:4","shadow":false,"failed":false,
///  "erased":["/input/attributes/token"]}
/// ```
///
/// - `decision_id`: the record's `requestID`, as a lowercase UUID. A shadow gatekeeper's line
///   carries the same id as the enforced verdict of that call: the id names the decision about
///   one request, and sharing it is what lets a query put a shadow answer beside the enforced
///   one. A line is told apart by `shadow` and `gatekeeper`; a consumer that needs a unique key
///   uses (`decision_id`, `shadow`, `gatekeeper`).
/// - `timestamp`: the record's instant, RFC 3339 in UTC with microseconds.
/// - `service`: the service's name; left out when the gate has none.
/// - `input`: the request: `subject` (left out when there is none), `action`, `resource`,
///   `attributes` (an object, keys sorted, masked keys removed).
/// - `result`: `true` when allowed, `false` when denied or failed, as OPA logs the value of an
///   `allow` rule.
/// - `gatekeeper`: the deciding gatekeeper's name. The issue called it `gate`; the project uses
///   one word for a member of the chain, *gatekeeper*, in names, output and logs alike.
/// - `reason`, `rule` (`file:line`): when the verdict has them.
/// - `shadow`: whether this is a shadow gatekeeper's answer, reported and never enforced.
/// - `failed`: whether the deciding gatekeeper failed (threw) rather than decided.
/// - `shadow_dropped`: `true` on the line of a shadow gatekeeper that was not asked, because
///   its gate already had 64 shadow asks in flight
///   (`AccessRecord.isDropped`; `failed` is `true` and `reason` says so); left
///   out otherwise. A shadow that timed out is `failed`, with the reason.
/// - `erased`: the JSON Pointers of the masked attributes that the request had, as OPA's
///   `erased` lists what its mask removed (`/input/attributes/token`); left out when none.
///
/// **Masking** removes an attribute (key and value) from `input.attributes` and names it in
/// `erased`, as OPA's decision-log mask does by default; the value never reaches the file.
///
/// **Off the caller's path.** ``observe(_:)`` only appends the record to a bounded queue of
/// ``capacity`` records; one writer thread encodes what is queued and appends it with one
/// `write` of whole lines to a file opened with `O_APPEND`, so lines are never torn, even with
/// several processes appending to one file. When the queue is full, ``overflow`` says what
/// happens:
/// - ``Overflow/drop``: the record is not logged and ``droppedCount`` counts it; when the writer
///   next writes, a line `{"dropped": N, "timestamp": "…", "message": "…"}` (no `decision_id`)
///   reports how many were dropped since the last such line.
/// - ``Overflow/wait``: the caller blocks until the writer makes room. No record is lost, but a
///   decision then takes as long as the disk needs: the log's speed becomes the gate's.
///
/// **Write errors** (disk full, I/O error) never crash and never block callers: the records of a
/// batch whose lines did not reach the file are counted in ``lostCount``, ``lastError`` says why,
/// and the next batch tries again. When the system writes part of a batch and then refuses the
/// rest, the file is cut back to the end of the last whole line, so no line is torn; the records
/// of the lines that stayed are logged, not lost. Every observed record is exactly one of: a line
/// in the file, ``lostCount`` or ``droppedCount``.
///
/// **Only a regular file.** The path is opened with `O_NOFOLLOW` and `O_NONBLOCK`, at the start
/// and whenever the writer opens it again: a symbolic link, a pipe, a directory, a device or a
/// socket is refused at once with a ``DecisionLogError`` that names the path and what it is
/// (never a wait for a pipe's reader). When the path no longer names the open file (removed, or
/// moved away by a log rotator), the writer opens the path again, creating the file; if what it
/// finds there is refused, the batch is counted in ``lostCount`` and ``lastError`` says why.
///
/// **Escaping.** Every string is JSON-escaped as the command's `--json` escapes it: the control
/// characters (U+0000–U+001F, U+007F–U+009F), U+2028, U+2029 and the bidirectional controls as
/// `\uXXXX`, so no kind of line break or terminal control gets into the file raw.
///
/// **Closing.** ``flush()`` and ``close()`` return when everything accepted before the call is
/// written and synchronized (`fsync`); ``close()`` then closes the file and may be called more
/// than once. A record observed after closing is not written and is counted in
/// ``droppedCount`` (no report line: the file is closed). A log released without closing still
/// writes what it accepted, on its own thread, but nothing waits for it: close the log before a
/// process exits.
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

    /// Opens (creating if needed, permissions `rw-r-----`) the regular file at `url` for appending
    /// and starts the writer thread.
    ///
    /// - Parameters:
    ///   - url: The file to append lines to.
    ///   - mask: Attribute keys to remove from every line.
    ///   - capacity: The most records queued; at least 1.
    ///   - overflow: What a full queue does: drop and count, or make the caller wait.
    ///   - clock: Stamps the lines that report dropped records (decision lines carry the
    ///     record's own instant).
    /// - Throws: ``DecisionLogError`` when the file cannot be opened, or the path is a symbolic
    ///   link, a pipe or anything else but a regular file.
    public convenience init(
        url: URL, mask: Set<String> = [], capacity: Int = DecisionLog.defaultCapacity,
        overflow: Overflow = .drop, clock: @escaping @Sendable () -> Date = { Date() }
    ) throws(DecisionLogError) {
        try self.init(
            url: url, mask: mask, capacity: capacity, overflow: overflow, clock: clock,
            write: AppendOnlyFile.systemWrite)
    }

    /// The public initializer with the system call that writes to the file given: tests pass
    /// one that fails as a full disk does.
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
        await queue.flush()
    }

    /// Stops accepting records and returns when every accepted record is written, synchronized,
    /// and the file closed. Calling it again returns at once.
    public func close() async {
        await queue.close()
    }

    /// Records queued so far (written, being written, or lost to a write error).
    public var acceptedCount: Int { queue.counts.accepted }
    /// Records not queued: dropped because the queue was full, or observed after closing.
    public var droppedCount: Int { queue.counts.dropped }
    /// Accepted records whose line a write error, or a path that could not be opened again, kept
    /// out of the file.
    public var lostCount: Int { queue.counts.lost }
    /// The last write or synchronization error, if any.
    public var lastError: DecisionLogError? { queue.counts.lastError }
    /// Whether ``close()`` was called.
    public var isClosed: Bool { queue.counts.isClosed }
}
