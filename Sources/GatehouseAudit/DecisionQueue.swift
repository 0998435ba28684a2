import Foundation
import GatehouseCore

/// The bounded queue between the deciding tasks and the writer thread, and all they share, behind
/// one `NSCondition`: producers wait only when it is full, the writer only when there is nothing to do.
final class DecisionQueue: @unchecked Sendable {
    let capacity: Int
    let overflow: DecisionLog.Overflow
    private let line: DecisionLine
    private let clock: @Sendable () -> Date
    /// Touched by the writer thread only (and by `init`, before the thread starts).
    private let file: AppendOnlyFile

    private let condition = NSCondition()
    // Guarded by `condition`:
    private var pending: [AccessRecord] = []
    private var tally = Counts()
    private var droppedUnreported = 0
    private var finishedRecords = 0
    private var finished = false
    private var flushWaiters: [(target: Int, continuation: CheckedContinuation<Void, Never>)] = []
    private var closeWaiters: [CheckedContinuation<Void, Never>] = []

    init(
        file: AppendOnlyFile, mask: Set<String>, capacity: Int, overflow: DecisionLog.Overflow,
        clock: @escaping @Sendable () -> Date
    ) {
        self.file = file
        self.line = DecisionLine(mask: mask)
        self.capacity = capacity
        self.overflow = overflow
        self.clock = clock
        pending.reserveCapacity(capacity)
    }

    /// The counters and the last error, read together.
    struct Counts {
        var accepted = 0
        var dropped = 0
        var lost = 0
        var lastError: DecisionLogError?
        /// No record is accepted any more.
        var isClosed = false
    }

    var counts: Counts {
        condition.lock()
        defer { condition.unlock() }
        return tally
    }

    /// Queues `record`; when the queue is full, drops and counts it, or waits for room.
    func accept(_ record: AccessRecord) {
        condition.lock()
        defer { condition.unlock() }
        while !tally.isClosed && pending.count >= capacity {
            if overflow == .drop {
                tally.dropped += 1
                droppedUnreported += 1
                return
            }
            condition.wait()
        }
        if tally.isClosed {
            // Closed (or closed while this caller waited for room): nothing can be written.
            tally.dropped += 1
            return
        }
        pending.append(record)
        tally.accepted += 1
        if pending.count == 1 { condition.broadcast() }
    }

    /// Returns when the records accepted so far are written; `closing` first stops accepting, and
    /// waits for the file to be closed.
    func waitForWriter(closing: Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            condition.lock()
            defer { condition.unlock() }
            if finished {
                continuation.resume()
                return
            }
            if closing {
                tally.isClosed = true
                closeWaiters.append(continuation)
            } else {
                flushWaiters.append((tally.accepted, continuation))
            }
            condition.broadcast()
        }
    }

    /// Stops accepting without waiting; the writer still writes what was accepted.
    func beginClosing() {
        condition.lock()
        tally.isClosed = true
        condition.broadcast()
        condition.unlock()
    }

    /// The writer thread's loop: take the queue, write it, resume who waited; until closed.
    func run() {
        var batch: [AccessRecord] = []
        batch.reserveCapacity(capacity)
        // Drops whose report line a write error kept out of the file: reported with the next
        // batch, without waking the writer for it alone.
        var unreportedAfterFailure = 0
        while true {
            condition.lock()
            while pending.isEmpty && droppedUnreported == 0 && flushWaiters.isEmpty && !tally.isClosed {
                condition.wait()
            }
            swap(&batch, &pending)
            let droppedNow = droppedUnreported + unreportedAfterFailure
            droppedUnreported = 0
            let isClosing = tally.isClosed
            condition.broadcast()
            condition.unlock()

            var bytes: [UInt8] = []
            // Where each record's line ends in `bytes`.
            var lineEnds: [Int] = []
            if droppedNow > 0 {
                DecisionLine.appendDropReport(count: droppedNow, capacity: capacity, at: clock(), to: &bytes)
            }
            let reportEnd = bytes.count
            for record in batch {
                line.append(record, to: &bytes)
                lineEnds.append(bytes.count)
            }
            unreportedAfterFailure = 0
            let failure = bytes.isEmpty ? nil : file.append(bytes)
            if let failure, failure.kept < reportEnd { unreportedAfterFailure = droppedNow }

            condition.lock()
            finishedRecords += batch.count
            if let failure {
                // The records whose whole line is in the file are logged; the others are lost.
                tally.lost += batch.count - lineEnds.count(where: { $0 <= failure.kept })
                tally.lastError = failure.error
            }
            let done = finishedRecords
            let ready = flushWaiters.filter { $0.target <= done }
            flushWaiters.removeAll { $0.target <= done }
            let finishing = isClosing && pending.isEmpty && droppedUnreported == 0
            condition.unlock()
            batch.removeAll(keepingCapacity: true)

            if !ready.isEmpty || finishing {
                do {
                    try file.synchronize()
                } catch let failure {
                    condition.lock()
                    tally.lastError = failure
                    condition.unlock()
                }
            }
            for waiter in ready { waiter.continuation.resume() }
            if finishing {
                file.closeFile()
                condition.lock()
                finished = true
                let waiters = closeWaiters + flushWaiters.map(\.continuation)
                closeWaiters = []
                flushWaiters = []
                condition.unlock()
                for waiter in waiters { waiter.resume() }
                return
            }
        }
    }
}
