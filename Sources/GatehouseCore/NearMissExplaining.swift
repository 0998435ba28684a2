/// A gatekeeper that can say which of its rules nearly allowed a request it denies. Asked only by
/// ``AccessGate/decide(_:)``, never on a load: the answer may cost a scan of the rules.
package protocol NearMissExplaining: AccessPolicy {
    /// One line per near miss, nearest first; a throw gives none.
    func nearMisses(_ request: AccessRequest) async throws -> [String]
}
