import Foundation
import GatehouseCore

/// One assembly in progress: builds components, collects every issue, and records the tree of
/// descriptions that `explain` prints. Used from one thread at a time.
final class AssemblyRun: @unchecked Sendable {
    static let maximumNesting = 16

    let registry: PluginRegistry
    let baseDirectory: URL
    let clock: @Sendable () -> Date
    let observer: (any AccessObserver)?
    let issues = IssueCollector()
    private var children: [[ExplanationLine]] = []

    init(
        registry: PluginRegistry, baseDirectory: URL, clock: @escaping @Sendable () -> Date,
        observer: (any AccessObserver)?
    ) {
        self.registry = registry
        self.baseDirectory = baseDirectory
        self.clock = clock
        self.observer = observer
    }

    /// A policy and its explanation, or `nil` when it could not be built (issues reported).
    func policy(_ component: ComponentConfiguration, path: String, depth: Int) -> (
        policy: any AccessPolicy, line: ExplanationLine
    )? {
        guard depth <= Self.maximumNesting else {
            issues.add(path, "policies are nested more than \(Self.maximumNesting) levels deep")
            return nil
        }
        guard let plugin = registry.policies[component.type] else {
            issues.add(
                ConfigurationPath.member(path, "type"),
                unknownType(component.type, among: registry.policyTypes, kind: "policy"))
            return nil
        }
        var name: String?
        if let nameValue = component.settings["name"] {
            guard case .string(let text) = nameValue, !text.isEmpty else {
                issues.add(
                    ConfigurationPath.member(path, "name"),
                    "expected a non-empty string, found \(CacheConfiguration.show(nameValue))")
                return nil
            }
            name = text
        }
        children.append([])
        let built = make(path: path, depth: depth) { context, unread in
            try plugin.build(.object(component.settings), context, &unread)
        }
        let nested = children.removeLast()
        guard var policy = built else { return nil }
        if let name { policy = RenamedPolicy(name: name, policy: policy) }
        let text = plugin.describe(.object(component.settings)) ?? Self.generic(component)
        return (policy, ExplanationLine(text: name.map { "\($0) = \(text)" } ?? text, children: nested))
    }

    /// Adds a nested policy's line under the policy being built.
    func recordNested(_ line: ExplanationLine) {
        if !children.isEmpty { children[children.count - 1].append(line) }
    }

    func loader(_ component: ComponentConfiguration, path: String) -> (
        loader: any ResourceLoading<String, Data>, text: String
    )? {
        guard let plugin = registry.loaders[component.type] else {
            issues.add(
                ConfigurationPath.member(path, "type"),
                unknownType(component.type, among: registry.loaderTypes, kind: "loader"))
            return nil
        }
        let built = make(path: path, depth: 0) { context, unread in
            try plugin.build(.object(component.settings), context, &unread)
        }
        guard let built else { return nil }
        return (built, plugin.describe(.object(component.settings)) ?? Self.generic(component))
    }

    private func make<T>(
        path: String, depth: Int, _ body: (PluginContext, inout [UnreadKey]) throws -> T
    ) -> T? {
        let context = PluginContext(
            baseDirectory: baseDirectory, clock: clock, observer: observer, path: path, build: self,
            depth: depth)
        var unread: [UnreadKey] = []
        var result: T?
        do {
            result = try body(context, &unread)
        } catch is NestedComponentFailed {
            result = nil
        } catch let error as DecodingError {
            report(error, at: path)
        } catch let error as SettingsError {
            issues.add(error.key.hasPrefix("[") ? path + error.key : "\(path).\(error.key)", error.message)
        } catch {
            issues.add(path, describe(error))
        }
        for key in unread {
            let hint = key.suggestion.map { " (did you mean \"\($0)\"?)" } ?? ""
            issues.add(
                ConfigurationPath.appending(path, key.path),
                "unknown key\(hint); check its spelling against the documentation of this type")
        }
        return unread.isEmpty ? result : nil
    }

    private func report(_ error: DecodingError, at path: String) {
        switch error {
        case .keyNotFound(let key, let context):
            issues.add(ConfigurationPath.appending(path, context.codingPath + [key]), "missing")
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            issues.add(ConfigurationPath.appending(path, context.codingPath), context.debugDescription)
        @unknown default:
            issues.add(path, String(describing: error))
        }
    }

    private func unknownType(_ type: String, among known: [String], kind: String) -> String {
        let hint =
            ConfigurationPath.suggestion(for: type, among: known).map { " (did you mean \"\($0)\"?)" } ?? ""
        return "unknown \(kind) type \"\(type)\"\(hint); known: \(known.joined(separator: ", "))"
    }

    /// `type key=value ...` from the settings as written.
    static func generic(_ component: ComponentConfiguration) -> String {
        let settings = component.settings.members.filter { $0.key != "name" }
        guard !settings.isEmpty else { return component.type }
        return component.type + " " + settings.map { "\($0.key)=\(compact($0.value))" }.joined(separator: " ")
    }

    static func compact(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): String(flag)
        case .number(let text): text
        case .string(let text): "\"\(text)\""
        case .array(let values): "[" + values.map(compact).joined(separator: ", ") + "]"
        case .object(let object):
            "{" + object.members.map { "\($0.key): \(compact($0.value))" }.joined(separator: ", ") + "}"
        }
    }
}

/// A line of `explain`, with nested lines for combinators.
struct ExplanationLine: Sendable, Hashable {
    var text: String
    var children: [ExplanationLine] = []

    /// Appends `prefix + text`, then the children below it, each level indented further.
    func render(indent prefix: String, childIndent: String, into lines: inout [String]) {
        lines.append(prefix + text)
        for child in children {
            child.render(indent: childIndent + "    ", childIndent: childIndent + "    ", into: &lines)
        }
    }
}

/// A policy given another name in the configuration (`"name": "office-hours"`), so that denials
/// and audit records can tell two gates of the same type apart.
///
/// Decides synchronously when the renamed policy does, so naming a gate never moves a service
/// off the proxy's synchronous path.
struct RenamedPolicy: AccessPolicy, SynchronousAccessPolicy {
    let name: String
    let policy: any AccessPolicy
    /// The renamed policy when it decides synchronously.
    private let synchronous: (any SynchronousAccessPolicy)?

    init(name: String, policy: any AccessPolicy) {
        self.name = name
        self.policy = policy
        self.synchronous = synchronousMembers([policy])?.first
    }

    func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        if let synchronous { return try synchronous.decide(request) }
        return try await policy.evaluate(request)
    }

    var decidesSynchronously: Bool { synchronous != nil }

    func decide(_ request: AccessRequest) throws -> AccessDecision {
        guard let synchronous else { throw SynchronousDecisionUnavailable(policy: name) }
        return try synchronous.decide(request)
    }
}
