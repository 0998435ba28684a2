import Foundation

/// Runs `body` on a thread of its own and waits for it without holding one of the concurrency
/// pool's threads: for a test that must block (on a semaphore, for a thread to finish) while the
/// other tests' tasks go on. The pool has one thread per core, and a test that blocks one of them
/// for seconds on a busy 2-core machine stalls every other test's task.
public func onAThreadOfItsOwn<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try body() })
        }
    }
}
