/// The bounds of one plan of a ``RemotePolicy``: all the pages of one AuthZEN resource search
/// together must end within ``timeout`` and hold at most ``maxIds`` ids in at most ``maxBytes``
/// bytes of answers. Past any of them the plan fails closed (a part that permits nothing), with a
/// ``RemotePolicyError`` naming the gatekeeper and the bound. Each page is also held to the
/// policy's own `timeout` and `maxResponseBytes`.
public struct RemotePlanLimits: Sendable, Hashable {
    /// The default deadline of a whole plan: ten seconds.
    public static let defaultTimeout = Duration.seconds(10)
    /// The default bound on the ids of a whole plan: 100,000.
    public static let defaultMaxIds = 100_000
    /// The default bound on the bytes of a whole plan's answers: 16 MiB.
    public static let defaultMaxBytes = 16 << 20

    /// The one deadline of a plan, from its first request to the end of its last page.
    public var timeout: Duration
    /// The most resource ids a plan may hold, all pages together.
    public var maxIds: Int
    /// The most bytes of answers a plan may read, all pages together.
    public var maxBytes: Int

    /// Creates the bounds; the defaults are ten seconds, 100,000 ids and 16 MiB.
    public init(
        timeout: Duration = defaultTimeout, maxIds: Int = defaultMaxIds, maxBytes: Int = defaultMaxBytes
    ) {
        self.timeout = timeout
        self.maxIds = maxIds
        self.maxBytes = maxBytes
    }

    /// What is wrong with these bounds, or `nil` when they can be used.
    var problem: String? {
        guard timeout > .zero else { return "the plan timeout (planTimeout) must be positive" }
        guard maxIds > 0 else { return "maxPlanIds must be positive" }
        guard maxBytes > 0 else { return "maxPlanBytes must be positive" }
        return nil
    }
}
