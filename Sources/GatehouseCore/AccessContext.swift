/// Who is calling, carried with the task so that every call through a gate knows it.
///
/// ```swift
/// let plan = try await AccessContext.with(subject: "alice", attributes: ["tenant": "acme"]) {
///     try await documents.load("tenants/acme/plan.txt")
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
    /// ``with(subject:attributes:operation:isolation:)``.
    @TaskLocal public static var current = AccessContext()

    /// Runs `operation` in the current context with `attributes` merged in (a name given here
    /// wins) and `subject`, if given, replacing the enclosing one; tasks it starts inherit them.
    public static func with<Result>(
        subject: String? = nil,
        attributes: [String: String] = [:],
        operation: () async throws -> Result,
        isolation: isolated (any Actor)? = #isolation
    ) async rethrows -> Result {
        var context = current
        if let subject { context.subject = subject }
        context.attributes.merge(attributes) { _, inner in inner }
        return try await $current.withValue(context, operation: operation)
    }

    /// Runs `operation` with no subject (the app itself, or an anonymous caller) and `attributes`
    /// merged into the current ones, as ``with(subject:attributes:operation:isolation:)`` does:
    /// the way back to anonymous from inside a caller's context.
    public static func withoutSubject<Result>(
        attributes: [String: String] = [:],
        operation: () async throws -> Result,
        isolation: isolated (any Actor)? = #isolation
    ) async rethrows -> Result {
        var context = current
        context.subject = nil
        context.attributes.merge(attributes) { _, inner in inner }
        return try await $current.withValue(context, operation: operation)
    }
}
