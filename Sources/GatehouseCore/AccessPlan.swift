import Foundation

/// What a caller may reach: the resources a gate allows for one subject, action and attributes,
/// as a ``Residual`` over the resource name, made by ``AccessGate/plan(subject:action:attributes:at:)``.
/// A gatekeeper that cannot plan leaves a part that must check each name (``unplanned``).
/// See docs/plans.md.
public struct AccessPlan: Sendable, Hashable {
    /// Where the gate allows.
    public let residual: Residual
    /// The rule a name must keep before any gatekeeper; a name that breaks it is never permitted.
    public let identity: ResourceIdentity

    /// Creates a plan that allows where `residual` holds, for names that keep `identity`.
    public init(_ residual: Residual, identity: ResourceIdentity = .path) {
        self.residual = residual
        self.identity = identity
    }

    /// The gatekeepers that cannot plan, each once, in order: their parts must check each name.
    public var unplanned: [String] {
        var seen: Set<String> = []
        return residual.gatekeepersToAsk.filter { seen.insert($0).inserted }
    }

    /// Whether no part must check each name.
    package var isExact: Bool { unplanned.isEmpty }

    /// Whether `resource` keeps ``identity`` and the residual holds for a resource with no
    /// attributes of its own: ``permits(_:attributes:)`` with none, so an attribute predicate
    /// (``Residual/attribute(_:equals:)``) is false there, as a condition on a missing attribute is
    /// in a decision. A part that must check each name counts as not permitting (fail closed).
    public func permits(_ resource: String) -> Bool {
        permits(resource, attributes: [:])
    }

    /// Whether `resource`, whose own attributes (those the service takes from its resources, such
    /// as `owner`) are `attributes`, keeps ``identity`` and the residual holds: an attribute
    /// predicate holds where `attributes` has the name and its value, in NFC, is the predicate's.
    /// A name `attributes` lacks counts as missing, never as the caller's value. A part that must
    /// check each name counts as not permitting (fail closed). Agrees with the gate's decision on
    /// the request with those resource attributes, wherever the plan has no such part.
    public func permits(_ resource: String, attributes: [String: String]) -> Bool {
        identity.violation(in: resource) == nil
            && residual.holds(for: resource, attributes: attributes, unplanned: false)
    }

    /// The names of the resource attributes the residual's predicates read, each once, in order:
    /// a rendering that has no column for one of them must check each name there.
    public var attributeNames: [String] {
        var seen: Set<String> = []
        return residual.attributesRead.filter { seen.insert($0).inserted }
    }

    /// The plan with every part that must check each name, and every attribute predicate, taken
    /// as allowing: a superset over names alone, for a listing that still asks the gate about each
    /// name.
    public var candidates: AccessPlan {
        candidates(keeping: [])
    }

    /// ``candidates`` with the attribute predicates on `attributes` kept as they are, for a
    /// listing that decides them itself (``FilteredListing/filteredAttributeNames``).
    public func candidates(keeping attributes: Set<String>) -> AccessPlan {
        AccessPlan(residual.bound(unplanned: true, keeping: attributes), identity: identity)
    }

    /// ``permits(_:)`` as a function, to filter a collection of names.
    public var predicate: @Sendable (String) -> Bool {
        { [self] in permits($0) }
    }

    /// Who asks, to do what, with what attributes, and when: a request without a resource.
    public struct Request: Sendable, Hashable {
        /// The caller, or `nil` for the app itself or an anonymous caller.
        public var subject: String?
        /// The action.
        public var action: AccessAction
        /// Further facts about the call.
        public var attributes: [String: String]
        /// The instant time windows are folded at; `nil` for each one's own clock.
        public var instant: Date?
        /// The attribute names the service takes from its resources: a value for one of them is
        /// never in ``attributes``, since it differs from resource to resource.
        public var resourceAttributeNames: ResourceAttributeNames

        /// Creates a request.
        public init(
            subject: String? = nil, action: AccessAction = .read, attributes: [String: String] = [:],
            instant: Date? = nil, resourceAttributeNames: ResourceAttributeNames = .none
        ) {
            self.subject = subject
            self.action = action
            self.attributes = attributes
            self.instant = instant
            self.resourceAttributeNames = resourceAttributeNames
        }

        /// The request about `resource`, its resource attributes those of `resourceAttributes`.
        package func request(for resource: String, resourceAttributes: [String: String] = [:])
            -> AccessRequest
        {
            var request = AccessRequest(
                subject: subject, action: action, resource: resource, attributes: attributes)
            for (name, value) in resourceAttributes { request.attributes[name] = value }
            request.resourceAttributeNames = resourceAttributeNames
            return request
        }
    }

    /// What one gatekeeper does to every name: where it allows and where it denies. A name in
    /// neither is one where it fails (throws), which the gate denies and ``Not`` keeps failed.
    public struct Part: Sendable, Hashable {
        /// Where the gatekeeper allows.
        public var allowed: Residual
        /// Where it denies.
        public var denied: Residual

        /// Creates a part.
        public init(allowed: Residual, denied: Residual) {
            self.allowed = allowed
            self.denied = denied
        }

        /// A gatekeeper that never fails: it allows where `allowed` holds and denies elsewhere.
        public static func exact(allowing allowed: Residual) -> Part {
            Part(allowed: allowed, denied: .not(allowed))
        }

        /// A gatekeeper that cannot plan: each name must be asked of it.
        public static func checkEach(_ gatekeeper: String) -> Part {
            Part(allowed: .unplanned(gatekeeper), denied: .unplanned(gatekeeper))
        }

        /// A gatekeeper that fails for every name (a broken rules file), which the gate denies.
        package static let failed = Part(allowed: .nothing, denied: .nothing)

        /// ``Not``'s part.
        var inverted: Part { Part(allowed: denied, denied: allowed) }

        /// Whether every name is allowed or denied, never failed nor left to check.
        var isTotal: Bool { allowed.gatekeepersToAsk.isEmpty && denied == .not(allowed) }

        /// ``AllOf``: the first member that does not allow decides, in order.
        package static func allOf(_ parts: [Part]) -> Part {
            guard !parts.isEmpty else { return .failed }
            if parts.allSatisfy(\.isTotal) { return .exact(allowing: .allOf(parts.map(\.allowed))) }
            let denied = parts.indices.map { index in
                Residual.allOf(parts[..<index].map(\.allowed) + [parts[index].denied])
            }
            return Part(allowed: .allOf(parts.map(\.allowed)), denied: .anyOf(denied))
        }

        /// ``AnyOf``: the first member that does not deny decides, in order.
        package static func anyOf(_ parts: [Part]) -> Part {
            guard !parts.isEmpty else { return .failed }
            if parts.allSatisfy(\.isTotal) { return .exact(allowing: .anyOf(parts.map(\.allowed))) }
            let allowed = parts.indices.map { index in
                Residual.allOf(parts[..<index].map(\.denied) + [parts[index].allowed])
            }
            return Part(allowed: .anyOf(allowed), denied: .allOf(parts.map(\.denied)))
        }
    }
}

extension AccessPlan {
    /// A set of resource names: patterns combined with `and`, `or` and `not`, and parts only a
    /// gatekeeper can decide. The static functions build it with constants folded.
    public indirect enum Residual: Sendable, Hashable, CustomStringConvertible {
        /// Every name.
        case everything
        /// No name.
        case nothing
        /// The names a pattern matches.
        case pattern(Pattern)
        /// The names in every member (never fewer than two).
        case all([Residual])
        /// The names in some member (never fewer than two).
        case any([Residual])
        /// The names not in the member.
        case complement(Residual)
        /// The names a gatekeeper that cannot plan decides, one by one.
        case unplanned(String)
        /// The resources whose own attribute `name` (one the service takes from its resources,
        /// such as `owner`) is, in NFC, exactly `value`; none where the resource lacks it. A rule's
        /// condition on such an attribute becomes one, its placeholders folded from the caller.
        case attribute(String, equals: String)

        /// The names a pattern matches; see ``Pattern``.
        public static func matching(_ spelling: String) -> Residual {
            .matching(Pattern(spelling))
        }

        /// The names `pattern` matches: ``everything`` for `*`.
        public static func matching(_ pattern: Pattern) -> Residual {
            pattern.runs == ["", ""] ? .everything : .pattern(pattern)
        }

        /// The names in every member.
        public static func allOf(_ members: [Residual]) -> Residual {
            joined(members, absorbing: .nothing, neutral: .everything, join: Residual.all) {
                if case .all(let inner) = $0 { inner } else { nil }
            }
        }

        /// The names in some member.
        public static func anyOf(_ members: [Residual]) -> Residual {
            joined(members, absorbing: .everything, neutral: .nothing, join: Residual.any) {
                if case .any(let inner) = $0 { inner } else { nil }
            }
        }

        /// `members` joined, constants folded, nested joins of the same kind flattened, each once.
        private static func joined(
            _ members: [Residual], absorbing: Residual, neutral: Residual, join: ([Residual]) -> Residual,
            nested: (Residual) -> [Residual]?
        ) -> Residual {
            var kept: [Residual] = []
            var seen: Set<Residual> = []
            for member in members where member != neutral {
                if member == absorbing { return absorbing }
                for each in nested(member) ?? [member] where seen.insert(each).inserted { kept.append(each) }
            }
            return kept.isEmpty ? neutral : kept.count == 1 ? kept[0] : join(kept)
        }

        /// The names not in `member`.
        public static func not(_ member: Residual) -> Residual {
            switch member {
            case .everything: .nothing
            case .nothing: .everything
            case .complement(let inner): inner
            default: .complement(member)
            }
        }

        /// Whether `name`, a resource with the attributes `attributes`, is in the set, a part that
        /// must check each name counting as `unplanned`.
        func holds(for name: String, attributes: [String: String] = [:], unplanned: Bool) -> Bool {
            switch self {
            case .everything: true
            case .nothing: false
            case .pattern(let pattern): pattern.matches(name)
            case .all(let members):
                members.allSatisfy { $0.holds(for: name, attributes: attributes, unplanned: unplanned) }
            case .any(let members):
                members.contains { $0.holds(for: name, attributes: attributes, unplanned: unplanned) }
            case .complement(let member):
                !member.holds(for: name, attributes: attributes, unplanned: !unplanned)
            case .unplanned: unplanned
            case .attribute(let key, let value):
                attributes[key].map { ResourceIdentity.normalized($0) == value } ?? false
            }
        }

        /// The attribute names the predicates read, in order (repeats included).
        var attributesRead: [String] {
            switch self {
            case .everything, .nothing, .pattern, .unplanned: []
            case .all(let members), .any(let members): members.flatMap(\.attributesRead)
            case .complement(let member): member.attributesRead
            case .attribute(let key, _): [key]
            }
        }

        /// The largest (`unplanned` true) or smallest set the gate may allow, over names alone:
        /// each attribute predicate but those on `keeping` taken as a part to check each name.
        func bound(unplanned: Bool, keeping: Set<String> = []) -> Residual {
            switch self {
            case .everything, .nothing, .pattern: self
            case .all(let members): .allOf(members.map { $0.bound(unplanned: unplanned, keeping: keeping) })
            case .any(let members): .anyOf(members.map { $0.bound(unplanned: unplanned, keeping: keeping) })
            case .complement(let member): .not(member.bound(unplanned: !unplanned, keeping: keeping))
            case .attribute(let key, _) where keeping.contains(key): self
            case .unplanned, .attribute: unplanned ? .everything : .nothing
            }
        }

        /// The set with each part that `gatekeeper` must check said to be `shown`'s.
        func renamingUnplanned(_ gatekeeper: String, to shown: String) -> Residual {
            switch self {
            case .everything, .nothing, .pattern, .attribute: self
            case .all(let members): .all(members.map { $0.renamingUnplanned(gatekeeper, to: shown) })
            case .any(let members): .any(members.map { $0.renamingUnplanned(gatekeeper, to: shown) })
            case .complement(let member): .complement(member.renamingUnplanned(gatekeeper, to: shown))
            case .unplanned(let name): name == gatekeeper ? .unplanned(shown) : self
            }
        }

        /// The gatekeepers that must check each name, in order (repeats included).
        var gatekeepersToAsk: [String] {
            switch self {
            case .everything, .nothing, .pattern, .attribute: []
            case .all(let members), .any(let members): members.flatMap(\.gatekeepersToAsk)
            case .complement(let member): member.gatekeepersToAsk
            case .unplanned(let gatekeeper): [gatekeeper]
            }
        }

        /// Such as `all(any("docs/*"), not("docs/secret/*"))`.
        public var description: String {
            switch self {
            case .everything: "everything"
            case .nothing: "nothing"
            case .pattern(let pattern): "\"\(pattern)\""
            case .all(let members): "all(\(members.map(\.description).joined(separator: ", ")))"
            case .any(let members): "any(\(members.map(\.description).joined(separator: ", ")))"
            case .complement(let member): "not(\(member))"
            case .unplanned(let gatekeeper): "check each name with \"\(gatekeeper)\""
            case .attribute(let key, let value): "\(key) = \"\(value)\""
            }
        }
    }
}
