import Foundation

/// Where a service's resources get their attributes (an owner, a tenant): asked before any
/// gatekeeper on every decision about a resource, its answer merged into the request. A
/// resource's attribute wins over the caller's attribute of the same name; a throw fails the
/// gate. Named in a configuration by a service's `"resourceAttributes"`; register your own
/// with ``PluginRegistry/registerAttributeSource(_:settings:describe:factory:)``.
public protocol AttributeSource: Sendable {
    /// The attributes of `resource` (the request's resource text); empty when it has none.
    func attributes(of resource: String) async throws -> [String: String]
}
