import Foundation
import GatehouseCore
import GatehousePolicies

/// One assembly in progress: builds components, collects every issue, and records the tree of
/// descriptions that `describe` prints. Used from one thread at a time.
final class AssemblyRun: @unchecked Sendable {
    static let maximumNesting = 16

    let registry: PluginRegistry
    let baseDirectory: URL
    let clock: @Sendable () -> Date
    let observer: (any AccessObserver)?
    let issues: IssueCollector
    /// Where reading the JSON found problems: a component holding one is not built.
    var shapeProblems: [String] = []
    /// What `validate` checks: each `ValidatingPolicy` that nests no component, at its place.
    private(set) var checks: [AssembledServices.Check] = []
    /// The attribute names the service being built declares, handed to its rules files.
    var declaredAttributes: [String]?
    /// The invariants of the service being built, handed to its rules files.
    var invariants: Invariants?
    private var children: [[ExplanationLine]] = []

    init(
        registry: PluginRegistry, baseDirectory: URL, clock: @escaping @Sendable () -> Date,
        observer: (any AccessObserver)?, issues: IssueCollector
    ) {
        self.issues = issues
        self.registry = registry
        self.baseDirectory = baseDirectory
        self.clock = clock
        self.observer = observer
    }

    /// A gatekeeper built and shown by its configured name, with its line of `describe`.
    typealias Built = (member: NamedGatekeeper, line: ExplanationLine)

    /// A policy and its explanation, also recorded under the enclosing policy's; `nil` when it
    /// could not be built (issues reported).
    func policy(_ component: ComponentConfiguration, path: String, depth: Int) -> Built? {
        guard depth <= Self.maximumNesting else {
            issues.add(path, "policies are nested more than \(Self.maximumNesting) levels deep")
            return nil
        }
        guard let plugin = plugin(for: component, at: path, in: registry.policies, kind: "policy") else {
            return nil
        }
        var name: String?
        if let nameValue = component.settings["name"] {
            guard case .string(let text) = nameValue, !text.isEmpty else {
                issues.add(
                    ConfigurationPath.member(path, "name"),
                    "expected a non-empty string, found \(nameValue.shown)")
                return nil
            }
            name = text
        }
        children.append([])
        let built = make(plugin, component, path: path, depth: depth)
        let nested = children.removeLast()
        guard let (policy, text) = built else { return nil }
        if nested.isEmpty { checks.append((path, policy)) }
        let line = ExplanationLine(text: name.map { "\($0) = \(text)" } ?? text, children: nested)
        if !children.isEmpty { children[children.count - 1].append(line) }
        return (NamedGatekeeper(policy, name: name), line)
    }

    /// Whether a problem found reading the JSON lies at `path` or below it.
    private func hasShapeProblem(under path: String) -> Bool {
        shapeProblems.contains { $0 == path || $0.hasPrefix(path + ".") || $0.hasPrefix(path + "[") }
    }

    /// A loader or attribute source and its description, or `nil` (issues reported).
    func component<Component>(
        _ component: ComponentConfiguration, path: String,
        from plugins: [String: PluginRegistry.Plugin<Component>],
        kind: String
    ) -> (built: Component, text: String)? {
        plugin(for: component, at: path, in: plugins, kind: kind).flatMap {
            make($0, component, path: path, depth: 0)
        }
    }

    /// The plugin for the component's type, or `nil` when the type is unknown or the component
    /// holds a shape problem (either reported).
    private func plugin<Component>(
        for component: ComponentConfiguration, at path: String,
        in plugins: [String: PluginRegistry.Plugin<Component>],
        kind: String
    ) -> PluginRegistry.Plugin<Component>? {
        guard !hasShapeProblem(under: path) else { return nil }
        guard let plugin = plugins[component.type] else {
            let known = plugins.keys.sorted()
            let hint = ConfigurationPath.didYouMean(component.type, among: known)
            issues.add(
                ConfigurationPath.member(path, "type"),
                "unknown \(kind) type \"\(component.type)\"\(hint); known: \(known.joined(separator: ", "))")
            return nil
        }
        return plugin
    }

    /// The component built by `plugin` and its description, or `nil` (issues reported).
    private func make<Component>(
        _ plugin: PluginRegistry.Plugin<Component>, _ component: ComponentConfiguration, path: String,
        depth: Int
    ) -> (built: Component, text: String)? {
        let context = PluginContext(
            baseDirectory: baseDirectory, clock: clock, observer: observer, path: path, build: self,
            depth: depth)
        let (unknown, outcome) = plugin.build(.object(component.settings), context)
        // Unknown keys first, found even when the settings could not be decoded: a typo in a
        // required key is reported as the typo, then as the missing key.
        for key in unknown {
            issues.add(ConfigurationPath.appending(path, key.path), key.message)
        }
        switch outcome {
        case .success(let made):
            return unknown.isEmpty ? (made.built, made.text ?? Self.generic(component)) : nil
        case .failure(is NestedComponentFailed):
            break
        case .failure(let problems as ConfigurationDecoder.Problems):
            for problem in problems.issues {
                issues.add(ConfigurationPath.appending(path, problem.path), problem.message)
            }
        case .failure(let error as DecodingError):
            let problem = ConfigurationDecoder.issue(error)
            issues.add(ConfigurationPath.appending(path, problem.path), problem.message)
        case .failure(let error as ConfigurationError):
            for issue in error.issues { report(issue, at: path) }
        case .failure(let error):
            issues.add(path, describe(error))
        }
        return nil
    }

    /// A plugin's problem, its path relative to the component at `path`.
    private func report(_ issue: ConfigurationError.Issue, at path: String) {
        let place =
            issue.path.isEmpty || issue.path.hasPrefix("[") ? path + issue.path : "\(path).\(issue.path)"
        issues.add(place, issue.message)
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

/// A line of `describe`, with nested lines for combinators.
struct ExplanationLine: Sendable, Hashable {
    var text: String
    var children: [ExplanationLine] = []

    /// Appends `prefix + text`, then the children below it, each level indented further.
    func render(_ prefix: String, into lines: inout [String], indent: String = "      ") {
        lines.append(prefix + text)
        for child in children { child.render(indent, into: &lines, indent: indent + "    ") }
    }
}
