import Foundation
import GatehouseAudit
import GatehouseCore

/// `decision-log-100k`: 100,000 records observed by 8 tasks into a fresh `DecisionLog` (capacity
/// 10,000, `.wait`, so every line is written), timed from the first record to `close()`
/// returning: the file written and synchronized. Reported per line, with lines per second; no
/// target.
func decisionLogCase(_ f: Fixtures) -> BenchCase {
    let records = (0..<1024).map { (index: Int) -> AccessRecord in
        let denied = index % 4 == 0
        let instant = Date(timeIntervalSince1970: 1_796_132_700 + Double(index) / 1000)
        return AccessRecord(
            request: AccessRequest(
                subject: "user-\(index)", action: "read", resource: "avatars/user-\(index)/photo.png",
                attributes: ["device": "managed", "token": "secret-\(index)"]),
            verdict: AccessVerdict(
                outcome: denied ? .denied : .allowed, gatekeeper: "rules",
                reason: denied ? "no rule allows" : nil,
                rule: RuleReference(source: "avatars.rules", line: index % 100 + 1)),
            instant: instant, service: "avatars")
    }
    return BenchCase(
        "decision-log-100k", "DecisionLog: one line of 100,000 observed by 8 tasks, to close()",
        iterations: 100_000, quick: 10_000
    ) { [scratch = f.scratch] n in
        let url = scratch.url("decisions-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        let log = try DecisionLog(url: url, mask: ["token"], capacity: 10_000, overflow: .wait)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in stride(from: task, to: n, by: 8) { log.observe(records[index & 1023]) }
                }
            }
        }
        await log.close()
        return log.acceptedCount - log.lostCount
    }
}
