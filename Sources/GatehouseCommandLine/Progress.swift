import Foundation
import GatehouseCore

/// A line of progress on a terminal's standard error: shown after the delay, erased at the end.
final class Progress: Sendable {
    private struct State {
        var text: String
        var shownAt: ContinuousClock.Instant?
        var finished = false
        var ticker: Task<Void, Never>?
    }

    private let write: (@Sendable (String) -> Void)?
    private let start = ContinuousClock.now
    private let delay: Duration
    private let state: LockedState<State>

    init(_ text: String, write: (@Sendable (String) -> Void)?, delay: Duration) {
        self.write = write
        self.delay = delay
        state = LockedState(State(text: text))
        guard write != nil else { return }
        show()
        guard delay > .zero else { return }
        // Work that never reports (one long parse) still shows after the delay.
        let ticker = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(250))
                guard let self else { return }
                self.show()
            }
        }
        state.withLock { $0.ticker = ticker }
    }

    /// Replaces the text, shown at once if the delay has passed and the last showing is 0.1 s old.
    func update(_ text: String) {
        state.withLock { $0.text = text }
        show()
    }

    /// Erases the line, if it was shown; later calls do nothing.
    func finish() {
        state.withLock { state in
            state.ticker?.cancel()
            guard !state.finished else { return }
            state.finished = true
            if state.shownAt != nil { write?("\r\u{1b}[K") }
        }
    }

    private func show() {
        state.withLock { state in
            let now = ContinuousClock.now
            guard !state.finished, let write else { return }
            guard now - start >= delay, state.shownAt.map({ now - $0 >= .milliseconds(100) }) ?? true else {
                return
            }
            state.shownAt = now
            write("\r\u{1b}[K\(state.text) (\((now - start).components.seconds) s)")
        }
    }
}
