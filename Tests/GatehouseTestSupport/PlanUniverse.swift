/// Random rules files and a universe of resources and requests for them, from a seed: the
/// material the plan tests compare plans with per-resource decisions on.
///
/// Files hold nested groups, `@group` and wildcard subjects, `{subject}` and `{tenant}`
/// placeholders, `if` conditions (literal and placeholder values), denies and `*` anywhere in a
/// resource. Resource names hold `%`, `_`, `'` and `\` (what a SQL rendering must escape), and
/// some break the identity rule (not NFC, a control character, `..`, a leading `/`).
///
/// With `owners`, most resources also have an owner of their own (``owners``, the attribute
/// `owner`, which callers claim too), and rules read it in `{owner}` placeholders and in
/// conditions (`owner={subject}`, `tenant={owner}`).
public struct PlanUniverse {
    /// One rule's fields, as written in the file.
    public struct Rule: Sendable {
        /// `allow` or `deny`.
        public var allows: Bool
        /// The subject field.
        public var subject: String
        /// The action field.
        public var action: String
        /// The resource field.
        public var resource: String
        /// The `if` conditions.
        public var conditions: [(name: String, value: String)]
    }

    /// A caller: subject, action and attributes.
    public struct Caller: Sendable, CustomStringConvertible {
        /// The subject, or none.
        public var subject: String?
        /// The action.
        public var action: String
        /// The attributes.
        public var attributes: [String: String]

        /// The caller in one line.
        public var description: String {
            "\(subject ?? "(none)") \(action) \(attributes.sorted { $0.key < $1.key })"
        }
    }

    /// The rules file's text.
    public let text: String
    /// Its rules, in order.
    public let rules: [Rule]
    /// Each group's members, transitively (subjects only).
    public let members: [String: Set<String>]
    /// The resources to decide.
    public let resources: [String]
    /// The callers to plan for.
    public let callers: [Caller]
    /// Each resource's owner, for the resources that have one; empty without `owners`.
    public let owners: [String: String]

    static let subjects = ["alice", "bob", "carol", "dave"]
    static let segments = [
        "docs", "users", "t1", "a%b", "x_y", "it's", "back\\slash", "50%", "café", "a", "b.txt",
    ]
    static let values = ["alice", "bob", "t1", "t2", "a*", "it's", "x/y", "..", "", "café"]

    /// The universe of `seed`, with `resourceCount` resources and `callerCount` callers; with
    /// `owners`, resources have owners that rules read (the rest of the draws unchanged).
    public init(seed: UInt64, resourceCount: Int = 250, callerCount: Int = 24, owners: Bool = false) {
        var random = SplitMix64(seed: seed)
        // Groups: g3 holds @g1 and carol, g1 holds alice and @g2, g2 holds bob.
        let members: [String: Set<String>] = [
            "g1": ["alice", "bob"], "g2": ["bob"], "g3": ["alice", "bob", "carol"],
        ]
        var lines = ["# generated", "group g1 alice @g2", "group g2 bob", "group g3 @g1 carol"]
        var rules: [Rule] = []
        for _ in 0..<Int.random(in: 3...12, using: &random) {
            let rule = Rule(
                allows: Int.random(in: 0..<10, using: &random) < 7,
                subject: ["*", "*", "alice", "bob", "a*", "@g1", "@g2", "@g3", "carol"].randomElement(
                    using: &random)!,
                action: ["read", "read", "write", "*", "re*"].randomElement(using: &random)!,
                resource: Self.resourcePattern(&random, owners: owners),
                conditions: Self.conditions(&random, owners: owners))
            rules.append(rule)
            var line = "\(rule.allows ? "allow" : "deny") \(rule.subject) \(rule.action) \(rule.resource)"
            if !rule.conditions.isEmpty {
                line += " if " + rule.conditions.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
            }
            lines.append(line)
        }
        text = lines.joined(separator: "\n") + "\n"
        self.rules = rules
        self.members = members
        var resources: Set<String> = [
            "/docs/a", "docs//a", "docs/../a", "docs/a\u{7}", "cafe\u{301}/a", "docs/./a", "", "docs/",
        ]
        while resources.count < resourceCount {
            if Bool.random(using: &random), let rule = rules.randomElement(using: &random) {
                resources.insert(Self.instance(of: rule.resource, &random))
            } else {
                let count = Int.random(in: 1...3, using: &random)
                resources.insert(
                    (0..<count).map { _ in Self.segments.randomElement(using: &random)! }.joined(
                        separator: "/"))
            }
        }
        self.resources = resources.sorted()
        var callers: [Caller] = []
        for _ in 0..<callerCount {
            var attributes: [String: String] = [:]
            for name in ["tenant", "device", "owner"] where Bool.random(using: &random) {
                attributes[name] = (Self.values + ["managed"]).randomElement(using: &random)!
            }
            callers.append(
                Caller(
                    subject: (Self.subjects + ["a*"]).randomElement(using: &random).flatMap {
                        Int.random(in: 0..<8, using: &random) == 0 ? nil : $0
                    },
                    action: ["read", "write"].randomElement(using: &random)!, attributes: attributes))
        }
        self.callers = callers
        // Drawn apart, so that the universe without owners stays what it was.
        var ownership = SplitMix64(seed: seed ^ 0x6F77_6E65_7273)
        var owned: [String: String] = [:]
        for resource in self.resources where owners && Int.random(in: 0..<4, using: &ownership) > 0 {
            owned[resource] = (Self.subjects + Self.values).randomElement(using: &ownership)!
        }
        self.owners = owned
    }

    /// A resource pattern of 1 to 3 segments, each literal, `*`, a placeholder or a mix; with
    /// `owners`, a placeholder is `{tenant}` or `{owner}`.
    static func resourcePattern(_ random: inout SplitMix64, owners: Bool) -> String {
        let count = Int.random(in: 1...3, using: &random)
        return (0..<count).map { _ in
            switch Int.random(in: 0..<10, using: &random) {
            case 0, 1: "*"
            case 2: "{subject}"
            case 3: owners && Bool.random(using: &random) ? "{owner}" : "{tenant}"
            case 4: "pre*"
            default: segments.randomElement(using: &random)!
            }
        }.joined(separator: "/")
    }

    /// No condition most of the time; otherwise one or two; with `owners`, `tenant={owner}` and
    /// `owner=alice` may be among them.
    static func conditions(_ random: inout SplitMix64, owners: Bool) -> [(name: String, value: String)] {
        let choices =
            [("device", "managed"), ("owner", "{subject}"), ("tenant", "t1"), ("tenant", "it's")]
            + (owners ? [("tenant", "{owner}"), ("owner", "alice")] : [])
        return (0..<[0, 0, 0, 1, 1, 2].randomElement(using: &random)!).map { _ in
            choices.randomElement(using: &random)!
        }
    }

    /// A name `pattern` matches (or nearly), placeholders and stars filled in at random.
    static func instance(of pattern: String, _ random: inout SplitMix64) -> String {
        var name = ""
        var placeholder: String?
        for character in pattern {
            if placeholder != nil {
                if character == "}" {
                    name += values.randomElement(using: &random)!
                    placeholder = nil
                }
            } else if character == "{" {
                placeholder = ""
            } else if character == "*" {
                name += ["", "x", "a/b", "docs", "%", "_", "'"].randomElement(using: &random)!
            } else {
                name.append(character)
            }
        }
        return name
    }
}
