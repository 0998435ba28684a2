import GatehouseCore

/// Listing a `String`-keyed ``MemoryLoader``: keys are paths whose folders are separated by `/`.
extension MemoryLoader: ResourceListing where Key == String {
    /// Every stored key under the folder `prefix`, recursively, sorted by UTF-8 bytes: the keys
    /// that begin with `prefix + "/"`, or every key when `prefix` is `""` (the root).
    ///
    /// The prefix is matched as text and never refused: `"docs/"` matches keys that begin with
    /// `docs//`, which a path-checked proxy refuses anyway. A prefix with no key under it lists
    /// nothing.
    public func keys(under prefix: String) async throws -> [String] {
        let folder = prefix.isEmpty ? "" : prefix + "/"
        let keys = storage.withLock { storage in
            storage.keys.filter { $0.utf8.starts(with: folder.utf8) }
        }
        return keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
