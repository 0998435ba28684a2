import GatehouseCore

/// A gatekeeper that decides by rules held in memory, in the format of a ``FilePolicy`` rules
/// file, with the same engine and the same errors.
///
/// ```swift
/// let rules = try RulesPolicy(text: """
///     group  editors  alice bob
///     allow  @editors write  docs/*
///     allow  *        read   users/{subject}/*
///     """, name: "documents")
/// ```
/// The text is parsed once, when the policy is made; a decision never fails.
public struct RulesPolicy: AccessPolicy {
    /// The name shown in denials and audit records, and in place of a file name in reasons
    /// (`"documents:3 denies"`) and errors.
    public let name: String
    /// The number of rules in the text.
    public var ruleCount: Int { rules.ruleCount }

    let rules: RulesFile

    /// Parses `text` as rules named `name`; `attributes`, when given, are the only attribute
    /// names a placeholder or condition may read (see ``FilePolicy/attributes``); `invariants`,
    /// when given, are promises the rules must keep (see ``FilePolicy/invariants``).
    ///
    /// - Throws: ``RulesFileError`` naming `name` and listing every problem by line, as for a file,
    ///   or each broken invariant with a request that breaks it (``RulesFileError/Kind/breaksInvariant``).
    public init(
        text: String, name: String, attributes: [String]? = nil, invariants: Invariants? = nil
    ) throws(RulesFileError) {
        self.name = name
        let rules: RulesFile
        do {
            rules = try RulesFile.parse(text, fileName: name, attributes: attributes)
        } catch let error as RulesFileError {
            throw error
        } catch {
            throw RulesFileError(file: name, kind: .malformed, message: describe(error))
        }
        if let invariants {
            let breaches = rules.breaches(of: invariants)
            guard breaches.isEmpty else { throw rules.invariantError(breaches, invariants: invariants.name) }
        }
        self.rules = rules
    }

    /// Parses `text` as rules named after the file and line of this call, such as `Setup.swift:12`
    /// (a rule is `Setup.swift:12:3`); `attributes` and `invariants` as in
    /// ``init(text:name:attributes:invariants:)``.
    ///
    /// - Throws: ``RulesFileError`` naming the place and listing every problem by line.
    public init(
        text: String, attributes: [String]? = nil, invariants: Invariants? = nil, fileID: String = #fileID,
        line: Int = #line
    ) throws(RulesFileError) {
        try self.init(
            text: text, name: Self.name(fileID: fileID, line: line), attributes: attributes,
            invariants: invariants)
    }

    static func name(fileID: String, line: Int) -> String {
        "\(fileID.split(separator: "/").last.map(String.init) ?? fileID):\(line)"
    }

    /// Allows when a matching rule allows and none denies; otherwise denies, naming the deciding
    /// line or saying that no rule allows.
    public func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        rules.decision(for: request)
    }

    /// ``evaluate(_:)``'s decision with the deciding rule (`name:line`), for allows too.
    public func explain(_ request: AccessRequest) async throws -> AccessExplanation {
        rules.explanation(for: request)
    }

    /// The rules whose subject (groups included), action and conditions hold for the request,
    /// placeholders substituted, allowed patterns minus denied ones: exact, except that a rule
    /// reading an attribute the service takes from its resources leaves the names its pattern
    /// can match to be checked one by one (see docs/plans.md).
    public func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part {
        rules.plan(request, gatekeeper: name)
    }
}

extension RulesPolicy {
    /// The rules that nearly allowed a denied request; see `AccessVerdict/nearMisses`.
    public func nearMisses(_ request: AccessRequest) async throws -> [String] {
        rules.nearMisses(for: request)
    }
}
