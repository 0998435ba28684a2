import Foundation

/// One line of progress on a terminal's standard error: shown after the console's delay,
/// rewritten in place at most ten times a second, erased when the work ends; without a terminal,
/// nothing.
final class Progress: @unchecked Sendable {
    private let write: (@Sendable (String) -> Void)?
    private let lock = NSLock()
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private let delay: Duration
    private var text: String
    private var shownAt: ContinuousClock.Instant?
    private var finished = false
    private var ticker: Task<Void, Never>?

    init(_ text: String, write: (@Sendable (String) -> Void)?, delay: Duration) {
        self.text = text
        self.write = write
        self.delay = delay
        start = clock.now
        guard write != nil else { return }
        if delay <= .zero {
            show(force: true)
        } else {
            // Work that never reports (one long parse) still shows after the delay.
            ticker = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(250))
                    guard let self else { return }
                    self.show(force: false)
                }
            }
        }
    }

    deinit {
        ticker?.cancel()
    }

    /// Replaces the text, shown at once if the delay has passed and the last showing is 0.1 s old.
    func update(_ text: String) {
        guard write != nil else { return }
        lock.withLock { self.text = text }
        show(force: false)
    }

    /// Erases the line, if it was shown; later calls do nothing.
    func finish() {
        ticker?.cancel()
        lock.withLock {
            guard !finished else { return }
            finished = true
            if shownAt != nil { write?("\r\u{1b}[K") }
        }
    }

    private func show(force: Bool) {
        lock.withLock {
            let now = clock.now
            guard !finished, let write else { return }
            guard force || (now - start >= delay && shownAt.map { now - $0 >= .milliseconds(100) } ?? true)
            else { return }
            shownAt = now
            write("\r\u{1b}[K\(text) (\((now - start).components.seconds) s)")
        }
    }
}
