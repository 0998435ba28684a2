import Foundation
import GatehouseCore

/// Where a service's resources get their attributes (an owner, a tenant), named by its
/// `"resourceAttributes"`. Each name it provides is the resource's alone: before any gatekeeper,
/// the caller's value for that name is dropped, whether or not the resource has one. A throw
/// fails the gate, and so does an answer holding a name outside ``attributeNames()``. Register
/// your own with ``PluginRegistry/registerAttributeSource(_:settings:describe:factory:)``.
///
/// A loader that is itself an `AttributeSource` (the command's `sqlite` loader with attribute
/// columns) is its service's source: the service names no `"resourceAttributes"`, so the rows a
/// listing selects and the values each decision reads are the same.
public protocol AttributeSource: Sendable {
    /// The names this source provides, known before any resource is read (declared, or read from
    /// the source as a whole), never guessed from one resource's answer. The default,
    /// `ResourceAttributeNames/every`, fails closed: no attribute of the caller reaches a
    /// gatekeeper. Asked at every decision and plan, so the names may change with the source.
    func attributeNames() async throws -> ResourceAttributeNames

    /// The attributes of `resource` (the request's resource text); empty when it has none.
    func attributes(of resource: String) async throws -> [String: String]
}

extension AttributeSource {
    /// Every name: no attribute of the caller reaches a gatekeeper. Declare the names your
    /// source provides to let the caller's other attributes through.
    public func attributeNames() async throws -> ResourceAttributeNames { .every }
}

extension AttributeSource {
    /// The source as a gate reads it: the names of the moment, then the resource's values.
    var resourceAttributes: ResourceAttributes<String> {
        ResourceAttributes(
            names: .every, current: { try await attributeNames() },
            read: { resource in
                let names = try await attributeNames()
                return (names, try await attributes(of: resource))
            })
    }
}
