// Names kept for code written against earlier editions.

extension AccessDenied {
    /// The name of the gatekeeper that did not allow.
    @available(*, deprecated, renamed: "gatekeeper")
    public var policy: String { gatekeeper }

    /// Whether a gatekeeper failed (threw) rather than decided to deny.
    @available(*, deprecated, renamed: "isFailure")
    public var isGateFailure: Bool { isFailure }
}

extension AccessDenied.Kind {
    /// A gatekeeper failed (threw) and the call was denied to fail closed.
    @available(*, deprecated, renamed: "failed")
    public static var gateFailure: Self { .failed }
}
