import Foundation
import GatehouseCore

/// What one call did in an ``Arrangement``: which layers it reached and what the caller got.
struct CallTrace: Sendable {
    /// What the caller got.
    enum Outcome: Sendable, Equatable {
        /// The resource, with these bytes.
        case served(Data)
        /// `AccessDenied`, from the gate with this name.
        case denied(gate: String)
        /// Any other error, described.
        case failed(String)
    }

    /// Whether the gate decided this call.
    var gateAsked: Bool
    /// Whether this call passed through the call log.
    var logReached: Bool
    /// Whether this call reached the real loader.
    var loaderReached: Bool
    /// What the caller got.
    var outcome: Outcome

    /// Whether the caller got the resource.
    var wasServed: Bool {
        if case .served = outcome { return true }
        return false
    }

    /// Whether the caller got `AccessDenied`.
    var wasDenied: Bool {
        if case .denied = outcome { return true }
        return false
    }
}
