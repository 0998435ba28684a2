import Foundation
import Testing

@testable import GatehouseCommandLine

/// `store` reads its input up to its limit and one byte more, never to the end: an endless or
/// huge input costs at most the limit in memory (finding 10 of the third security round, where
/// 2 GB piped in reached 1.98 GB of memory before the 64 MiB limit failed it).
@Suite("store's input is read up to the limit")
struct StoreInputTests {
    /// An endless source that counts the bytes it handed out.
    final class EndlessSource {
        var handedOut = 0
        func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
            buffer.initializeMemory(as: UInt8.self, repeating: 0x41)
            handedOut += buffer.count
            return buffer.count
        }
    }

    @Test func anEndlessInputIsReadNoFurtherThanOneByteOverTheLimit() {
        let source = EndlessSource()
        let outcome = StoreInput.drain(limit: 1 << 20, source.read(into:))
        #expect(outcome == .overLimit)
        #expect(source.handedOut == (1 << 20) + 1)
    }

    @Test func anInputOfExactlyTheLimitIsReadWhole() {
        var left = 1 << 20
        let outcome = StoreInput.drain(limit: 1 << 20) { buffer in
            let count = min(left, buffer.count)
            buffer.prefix(count).initializeMemory(as: UInt8.self, repeating: 0x42)
            left -= count
            return count
        }
        #expect(outcome == .complete([UInt8](repeating: 0x42, count: 1 << 20)))
    }

    @Test func aReadErrorIsReportedWithItsCode() {
        let outcome = StoreInput.drain(limit: 10) { _ in
            errno = EIO
            return -1
        }
        #expect(outcome == .failed(EIO))
    }
}
