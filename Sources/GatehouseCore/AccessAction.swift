/// What a request asks to do: `.read`, `.write`, `.delete`, `.list`, a string literal
/// (`"share"`), or `AccessAction(rawValue:)` for text in a variable.
public struct AccessAction: Sendable, Hashable, Codable, RawRepresentable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The action's text, as rules files and decision services spell it.
    public let rawValue: String

    /// The action named `rawValue`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The action a string literal names: `"share"`.
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// The action's text.
    public var description: String { rawValue }

    /// Loading a resource: what ``AccessProxy/load(_:)`` asks by default.
    public static let read: AccessAction = "read"
    /// Storing a resource: what ``AccessProxy/store(_:for:)`` asks.
    public static let write: AccessAction = "write"
    /// Removing a resource: what ``AccessProxy/remove(_:)`` asks.
    public static let delete: AccessAction = "delete"
    /// Listing a folder: what ``AccessProxy/keys(under:)`` asks about the folder.
    public static let list: AccessAction = "list"
}
