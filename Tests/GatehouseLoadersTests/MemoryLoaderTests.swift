import GatehouseCore
import GatehouseLoaders
import Testing

@Suite("MemoryLoader")
struct MemoryLoaderTests {
    @Test func loadsWhatWasStored() async throws {
        let loader = MemoryLoader(["a": 1, "b": 2])
        #expect(try await loader.load("a") == 1)
        #expect(try await loader.load("b") == 2)
    }

    @Test func aMissingKeyThrowsNotFoundNamingTheKey() async throws {
        let loader = MemoryLoader<String, Int>()
        let error = await #expect(throws: ResourceNotFound.self) { try await loader.load("avatars/x") }
        #expect(error == ResourceNotFound(key: "avatars/x"))
        #expect(error?.errorDescription == "no resource for key \"avatars/x\"")
    }

    @Test func updatesAndRemovalsTakeEffectWhileInUse() async throws {
        let loader = MemoryLoader<String, Int>()
        #expect(loader.updateValue(3, forKey: "c") == nil)
        #expect(try await loader.load("c") == 3)
        #expect(loader.updateValue(4, forKey: "c") == 3)
        #expect(try await loader.load("c") == 4)
        #expect(loader.removeValue(forKey: "c") == 4)
        await #expect(throws: ResourceNotFound.self) { try await loader.load("c") }
        #expect(loader.count == 0)
    }

    @Test func concurrentUpdatesAndLoadsNeverSeeATornState() async throws {
        let loader = MemoryLoader<Int, [Int]>()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for i in 0..<500 {
                        loader.updateValue(Array(repeating: writer, count: i % 8 + 1), forKey: i % 16)
                    }
                }
            }
            for _ in 0..<4 {
                group.addTask {
                    for i in 0..<500 {
                        if let value = try? await loader.load(i % 16) {
                            #expect(Set(value).count == 1)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(loader.count == 16)
    }
}
