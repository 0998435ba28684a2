import Foundation

/// Text for an error in a denial or a message: its `errorDescription` when it is a
/// `LocalizedError`, otherwise `String(describing:)`.
package func describe(_ error: any Error) -> String {
    if let localized = error as? any LocalizedError, let description = localized.errorDescription {
        return description
    }
    return String(describing: error)
}
