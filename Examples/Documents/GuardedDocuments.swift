import GatehouseCore

/// A protection proxy for a protocol of the app's own: it conforms to `DocumentStore`, asks an
/// `AccessGate` before every call with the action the method names, and forwards the call
/// unchanged only when the gate allows. A refused call throws `AccessDenied` and never reaches
/// the store.
///
/// The pattern, one method at a time: build the request (who, from `AccessContext`; what, the
/// method's action; which, the document), `authorize` it, then forward.
struct GuardedDocuments: DocumentStore {
    let base: any DocumentStore
    let gate: AccessGate

    func read(_ id: String) async throws -> String {
        try await gate.authorize(request("read", id))
        return try await base.read(id)
    }

    func save(_ text: String, to id: String, owner: String) async throws {
        try await gate.authorize(request("write", id))
        try await base.save(text, to: id, owner: owner)
    }

    func delete(_ id: String) async throws {
        try await gate.authorize(request("delete", id))
        try await base.delete(id)
    }

    func share(_ id: String, with user: String) async throws {
        try await gate.authorize(request("share", id, ["with": user]))
        try await base.share(id, with: user)
    }

    /// The folder is asked as `list`; then each document as `read`, and the ones that may not be
    /// read are left out, unseen (`AccessGate.permitted` keeps the order).
    func list(_ folder: String) async throws -> [String] {
        try await gate.authorize(request("list", folder))
        let ids = try await base.list(folder)
        var requests: [AccessRequest] = []
        for id in ids { requests.append(await request("read", id)) }
        return try await gate.permitted(requests).map(\.resource)
    }

    func owner(of id: String) async -> String? {
        await base.owner(of: id)
    }

    /// The request for `action` on `resource`, by the subject of the current `AccessContext`,
    /// with its attributes, the document's owner (`owner`, when it has one) and `extra`.
    private func request(_ action: AccessAction, _ resource: String, _ extra: [String: String] = [:]) async
        -> AccessRequest
    {
        let context = AccessContext.current
        var attributes = context.attributes.merging(extra) { _, new in new }
        if let owner = await base.owner(of: resource) { attributes["owner"] = owner }
        return AccessRequest(
            subject: context.subject, action: action, resource: resource, attributes: attributes)
    }
}
