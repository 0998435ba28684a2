import Foundation

/// One audit record: a gate's verdict for one request, or one shadow gatekeeper's answer, with
/// when, for which service, and under which request id.
public struct AccessRecord: Sendable, Hashable, Codable {
    /// The request decided.
    public var request: AccessRequest
    /// The explained verdict.
    public var verdict: AccessVerdict
    /// When the verdict was given, by the gate's clock.
    public var instant: Date
    /// The name of the service whose gate decided, if given.
    public var service: String?
    /// The same for the records of one call: its verdict and its shadow gatekeepers' answers.
    public var requestID: UUID
    /// Whether this is a shadow gatekeeper's answer: reported, never enforced.
    public var isShadow: Bool
    /// Whether the shadow gatekeeper was not asked (64 asks of its gate were in flight); the
    /// verdict is then a failure saying so.
    public var isDropped: Bool

    /// Creates a record of `verdict`.
    public init(
        request: AccessRequest,
        verdict: AccessVerdict,
        instant: Date,
        service: String? = nil,
        requestID: UUID = UUID(),
        isShadow: Bool = false,
        isDropped: Bool = false
    ) {
        self.request = request
        self.verdict = verdict
        self.instant = instant
        self.service = service
        self.requestID = requestID
        self.isShadow = isShadow
        self.isDropped = isDropped
    }

    /// Reads a record; one written before ``isDropped`` existed reads as not dropped.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        request = try container.decode(AccessRequest.self, forKey: .request)
        verdict = try container.decode(AccessVerdict.self, forKey: .verdict)
        instant = try container.decode(Date.self, forKey: .instant)
        service = try container.decodeIfPresent(String.self, forKey: .service)
        requestID = try container.decode(UUID.self, forKey: .requestID)
        isShadow = try container.decode(Bool.self, forKey: .isShadow)
        isDropped = try container.decodeIfPresent(Bool.self, forKey: .isDropped) ?? false
    }

    /// The outcome as a plain decision: ``AccessDecision/allow`` or a denial with its reason.
    public var decision: AccessDecision { verdict.decision }
    /// The deciding gatekeeper.
    public var gatekeeper: String { verdict.gatekeeper }
}
