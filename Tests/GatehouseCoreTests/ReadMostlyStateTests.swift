import Dispatch
import Foundation
import Testing

@testable import GatehouseCore

@Suite("Read-mostly state")
struct ReadMostlyStateTests {
    @Test func aReadSeesTheLastChange() {
        let state = ReadMostlyState(["a": 1])
        #expect(state.value(for: "a") == 1)
        state.withWriteLock { $0["a"] = 2 }
        state.withWriteLock { $0["b"] = 3 }
        #expect(state.value(for: "a") == 2)
        #expect(state.value(for: "c") == nil)
        #expect(state.read { $0.count } == 2)
    }

    /// A writer keeps two entries equal; readers on every core check them in one read while it
    /// changes them, so a read that overlapped a change would see them differ.
    @Test func readsOnEveryCoreNeverSeeAHalfMadeChange() async {
        let state = ReadMostlyState(["left": 0, "right": 0])
        let changes = 5_000
        let torn = await withTaskGroup(of: Int.self) { group in
            group.addTask {
                for change in 1...changes {
                    state.withWriteLock { values in
                        values["left"] = change
                        values["right"] = change
                    }
                }
                return 0
            }
            for _ in 0..<4 {
                group.addTask {
                    var torn = 0
                    var last = 0
                    while last < changes {
                        let (left, right) = state.read { ($0["left"] ?? -1, $0["right"] ?? -2) }
                        if left != right || left < last { torn += 1 }
                        last = left
                        await Task.yield()
                    }
                    return torn
                }
            }
            return await group.reduce(0, +)
        }
        #expect(torn == 0)
        #expect(state.value(for: "left") == changes)
    }

    @Test func aChangeWaitsForTheReadInProgressAndTheNextReadSeesIt() {
        let state = ReadMostlyState(["value": 0])
        let log = LockedState<[String]>([])
        let readHolding = DispatchSemaphore(value: 0)
        let releaseRead = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        DispatchQueue.global().async(group: done) {
            state.read { values in
                readHolding.signal()
                releaseRead.wait()
                log.withLock { $0.append("read saw \(values["value"] ?? -1)") }
            }
        }
        readHolding.wait()
        DispatchQueue.global().async(group: done) {
            state.withWriteLock { $0["value"] = 1 }
            log.withLock { $0.append("changed") }
        }
        // The change cannot finish while the read holds its stripe.
        Thread.sleep(forTimeInterval: 0.05)
        #expect(log.withLock { $0 }.isEmpty)
        releaseRead.signal()
        done.wait()
        #expect(log.withLock { $0 } == ["read saw 0", "changed"])
        #expect(state.value(for: "value") == 1)
    }
}
