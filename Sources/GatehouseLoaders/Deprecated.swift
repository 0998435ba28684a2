// Earlier spellings of GatehouseLoaders' API, kept so that code written against them still
// compiles. Each forwards to its new name.

extension MemoryLoader {
    /// Stores `resource` for `key`, replacing what was there.
    @available(*, deprecated, renamed: "updateValue(_:forKey:)")
    public func set(_ resource: Resource, for key: Key) {
        updateValue(resource, forKey: key)
    }

    /// Removes what is stored for `key` and returns it, if anything was.
    @available(*, deprecated, renamed: "removeValue(forKey:)")
    @discardableResult
    public func remove(_ key: Key) -> Resource? {
        removeValue(forKey: key)
    }
}
