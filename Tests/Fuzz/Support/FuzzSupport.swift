import Foundation

/// Reads typed values off the front of a fuzzer's input; past the end every read returns zero.
struct FuzzInput {
    private let bytes: [UInt8]
    private var position = 0

    init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { position >= bytes.count }

    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func integer<T: FixedWidthInteger>(_ type: T.Type = T.self) -> T {
        var value: T = 0
        for _ in 0..<MemoryLayout<T>.size {
            value = value << 8 | T(truncatingIfNeeded: byte())
        }
        return value
    }

    /// Up to `count` bytes (fewer at the end).
    mutating func bytes(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, position + max(0, count))
        defer { position = end }
        return Array(bytes[position..<end])
    }

    /// Every byte not read yet.
    mutating func rest() -> [UInt8] {
        bytes(bytes.count - position)
    }
}

/// Stops the fuzzer with `message` when `condition` is false: a property of the target failed.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
        fatalError("fuzz property failed: \(message())")
    }
}

/// Runs `body` on the concurrency pool and waits for it on the calling (fuzzer) thread.
func blocking<Result: Sendable>(_ body: @escaping @Sendable () async -> Result) -> Result {
    let box = ResultBox<Result>()
    let done = DispatchSemaphore(value: 0)
    Task {
        box.value = await body()
        done.signal()
    }
    done.wait()
    return box.value!
}

/// Carries one result from the task to the waiting thread; the semaphore orders the accesses.
private final class ResultBox<Value>: @unchecked Sendable {
    var value: Value?
}
