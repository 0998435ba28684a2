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

    /// `LockedState` is `Sendable` exactly when its state is, as swift-nio's `NIOLockedValueBox`.
    /// The positive half compiles here; the negative half is a compile-time property that no
    /// running test can show. In Swift 6 mode this does not compile ("type 'Box' does not conform
    /// to the 'Sendable' protocol"):
    ///
    ///     final class Box { var count = 0 }
    ///     func share(_ state: LockedState<Box>) -> any Sendable { state }
    @Test func aLockOfSendableStateIsSendable() async {
        func shared<State: Sendable>(_ state: LockedState<State>) -> any Sendable { state }
        let counter = LockedState(0)
        let sent = shared(counter)
        await Task.detached { (sent as? LockedState<Int>)?.withLock { $0 += 1 } }.value
        #expect(counter.withLock { $0 } == 1)
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
