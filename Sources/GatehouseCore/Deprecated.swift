// Names kept for code written against earlier editions.

extension AccessDenied {
    /// The name of the gatekeeper that did not allow.
    @available(*, deprecated, renamed: "gatekeeper")
    public var policy: String { gatekeeper }
}
