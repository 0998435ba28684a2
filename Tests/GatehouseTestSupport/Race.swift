import Foundation
import GatehouseCore

/// How a race run by ``race(flipping:attempts:until:)`` ended.
public struct RaceOutcome: Sendable {
    /// Whether the flipper's system call failed, which ended the race early.
    public var flipperFailed: Bool
    /// How many attempts the calling task made.
    public var attempts: Int
}

/// Runs a race between a flipper and the calling task, for tests of time-of-check to
/// time-of-use attacks (a file swapped for a link, a folder for a link, a file for a fifo).
///
/// `flip(round)` runs over and over on a thread of its own, never on the concurrency pool, and
/// returns `false` when its system call failed. Meanwhile `attempt(number)` runs on the calling
/// task until it returns `true` (it has seen enough of both states), `attempts` attempts were
/// made, or the flipper failed; the task yields every 64 attempts. The flipper is stopped and
/// waited for before this returns.
public func race(
    flipping flip: @escaping @Sendable (_ round: Int) -> Bool,
    attempts: Int = 200_000,
    until attempt: (_ number: Int) async throws -> Bool
) async rethrows -> RaceOutcome {
    let state = LockedState<(stop: Bool, stopped: Bool, failed: Bool)>((false, false, false))
    Thread {
        var round = 0
        var failed = false
        while !failed && !state.withLock({ $0.stop }) {
            failed = !flip(round)
            round += 1
        }
        state.withLock { $0 = (true, true, failed) }
    }.start()
    var made = 0
    do {
        while made < attempts && !state.withLock({ $0.failed }) {
            let done = try await attempt(made)
            made += 1
            if done { break }
            if made % 64 == 0 { await Task.yield() }
        }
    } catch {
        await stop(state)
        throw error
    }
    await stop(state)
    return RaceOutcome(flipperFailed: state.withLock { $0.failed }, attempts: made)
}

/// Asks the flipper to stop and waits until it has.
private func stop(_ state: LockedState<(stop: Bool, stopped: Bool, failed: Bool)>) async {
    state.withLock { $0.stop = true }
    while !state.withLock({ $0.stopped }) { await Task.yield() }
}
