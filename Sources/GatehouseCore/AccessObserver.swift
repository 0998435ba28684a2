/// Receives one ``AccessRecord`` per decision, for audit logs and metrics.
///
/// Observing cannot change an outcome: it is called after the decision, on the calling task, so
/// keep it fast.
public protocol AccessObserver: Sendable {
    /// Called once for every decision the proxy makes.
    func observe(_ record: AccessRecord)
}
