import GatehouseCore
import GatehouseTestSupport
import Testing

@testable import GatehousePolicies

/// The symbolic invariant check against brute force: random seeded rules files (groups,
/// placeholders, conditions, denies, wildcards) and invariants; every request of a universe built
/// from the patterns' own literals and fresh names is decided, and the two must agree: a breach
/// the oracle finds is found, and every breach reported is a request the rules allow and the
/// invariant forbids.
@Suite("Invariants against a brute-force oracle")
struct InvariantOracleTests {
    static let ruleSubjects = ["*", "*", "alice", "bob", "secrets", "a*", "@staff"]
    static let ruleActions = ["read", "read", "write", "*", "r*"]
    static let ruleResources = [
        "secrets/*", "docs/*", "{subject}/*", "docs/{tenant}/*", "*", "secrets/a", "*/a", "{tenant}/*",
        "docs/a", "a*",
    ]
    static let ruleConditions = ["", "", "", " if tenant=acme", " if owner={subject}", " if tenant=docs"]
    static let invariantSubjects = ["*", "*", "alice", "secrets", "a*", "bob"]
    static let invariantActions = ["read", "*", "write", "r*"]
    static let invariantResources = ["secrets/*", "docs/a", "*/a", "*", "docs/*", "acme/*", "a*"]
    static let invariantExceptions = ["", "", " except alice", " except bob secrets"]

    // The universe: each literal of the patterns and fresh names.
    static let subjects: [String?] = [nil, "alice", "bob", "secrets", "docs", "acme", "a", "zed"]
    static let actions = ["read", "write", "rx", "zap"]
    static let components = ["secrets", "docs", "a", "acme", "alice", "zed"]
    static let resources = components + components.flatMap { first in components.map { first + "/" + $0 } }
    static let tenants: [String?] = [nil, "acme", "secrets", "docs", "a"]
    static let owners: [String?] = [nil, "alice", "secrets", "bob"]

    static func pick<T>(_ values: [T], _ random: inout SplitMix64) -> T {
        values[Int(random.next() % UInt64(values.count))]
    }

    static func rulesText(_ random: inout SplitMix64) -> String {
        var lines = ["group staff alice", "group staff \(pick(["secrets", "bob", "docs"], &random))"]
        for _ in 0..<(2 + Int(random.next() % 5)) {
            let effect = random.next() % 3 == 0 ? "deny" : "allow"
            lines.append(
                "\(effect) \(pick(ruleSubjects, &random)) \(pick(ruleActions, &random)) "
                    + "\(pick(ruleResources, &random))\(pick(ruleConditions, &random))")
        }
        return lines.joined(separator: "\n")
    }

    static func invariantText(_ random: inout SplitMix64) -> String {
        "never \(pick(invariantSubjects, &random)) \(pick(invariantActions, &random)) "
            + "\(pick(invariantResources, &random))\(pick(invariantExceptions, &random))"
    }

    /// The first request of the universe that `invariant` forbids and `file` allows.
    static func oracleBreach(_ file: RulesFile, _ invariant: Invariant) -> AccessRequest? {
        for subject in subjects where invariant.forbids(subject: subject) {
            for action in actions where AccessPlan.Pattern.matches(invariant.action, action) {
                for resource in resources where AccessPlan.Pattern.matches(invariant.resource, resource) {
                    for tenant in tenants {
                        for owner in owners {
                            var attributes: [String: String] = [:]
                            attributes["tenant"] = tenant
                            attributes["owner"] = owner
                            let request = AccessRequest(
                                subject: subject, action: action, resource: resource, attributes: attributes)
                            if file.decide(request)?.effect == .allow { return request }
                        }
                    }
                }
            }
        }
        return nil
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func everyBreachTheOracleFindsIsFoundAndEveryReportedBreachIsReal(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var disagreements: [String] = []
        var breaches = 0
        var checks = 0
        for _ in 0..<150 {
            let text = Self.rulesText(&random)
            let file = try RulesFile.parse(text, fileName: "random.rules")
            let line = Self.invariantText(&random)
            let invariant = try #require(try Invariants(text: line, name: "random.invariants").lines.first)
            let symbolic = file.breach(of: invariant)
            let brute = Self.oracleBreach(file, invariant)
            checks += 1
            if let symbolic {
                breaches += 1
                guard let request = symbolic.request else {
                    disagreements.append("undecided: \(line) | \(text)")
                    continue
                }
                let verdict = file.decide(request)
                if !invariant.forbids(request) || verdict?.effect != .allow
                    || verdict?.line != symbolic.allowingLine
                {
                    disagreements.append("reported but not a breach: \(line) | \(text) | \(request)")
                }
            } else if let brute {
                disagreements.append("missed: \(line) | \(text) | oracle: \(brute)")
            }
        }
        #expect(disagreements == [])
        // The cases are not all one way.
        #expect(breaches > 10 && breaches < checks - 10)
    }
}
