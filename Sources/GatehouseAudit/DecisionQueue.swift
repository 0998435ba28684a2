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
    private var accepted = 0
    private var dropped = 0
    private var droppedUnreported = 0
    private var finishedRecords = 0
    private var lost = 0
    private var lastError: DecisionLogError?
    private var closing = false
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
        var accepted: Int
        var dropped: Int
        var lost: Int
        var lastError: DecisionLogError?
        var isClosed: Bool
    }

    var counts: Counts {
        condition.lock()
        defer { condition.unlock() }
        return Counts(
            accepted: accepted, dropped: dropped, lost: lost, lastError: lastError, isClosed: closing)
    }

    /// Queues `record`; when the queue is full, drops and counts it, or waits for room.
    func accept(_ record: AccessRecord) {
        condition.lock()
        defer { condition.unlock() }
        while !closing && pending.count >= capacity {
            if overflow == .drop {
                dropped += 1
                droppedUnreported += 1
                return
            }
            condition.wait()
        }
        if closing {
            // Closed (or closed while this caller waited for room): nothing can be written.
            dropped += 1
            return
        }
        pending.append(record)
        accepted += 1
        if pending.count == 1 { condition.broadcast() }
    }

    func flush() async {
        await waitForWriter(closing: false)
    }

    func close() async {
        await waitForWriter(closing: true)
    }

    private func waitForWriter(closing: Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            condition.lock()
            defer { condition.unlock() }
            if finished {
                continuation.resume()
                return
            }
            if closing {
                self.closing = true
                closeWaiters.append(continuation)
            } else {
                flushWaiters.append((accepted, continuation))
            }
            condition.broadcast()
        }
    }

    /// Stops accepting without waiting; the writer still writes what was accepted.
    func beginClosing() {
        condition.lock()
        closing = true
        condition.broadcast()
        condition.unlock()
    }

    /// The writer thread's loop: take the queue, write it, resume who waited; until closed.
    func run() {
        var batch: [AccessRecord] = []
        batch.reserveCapacity(capacity)
        var bytes: [UInt8] = []
        // Where each record's line ends in `bytes`.
        var lineEnds: [Int] = []
        // Drops whose report line a write error kept out of the file: reported with the next
        // batch, without waking the writer for it alone.
        var unreportedAfterFailure = 0
        while true {
            condition.lock()
            while pending.isEmpty && droppedUnreported == 0 && flushWaiters.isEmpty && !closing {
                condition.wait()
            }
            swap(&batch, &pending)
            let droppedNow = droppedUnreported + unreportedAfterFailure
            droppedUnreported = 0
            let isClosing = closing
            condition.broadcast()
            condition.unlock()

            bytes.removeAll(keepingCapacity: true)
            lineEnds.removeAll(keepingCapacity: true)
            if droppedNow > 0 {
                DecisionLine.appendDropReport(count: droppedNow, capacity: capacity, at: clock(), to: &bytes)
            }
            let reportEnd = bytes.count
            for record in batch {
                line.append(record, to: &bytes)
                lineEnds.append(bytes.count)
            }
            unreportedAfterFailure = 0
            var failure: AppendOnlyFile.Failure?
            if !bytes.isEmpty {
                do {
                    try file.append(bytes)
                } catch let failed {
                    failure = failed
                }
            }
            if let failure, failure.kept < reportEnd { unreportedAfterFailure = droppedNow }

            condition.lock()
            finishedRecords += batch.count
            if let failure {
                // The records whose whole line is in the file are logged; the others are lost.
                lost += batch.count - lineEnds.count(where: { $0 <= failure.kept })
                lastError = failure.error
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
                    record(failure)
                }
            }
            for waiter in ready { waiter.continuation.resume() }
            if finishing {
                file.close()
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

    private func record(_ error: DecisionLogError) {
        condition.lock()
        lastError = error
        condition.unlock()
    }
}
