/// Who is calling, carried with the task so that every load through a proxy knows it.
///
/// ```swift
/// let thumbnail = try await AccessContext.$current.withValue(AccessContext(subject: "alice")) {
///     try await avatars.load("avatars/alice.png")
/// }
/// ```
public struct AccessContext: Sendable, Hashable {
    /// The caller, or `nil` for the app itself or an anonymous caller.
    public var subject: String?
    /// Further facts about the caller, copied into every ``AccessRequest``.
    public var attributes: [String: String]

    /// Creates a context.
    public init(subject: String? = nil, attributes: [String: String] = [:]) {
        self.subject = subject
        self.attributes = attributes
    }

    /// The context of the current task; anonymous with no attributes unless bound with
    /// `AccessContext.$current.withValue(_:operation:)`.
    @TaskLocal public static var current = AccessContext()
}
