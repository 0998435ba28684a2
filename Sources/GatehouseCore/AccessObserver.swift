/// Receives one ``AccessRecord`` per decision, for audit logs and metrics.
///
/// Observing cannot change an outcome: the method neither throws nor returns anything, and it is
/// called after the decision is made. Keep it fast; it runs on the calling task.
public protocol AccessObserver: Sendable {
    /// Called once for every decision the proxy makes.
    func observe(_ record: AccessRecord)
}
