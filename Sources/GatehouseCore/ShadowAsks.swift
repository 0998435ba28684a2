/// The shadow asks of one gate (and its copies) in flight, at most `limit`, and their waiters.
final class ShadowAsks: Sendable {
    let limit: Int

    private struct State {
        var inFlight: Set<Int> = []
        /// Tickets grow with time.
        var nextTicket = 0
        /// Callers waiting until no ask with a ticket below `target` is in flight.
        var waiters: [(target: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = LockedState(State())

    init(limit: Int) {
        self.limit = limit
    }

    /// The new ask's ticket, or `nil` when `limit` asks are in flight.
    func begin() -> Int? {
        state.withLock { state in
            guard state.inFlight.count < limit else { return nil }
            let ticket = state.nextTicket
            state.nextTicket += 1
            state.inFlight.insert(ticket)
            return ticket
        }
    }

    /// Ends an ask and resumes the waiters it was the last one for.
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
