import Foundation

/// Where a service's resources get their attributes (an owner, a tenant): asked before any
/// gatekeeper on every decision, its answer wins over the caller's attributes; a throw fails
/// the gate. Register your own with ``PluginRegistry/registerAttributeSource(_:settings:describe:factory:)``.
public protocol AttributeSource: Sendable {
    /// The attributes of `resource` (the request's resource text); empty when it has none.
    func attributes(of resource: String) async throws -> [String: String]
}
