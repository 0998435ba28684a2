import Foundation
import GatehouseCore

/// What one call did in an ``Arrangement``: whether the gate was asked, whether the real loader
/// was reached, and what the caller got.
struct CallTrace: Sendable {
    /// What the caller got.
    enum Outcome: Sendable {
        case served(Data)
        case denied(AccessDenied)
        case failed(String)
    }

    /// Whether the gate decided this call.
    var gateAsked: Bool
    /// Whether this call reached the real loader.
    var loaderCalled: Bool
    /// The calls the real loader has seen so far, this one included.
    var loaderCalls: Int
    /// What the caller got.
    var outcome: Outcome

    /// Whether the caller got the resource.
    var wasServed: Bool {
        if case .served = outcome { return true }
        return false
    }
}
