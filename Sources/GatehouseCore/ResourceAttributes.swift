/// The attributes a service takes from its resources (an owner, a tenant): which names, and how
/// to read them for one resource. Each name it takes is the resource's alone: before any
/// gatekeeper, the caller's value for it is dropped, whether or not the resource has one, and a
/// value the resource lacks stays missing. A read that throws fails the gate (`(attributes)`).
///
/// ```swift
/// let owners = ResourceAttributes<String>(["owner"]) { key in
///     ["owner": try await catalog.owner(of: key)]
/// }
/// let documents = store.guarded(by: rules, attributes: owners)
/// ```
public struct ResourceAttributes<Key: Sendable>: Sendable {
    /// The names the resources supply, as declared when it was made; ``ResourceAttributeNames/every``
    /// for a source whose names are known only as it is read (a configuration's file), which the
    /// gate asks for the names of the moment at each decision and plan.
    public let names: ResourceAttributeNames
    /// One resource's attributes, with the names taken at that moment.
    let read: @Sendable (Key) async throws -> (names: ResourceAttributeNames, values: [String: String])
    /// The names taken now, for a plan.
    let currentNames: @Sendable () async throws -> ResourceAttributeNames

    /// Attributes named `names`, read by `read`. A read that answers a name outside `names`
    /// fails the gate: the declaration is what keeps the caller out.
    public init(_ names: Set<String>, read: @escaping @Sendable (Key) async throws -> [String: String]) {
        let declared = ResourceAttributeNames.only(names)
        self.init(names: declared, current: { declared }, read: { key in (declared, try await read(key)) })
    }

    /// Attributes read by `read`, whose names are not declared: every name is then the
    /// resource's, and no attribute of the caller reaches a gatekeeper.
    public init(everyName read: @escaping @Sendable (Key) async throws -> [String: String]) {
        self.init(names: .every, current: { .every }, read: { key in (.every, try await read(key)) })
    }

    /// Attributes whose names may change with the source (a file that is edited): `current`
    /// gives the names taken now, `read` a resource's values with the names of the same moment.
    package init(
        names: ResourceAttributeNames,
        current: @escaping @Sendable () async throws -> ResourceAttributeNames,
        read:
            @escaping @Sendable (Key) async throws -> (
                names: ResourceAttributeNames, values: [String: String]
            )
    ) {
        self.names = names
        self.currentNames = current
        self.read = read
    }

    /// The source for another kind of key, converted by `key`.
    package func keyed<Other: Sendable>(by key: @escaping @Sendable (Other) -> Key) -> ResourceAttributes<
        Other
    > {
        ResourceAttributes<Other>(names: names, current: currentNames) { [read] in try await read(key($0)) }
    }
}

extension ResourceAttributes {
    /// The source for the gate of a proxy that reads it by key: the same names, for a plan or a
    /// decision asked of the gate directly, which drop the caller's values under them; a
    /// decision asked of the gate directly fails, since only the proxy can read a key's values.
    var readByItsProxy: ResourceAttributes<String> {
        ResourceAttributes<String>(names: names, current: currentNames) { _ in throw ReadByItsProxy() }
    }
}

/// A resource's attributes asked of a proxy's gate directly, which has no key to read them by.
struct ReadByItsProxy: Error, CustomStringConvertible {
    var description: String {
        "the resource's attributes are read by key through its AccessProxy; ask the proxy "
            + "(decide(_:), load(_:)), or give the gate a ResourceAttributes<String> of its own"
    }
}

/// Which attribute names a service takes from its resources rather than from its callers.
public enum ResourceAttributeNames: Sendable, Hashable {
    /// These names, and no other.
    case only(Set<String>)
    /// Every name: no attribute comes from the caller.
    case every

    /// None: every attribute is the caller's.
    public static let none = ResourceAttributeNames.only([])

    /// Whether `name` is the resource's.
    public func contains(_ name: String) -> Bool {
        switch self {
        case .only(let names): names.contains(name)
        case .every: true
        }
    }
}

/// A resource's attribute outside the names its service declares: the gate fails rather than
/// guess whose the value is.
struct UndeclaredResourceAttribute: Error, CustomStringConvertible {
    let name: String
    let declared: Set<String>

    var description: String {
        let names = declared.isEmpty ? "none" : declared.sorted().joined(separator: ", ")
        return "the resource's attributes hold \(name), which is not among the names its service "
            + "takes from its resources (\(names)); declare it"
    }
}

extension AccessRequest {
    /// The request with a resource's attributes: each name of `names` is the resource's alone
    /// (the caller's value dropped), and every other attribute stays the caller's.
    ///
    /// - Throws: ``UndeclaredResourceAttribute`` when `values` holds a name outside `names`.
    func withResourceAttributes(_ values: [String: String], names: ResourceAttributeNames) throws
        -> AccessRequest
    {
        var request = self
        switch names {
        case .every:
            request.attributes = values
        case .only(let declared):
            if let stray = values.keys.sorted().first(where: { !declared.contains($0) }) {
                throw UndeclaredResourceAttribute(name: stray, declared: declared)
            }
            for name in declared { request.attributes[name] = values[name] }
        }
        request.resourceAttributeNames = names
        return request
    }
}
