/// A gatekeeper that can say, for a request it denies, which of its rules nearly allowed it and
/// what failed for each ("why not").
///
/// The gate asks only when it explains a denial in full (``AccessGate/decide(_:)``), never on a
/// load, a listing or ``AccessGate/authorize(_:)``: the answer may cost a scan of the rules.
package protocol NearMissExplaining: AccessPolicy {
    /// One line per near miss, nearest first, at most a handful; empty when there is none.
    ///
    /// - Throws: When the gatekeeper cannot read its rules; the gate then gives no near misses.
    func nearMisses(_ request: AccessRequest) async throws -> [String]
}
