/// A service that names the keys it holds under a folder.
///
/// **Prefixes.** A prefix names a folder, without a trailing slash: `"docs"` names the folder
/// `docs`, `"docs/2026"` the folder inside it, and `""` the root.
///
/// **What is listed.** ``keys(under:)`` returns every key under the folder, recursively
/// (`"docs"` lists `docs/a.txt` and `docs/2026/b.txt`, but not `docs` itself, `docsx/c.txt` or
/// keys beside the folder), each key whole (as `load` takes it, not relative to the folder),
/// each once, sorted (`String` keys by their UTF-8 bytes). So `keys(under: "")` lists every
/// key. Folders are not keys and are not listed.
///
/// ``AccessProxy`` conforms when its base does: it asks its gatekeepers for the action `"list"`
/// on the folder, then whether each listed key may be read, and returns only those; a key it
/// may not read is never seen.
public protocol ResourceListing<Key>: Sendable {
    /// The key that names a resource; the same as ``ResourceLoading/Key`` for a service that
    /// also loads.
    associatedtype Key: Sendable

    /// Every key under the folder `prefix` (`""` for the root), recursively, sorted.
    ///
    /// - Throws: The service's own error, such as when `prefix` names no folder it can list.
    func keys(under prefix: String) async throws -> [Key]
}
