import GatehouseTestSupport
import Testing

@testable import GatehouseCore
@testable import GatehousePolicies

/// The diff of two versions against a brute-force oracle: both versions decide every request of
/// a universe made from the rules' own literals and fresh names, and the diff must say exactly
/// which decisions change.
@Suite("Rules diff against decisions")
struct RulesDiffOracleTests {
    /// A pair of versions: the first generated, the second an edit of it (rules removed, added
    /// from another file, turned from allow to deny, duplicated) or, one time in four, another
    /// file altogether.
    static func pair(seed: UInt64) -> (RulesGenerator.File, RulesGenerator.File, RulesGenerator) {
        var generator = RulesGenerator(seed: seed)
        let old = generator.file()
        let other = generator.file()
        var random = SplitMix64(seed: seed ^ 0x6469_6666)
        if Int.random(in: 0..<4, using: &random) == 0 { return (old, other, generator) }
        var lines = old.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let extra = other.text.split(separator: "\n").map(String.init).filter {
            $0.contains("allow") || $0.contains("deny")
        }
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let at = Int.random(in: 0..<max(lines.count, 1), using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0 where lines.count > 1: lines.remove(at: at)
            case 1: lines.insert(extra.randomElement(using: &random) ?? "# none", at: at)
            case 2 where at < lines.count:
                lines[at] =
                    lines[at].contains("allow")
                    ? lines[at].replacingOccurrences(of: "allow", with: "deny")
                    : lines[at].replacingOccurrences(of: "deny", with: "allow")
            default: if at < lines.count { lines.insert(lines[at], at: at) }
            }
        }
        // An `end` line moved into the middle would hide what follows it.
        let text = lines.filter { $0.trimmingCharacters(in: .whitespaces) != "end" }.joined(separator: "\n")
        var edited = old
        edited.text = text + "\n# edited\n"
        edited.rules += other.rules
        return (old, edited, generator)
    }

    /// For each caller (subject, action, attributes) the diff of that caller, checked resource by
    /// resource: the gained residual holds exactly where the new version allows and the old one
    /// does not, the lost one the reverse, and no change is reported exactly when none of the
    /// universe changes unless its example does.
    /// One seed per case, so the cases run side by side; about 5,000 checks each.
    @Test(arguments: UInt64(0)..<20)
    func theDiffOfACallerAgreesWithBothVersionsOverARandomUniverse(seed: UInt64) throws {
        var checks = 0
        var disagreements: [String] = []
        do {
            let (oldFile, newFile, generatorAfter) = Self.pair(seed: seed)
            var generator = generatorAfter
            let old = try RulesFile.parse(oldFile.text, fileName: "old.rules")
            // An added rule may name a group the old version lacks: not a version to compare.
            guard let new = try? RulesFile.parse(newFile.text, fileName: "new.rules") else { return }
            let diff = RulesDiff(old: old, new: new)
            var resources: Set<String> = []
            var callers: [AccessRequest] = []
            for index in 0..<3_000 {
                let request = generator.request(for: index % 2 == 0 ? oldFile : newFile)
                resources.insert(request.resource)
                if index % 430 == 0 { callers.append(request) }
            }
            for caller in callers {
                let change = diff.change(
                    subject: caller.subject, action: caller.action, attributes: caller.attributes)
                if let change {
                    let example = change.example
                    let was = old.decide(example)?.effect == .allow
                    let now = new.decide(example)?.effect == .allow
                    if was == now || was != change.exampleWasAllowed {
                        disagreements.append("seed \(seed): the example \(example) does not change")
                    }
                }
                for resource in resources {
                    var request = caller
                    request.resource = resource
                    let was = old.decide(request)?.effect == .allow
                    let now = new.decide(request)?.effect == .allow
                    let gained = change?.gained.holds(for: resource, unplanned: false) ?? false
                    let lost = change?.lost.holds(for: resource, unplanned: false) ?? false
                    checks += 1
                    if gained != (now && !was) || lost != (was && !now), disagreements.count < 5 {
                        disagreements.append(
                            "seed \(seed): \(request): before \(was), after \(now), diff gained \(gained) lost \(lost)"
                        )
                    }
                }
            }
        }
        #expect(checks >= 1_000)
        #expect(disagreements.isEmpty, "\(disagreements)")
    }

    /// The classes of the whole diff agree with the diff of each caller: a named subject's class
    /// is that subject's diff, requests without a subject have theirs, a subject named nowhere
    /// falls in the class of the subject patterns it matches, and an action named nowhere in the
    /// class of the action patterns it matches.
    /// One seed per case: a pair's whole diff may hold thousands of classes, so the cases stay
    /// short and run side by side.
    @Test(arguments: Self.classSeeds)
    func theClassesOfTheWholeDiffAgreeWithEachCaller(seed: UInt64) throws {
        var checks = 0
        var disagreements: [String] = []
        do {
            let (oldFile, newFile, _) = Self.pair(seed: seed)
            let old = try RulesFile.parse(oldFile.text, fileName: "old.rules")
            // An added rule may name a group the old version lacks: not a version to compare.
            guard let new = try? RulesFile.parse(newFile.text, fileName: "new.rules") else { return }
            let diff = RulesDiff(old: old, new: new)
            let attributes = seed % 2 == 0 ? [:] : ["tenant": "t1", "device": "managed"]
            let changes = diff.changes(attributes: attributes)
            let subjectPatterns = Set(
                (old.rules + new.rules).map(\.subject).filter {
                    $0 != "*" && $0.contains("*") && !$0.hasPrefix("@")
                })
            let actionPatterns = Set(
                (old.rules + new.rules).map(\.action).filter { $0 != "*" && $0.contains("*") })
            let namedSubjects = Set(diff.subjectClasses(attributes: attributes).compactMap(\.name))
            let namedActions = Set(diff.actionClasses().compactMap(\.name))
            // A subject and an action of characters no rule holds stand for any other.
            for subject in Array(RulesGenerator.subjects) + [nil, "\u{2603}\u{2604}"] {
                for action in RulesGenerator.actions + ["re", "writes", "\u{2602}"] {
                    let expected = diff.change(
                        subject: subject, action: AccessAction(rawValue: action), attributes: attributes)
                    let found = changes.first { change in
                        guard change.attributes == attributes else { return false }
                        let subjectFits: Bool
                        if let subject, namedSubjects.contains(subject) {
                            subjectFits = change.subject == subject
                        } else if let subject {
                            subjectFits =
                                change.subject == nil && !change.withoutSubject
                                && Set(change.subjectMatches)
                                    == subjectPatterns.filter { AccessPlan.Pattern.matches($0, subject) }
                        } else {
                            subjectFits = change.withoutSubject
                        }
                        let actionFits =
                            namedActions.contains(action)
                            ? change.action == action
                            : change.action == nil
                                && Set(change.actionMatches)
                                    == actionPatterns.filter { AccessPlan.Pattern.matches($0, action) }
                        return subjectFits && actionFits
                    }
                    checks += 1
                    // Named subjects have the very residuals; a stand-in's are its own, but it
                    // changes exactly when the caller does.
                    let agrees =
                        subject.map(namedSubjects.contains) ?? true
                        ? found?.gained == expected?.gained && found?.lost == expected?.lost
                        : (found == nil) == (expected == nil)
                    if !agrees, disagreements.count < 5 {
                        disagreements.append(
                            "seed \(seed): \(subject ?? "(none)") \(action): class \(String(describing: found)), caller \(String(describing: expected))"
                        )
                    }
                }
            }
        }
        #expect(checks == (RulesGenerator.subjects.count + 2) * (RulesGenerator.actions.count + 3))
        #expect(disagreements.isEmpty, "\(disagreements)")
    }

    /// The seeds of the class oracle.
    static let classSeeds = Array(UInt64(100)..<120)

    /// Most seeds of the class oracle make two versions to compare, and some of those differ: a
    /// generator that stopped doing so would leave the oracle checking nothing.
    @Test func mostSeedsOfTheClassOracleMakeVersionsThatDiffer() throws {
        var comparable = 0
        var differing = 0
        for seed in Self.classSeeds {
            let (oldFile, newFile, _) = Self.pair(seed: seed)
            let old = try RulesFile.parse(oldFile.text, fileName: "old.rules")
            guard let new = try? RulesFile.parse(newFile.text, fileName: "new.rules") else { continue }
            comparable += 1
            if RulesDiff(old: old, new: new).change(subject: nil, action: .read) != nil
                || RulesGenerator.subjects.contains(where: {
                    RulesDiff(old: old, new: new).change(subject: $0, action: .read) != nil
                })
            {
                differing += 1
            }
        }
        #expect(comparable >= 15)
        #expect(differing >= 5)
    }
}
