/// A decision in JSON: `{"effect": "allow"}` or `{"effect": "deny", "reason": "..."}`.
extension AccessDecision: Codable {
    private enum CodingKeys: String, CodingKey {
        case effect, reason
    }

    /// Reads `{"effect": "allow"}` or `{"effect": "deny", "reason": "..."}`.
    ///
    /// - Throws: `DecodingError` for another effect, or a denial without a reason.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let effect = try container.decode(String.self, forKey: .effect)
        switch effect {
        case "allow":
            self = .allow
        case "deny":
            self = .deny(reason: try container.decode(String.self, forKey: .reason))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .effect, in: container,
                debugDescription: "expected \"allow\" or \"deny\", found \"\(effect)\"")
        }
    }

    /// Writes `{"effect": "allow"}` or `{"effect": "deny", "reason": "..."}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .allow:
            try container.encode("allow", forKey: .effect)
        case .deny(let reason):
            try container.encode("deny", forKey: .effect)
            try container.encode(reason, forKey: .reason)
        }
    }
}
