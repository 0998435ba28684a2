import Foundation

/// Why a ``RemotePolicy`` could not decide. The gate fails closed: no combinator turns it into an
/// allow. The description shows the URL ``RemotePolicy/redacted(_:)``.
public struct RemotePolicyError: Error, Sendable, Hashable, LocalizedError, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The connection could not be made or broke; the text is the system's.
        case transport(String)
        /// No complete answer arrived within the timeout, measured from the call.
        case timedOut(Duration)
        /// The service answered with a status other than 2xx; `body` is the start of its body.
        case status(Int, body: String)
        /// The answer's body was larger than the policy accepts.
        case tooLarge(limit: Int)
        /// The body was not JSON, or not JSON of the shape the protocol defines.
        case unexpectedBody(String)
        /// The request cannot be put to the service (AuthZEN needs a subject).
        case unaskable(String)
        /// The policy was configured with something it cannot use.
        case invalidConfiguration(String)
        /// A plan's search did not end within the plan's one deadline (``RemotePlanLimits/timeout``),
        /// all pages together; `gatekeeper` is the policy's name.
        case planTimedOut(gatekeeper: String, Duration)
        /// A plan's search went past a bound of the whole plan (ids or bytes across all pages);
        /// `bound` names it, such as `100000 ids (maxPlanIds)`.
        case planTooLarge(gatekeeper: String, bound: String)
    }

    /// The decision service's URL, as given.
    public var url: URL
    /// What went wrong.
    public var kind: Kind

    /// Creates the error.
    public init(url: URL, kind: Kind) {
        self.url = url
        self.kind = kind
    }

    /// One sentence naming the service and what went wrong.
    public var errorDescription: String? {
        let service = "the decision service \(RemotePolicy.redacted(url))"
        switch kind {
        case .transport(let text):
            return "\(service) could not be reached: \(text)"
        case .timedOut(let timeout):
            return "\(service) did not answer within \(Self.show(timeout))"
        case .status(let status, let body):
            var shown = body.isEmpty ? "" : " (\(body))"
            if (300..<400).contains(status) { shown += ", a redirect, which is not followed" }
            return "\(service) answered HTTP \(status)\(shown); a decision needs a 2xx status"
        case .tooLarge(let limit):
            return "\(service) sent an answer larger than \(limit) bytes (maxResponseBytes)"
        case .unexpectedBody(let text):
            return "\(service) sent an answer that is not a decision: \(text)"
        case .unaskable(let text):
            return "\(service) was not asked: \(text)"
        case .invalidConfiguration(let text):
            return "\(service) cannot be used: \(text)"
        case .planTimedOut(let gatekeeper, let timeout):
            return
                "\(service) did not finish the search for the plan of the gatekeeper \"\(Excerpt.text(gatekeeper, limit: 120))\" within \(Self.show(timeout)) (planTimeout, all pages together); the plan fails closed"
        case .planTooLarge(let gatekeeper, let bound):
            return
                "\(service) sent more for the plan of the gatekeeper \"\(Excerpt.text(gatekeeper, limit: 120))\" than the plan may hold: more than \(bound), all pages together; the plan fails closed"
        }
    }

    /// The same sentence as ``errorDescription``, so that printing the error shows no secret.
    public var description: String {
        errorDescription ?? "the decision service \(RemotePolicy.redacted(url)) failed"
    }

    /// `250 ms`, `2 s`, `1.5 s`.
    static func show(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        return "\(Double(milliseconds) / 1000) s"
    }
}
