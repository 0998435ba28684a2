import GatehouseCore
import GatehouseLoaders
import Testing

@Suite("MemoryLoader: store, remove, list")
struct MemoryLoaderStoringTests {
    @Test func aStoredResourceIsWhatTheNextLoadReturns() async throws {
        let loader = MemoryLoader<String, Int>()
        try await loader.store(1, for: "a")
        #expect(try await loader.load("a") == 1)
        try await loader.store(2, for: "a")
        #expect(try await loader.load("a") == 2)
    }

    @Test func anAwaitedRemoveRemovesTheKeyAndThrowsNotFoundForAMissingOne() async throws {
        let loader = MemoryLoader(["a": 1])
        try await loader.remove("a")
        await #expect(throws: ResourceNotFound.self) { try await loader.load("a") }
        let error = await #expect(throws: ResourceNotFound.self) { try await loader.remove("a") }
        #expect(error == ResourceNotFound(key: "a"))
    }

    @Test func theSynchronousRemovalReturnsTheOldValue() async throws {
        let loader = MemoryLoader(["a": 1, "b": 2])
        #expect(loader.removeValue(forKey: "a") == 1)
        let old = loader.removeValue(forKey: "b")
        #expect(old == 2)
        #expect(loader.removeValue(forKey: "c") == nil)
        #expect(loader.count == 0)
    }

    @Test func throughTheProtocolsTheLoaderStoresRemovesAndLists() async throws {
        func exercise(_ store: some ResourceStoring<String, Int> & ResourceListing<String>) async throws
            -> [String]
        {
            try await store.store(1, for: "docs/a")
            try await store.store(2, for: "docs/b")
            try await store.remove("docs/a")
            return try await store.keys(under: "docs")
        }
        #expect(try await exercise(MemoryLoader<String, Int>()) == ["docs/b"])
    }

    @Test func aListingIsRecursiveSortedAndStaysInsideTheFolder() async throws {
        let loader = MemoryLoader([
            "docs/b": 1, "docs/a": 2, "docs/2026/c": 3, "docsx/d": 4, "docs": 5, "other/e": 6,
        ])
        #expect(try await loader.keys(under: "docs") == ["docs/2026/c", "docs/a", "docs/b"])
        #expect(try await loader.keys(under: "docs/2026") == ["docs/2026/c"])
        #expect(try await loader.keys(under: "nothing") == [])
    }

    @Test func theEmptyPrefixListsEveryKeyInUTF8ByteOrder() async throws {
        let loader = MemoryLoader(["é": 1, "b": 2, "B": 3, "a/z": 4])
        #expect(try await loader.keys(under: "") == ["B", "a/z", "b", "é"])
    }
}
