import Foundation

/// An error's `errorDescription` when it has one, otherwise `String(describing:)`.
package func describe(_ error: any Error) -> String {
    if let localized = error as? any LocalizedError, let description = localized.errorDescription {
        return description
    }
    return String(describing: error)
}
