import Testing

@testable import GatehouseCore

@Suite("LockedState")
struct LockedStateTests {
    @Test func concurrentChangesAreNeverLost() async {
        let counter = LockedState(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
                }
            }
        }
        #expect(counter.withLock { $0 } == 40_000)
    }

    @Test func theStateIsReleasedWithTheLock() {
        final class Tracked {}
        weak var tracked: Tracked?
        do {
            let state = LockedState(Tracked())
            tracked = state.withLock { $0 }
            #expect(tracked != nil)
        }
        #expect(tracked == nil)
    }
}
