/// The shadow asks of one gate that are in flight: at most a limit at once, and the callers of
/// ``AccessGate/waitForShadowAnswers()`` waiting for some of them to end. Shared by every copy
/// of the gate; not API.
final class ShadowAsks: Sendable {
    /// The most asks in flight at once.
    let limit: Int

    private struct State {
        /// The ticket of each ask in flight.
        var inFlight: Set<Int> = []
        /// The ticket the next ask gets; tickets grow with time.
        var nextTicket = 0
        /// Callers waiting until no ask with a ticket below `target` is in flight.
        var waiters: [(target: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = LockedState(State())

    init(limit: Int) {
        self.limit = limit
    }

    /// Starts an ask: its ticket, or `nil` when `limit` asks are in flight (the ask is dropped).
    func begin() -> Int? {
        state.withLock { state in
            guard state.inFlight.count < limit else { return nil }
            let ticket = state.nextTicket
            state.nextTicket += 1
            state.inFlight.insert(ticket)
            return ticket
        }
    }

    /// Ends the ask of `ticket`, and resumes the waiters it was the last one for.
    func end(_ ticket: Int) {
        let ready = state.withLock { state in
            state.inFlight.remove(ticket)
            let oldest = state.inFlight.min() ?? state.nextTicket
            let ready = state.waiters.filter { $0.target <= oldest }
            state.waiters.removeAll { $0.target <= oldest }
            return ready
        }
        for waiter in ready { waiter.continuation.resume() }
    }

    /// Returns when every ask begun before the call has ended.
    func waitForThoseInFlight() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waits = state.withLock { state in
                let target = state.nextTicket
                guard let oldest = state.inFlight.min(), oldest < target else { return false }
                state.waiters.append((target, continuation))
                return true
            }
            if !waits { continuation.resume() }
        }
    }
}
