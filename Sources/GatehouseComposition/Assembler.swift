import Foundation
import GatehouseAudit
import GatehouseCore
import GatehouseLoaders
import GatehousePolicies

/// Turns a configuration into ready services, each gate(s) → optional cache → loader: the cache
/// is always behind the gate, so a revoked grant is never served from a warm cache. Nothing
/// half-built is returned: a ``ConfigurationError`` lists every problem at its path.
public struct Assembler: Sendable {
    /// The component types the configuration may name.
    var registry: PluginRegistry
    /// The clock given to time-dependent policies and audit records.
    var clock: @Sendable () -> Date
    /// Receives every record of every assembled service, beside any decision log.
    var observer: (any AccessObserver)?
    /// A decision log file that replaces the configuration's `decisionLog.path`, or adds a log
    /// with the default settings (`gatehouse check --decision-log FILE`).
    var decisionLogFile: URL?

    /// Creates an assembler.
    public init(
        registry: PluginRegistry = PluginRegistry(),
        clock: @escaping @Sendable () -> Date = { Date() },
        observer: (any AccessObserver)? = nil,
        decisionLogFile: URL? = nil
    ) {
        self.registry = registry
        self.clock = clock
        self.observer = observer
        self.decisionLogFile = decisionLogFile
    }

    /// Reads and assembles a configuration file; relative paths resolve against its folder.
    /// Throws ``ConfigurationError``.
    public func assemble(contentsOf url: URL) throws -> AssembledServices {
        let file = url.standardizedFileURL
        let read = try GatehouseConfiguration.read(contentsOf: file)
        return try build(read, baseDirectory: file.deletingLastPathComponent(), file: file).assembled()
    }

    /// Reads and assembles JSON; relative paths resolve against `baseDirectory`. Throws
    /// ``ConfigurationError``.
    public func assemble(json data: Data, baseDirectory: URL) throws -> AssembledServices {
        let read = try GatehouseConfiguration.read(json: data, file: nil)
        return try build(read, baseDirectory: baseDirectory, file: nil).assembled()
    }

    /// Assembles a configuration, opening its decision log; relative paths resolve against
    /// `baseDirectory`. Throws a ``ConfigurationError`` listing every problem found.
    public func assemble(
        _ configuration: GatehouseConfiguration, baseDirectory: URL, file: URL? = nil
    ) throws -> AssembledServices {
        try build(configuration, baseDirectory: baseDirectory, file: file, shape: nil, decisionLog: .open)
            .assembled()
    }

    /// Every problem of a configuration file, its components, its decision log's path and the
    /// rules files it names, in file order, as `gatehouse validate` reports them; creates, writes
    /// and opens for writing nothing (the decision log's path is only checked). Returns the
    /// services' names and the rules files checked; throws a ``ConfigurationError`` otherwise.
    package func validate(
        contentsOf url: URL, reporting progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) async throws -> (services: [String], files: [AssembledServices.CheckedRulesFile]) {
        let file = url.standardizedFileURL
        let read = try GatehouseConfiguration.read(contentsOf: file)
        let pass = build(
            read, baseDirectory: file.deletingLastPathComponent(), file: file, decisionLog: .check)
        let checked = await AssembledServices.run(pass.checks, reporting: progress)
        let issues = DocumentOrder(read.document).sorted(pass.issues + checked.issues)
        guard issues.isEmpty else { throw ConfigurationError(file: file, issues: issues) }
        return (pass.services.map(\.name), checked.files)
    }

    /// What assembling does with the decision log: open it, or, for `validate`, only check that
    /// it could be opened.
    private enum DecisionLogHandling {
        case open
        case check
    }

    /// One pass over a configuration: what was built, what `validate` checks, every problem.
    private struct Pass {
        var services: [ConfiguredService]
        var file: URL?
        var decisionLog: DecisionLog?
        var checks: [AssembledServices.Check]
        var issues: [ConfigurationError.Issue]

        /// The services, or every problem in one error.
        func assembled() throws -> AssembledServices {
            guard issues.isEmpty else { throw ConfigurationError(file: file, issues: issues) }
            return AssembledServices(services: services, file: file, decisionLog: decisionLog, checks: checks)
        }
    }

    /// A pass over a configuration read from JSON.
    private func build(
        _ read: GatehouseConfiguration.Read, baseDirectory: URL, file: URL?,
        decisionLog: DecisionLogHandling = .open
    ) -> Pass {
        build(
            read.configuration, baseDirectory: baseDirectory, file: file, shape: read.issues,
            decisionLog: decisionLog)
    }

    /// A pass with the problems of the JSON's shape (`nil` when built in code), in the order found.
    private func build(
        _ configuration: GatehouseConfiguration, baseDirectory: URL, file: URL?,
        shape: [ConfigurationError.Issue]?, decisionLog handling: DecisionLogHandling
    ) -> Pass {
        let issues = IssueCollector()
        for issue in shape ?? [] { issues.add(issue.path, issue.message) }
        let decisionLog = openDecisionLog(
            configuration.decisionLog, baseDirectory: baseDirectory, issues: issues, handling: handling)
        var observer = self.observer
        if let decisionLog {
            observer = observer.map { ObserverPair(first: $0, second: decisionLog) } ?? decisionLog
        }
        let run = AssemblyRun(
            registry: registry, baseDirectory: baseDirectory, clock: clock, observer: observer, issues: issues
        )
        run.shapeProblems = (shape ?? []).map(\.path)
        let mask = Set(configuration.decisionLog?.mask ?? [])
        let services = configuration.services.compactMap {
            assemble($0, run: run, shapeChecked: shape != nil, mask: mask)
        }
        return Pass(
            services: services, file: file, decisionLog: decisionLog, checks: run.checks,
            issues: run.issues.issues)
    }

    /// The decision log asked for, opened; `nil` when none is, it cannot be opened (an issue), or
    /// it is only checked.
    private func openDecisionLog(
        _ configured: DecisionLogConfiguration?, baseDirectory: URL, issues: IssueCollector,
        handling: DecisionLogHandling
    ) -> DecisionLog? {
        guard let settings = configured ?? decisionLogFile.map({ DecisionLogConfiguration(path: $0.path) })
        else { return nil }
        let url =
            decisionLogFile?.standardizedFileURL
            ?? PluginContext.resolve(settings.path, against: baseDirectory)
        let place = decisionLogFile == nil ? "decisionLog.path" : ""
        do {
            switch handling {
            case .open:
                return try DecisionLog(
                    url: url, mask: Set(settings.mask), capacity: settings.capacity,
                    overflow: settings.overflow)
            case .check:
                try DecisionLog.checkOpening(url: url)
                return nil
            }
        } catch {
            issues.add(place, place.isEmpty ? "the decision log: \(error.message)" : error.message)
            return nil
        }
    }

    /// Whether a gatekeeper of type `type` is a rules file, or holds one, whose denial denies the
    /// chain it stands in on its own: a `file`, or an `allOf` holding such a gatekeeper.
    private static func deniesAlone(type: String, settings: JSONObject) -> Bool {
        switch type {
        case "file": return true
        case "allOf":
            // "policies" is the key's older name, still read.
            guard case .array(let members)? = settings["gatekeepers"] ?? settings["policies"] else {
                return false
            }
            return members.contains { member in
                guard case .object(let object) = member, case .string(let type)? = object["type"] else {
                    return false
                }
                return deniesAlone(type: type, settings: object)
            }
        default: return false
        }
    }

    /// The service assembled, or `nil` with its problems in `run`; `shapeChecked` when reading
    /// the JSON already reported missing gatekeepers. `mask` (the decision log's) is the gate's,
    /// so a masked value appears in no record, verdict or denial.
    private func assemble(
        _ service: ServiceConfiguration, run: AssemblyRun, shapeChecked: Bool, mask: Set<String>
    )
        -> ConfiguredService?
    {
        let path = ConfigurationPath.member("services", service.name)
        func at(_ key: String) -> String { ConfigurationPath.member(path, key) }
        run.declaredAttributes = service.attributes
        run.invariants = nil
        if let path = service.invariants {
            do {
                run.invariants = try Invariants(
                    contentsOf: PluginContext.resolve(path, against: run.baseDirectory))
            } catch {
                run.issues.add(at("invariants"), error.description)
                return nil
            }
            // Each rules file keeps the promises on its own; the chain keeps them only when one
            // such file can deny it alone.
            let kept = service.gatekeepers.contains { Self.deniesAlone(type: $0.type, settings: $0.settings) }
            if !kept {
                run.issues.add(
                    at("invariants"),
                    "no rules file of the service can deny a request on its own (a \"file\" gatekeeper in "
                        + "\"gatekeepers\", directly or inside \"allOf\"), so nothing would keep these "
                        + "promises; each rules file keeps them by itself (see docs/invariants.md)")
            }
        }
        if service.gatekeepers.isEmpty && !shapeChecked {
            run.issues.add(at("gatekeepers"), "empty; " + ServiceConfiguration.noOpenDoor)
        }
        func policies(_ components: [ComponentConfiguration], under key: String) -> [AssemblyRun.Built?] {
            components.enumerated().map {
                run.policy($1, path: ConfigurationPath.element(at(key), $0), depth: 0)
            }
        }
        let gates = policies(service.gatekeepers, under: "gatekeepers")
        let shadow = policies(service.shadow, under: "shadow")
        let loader = run.component(
            service.loader, path: at("loader"), from: run.registry.loaders, kind: "loader")
        let source = service.resourceAttributes.map {
            run.component(
                $0, path: at("resourceAttributes"), from: run.registry.attributeSources,
                kind: "attribute source")
        }
        // A loader that is itself a gate (its `Gate` is AccessGate) would have the cache in front
        // of its gate, serving what that gate has since revoked: the guard CachingLoader holds at
        // compile time, held here for a type known only now.
        let cacheInFrontOfAGate = loader.map { service.cache != nil && type(of: $0.built).isGate } ?? false
        if cacheInFrontOfAGate {
            run.issues.add(
                at("cache"),
                "the loader \"\(service.loader.type)\" is itself a gate, so this cache would stand in front of "
                    + "its gate and keep serving a resource after access to it is revoked; remove the cache, "
                    + "or put it behind that gate, inside the loader")
        }
        // A loader that holds its resources' attributes (a table with an owner column) is their
        // one source: a second one could disagree with the rows its listing selects.
        let loaderSource = loader?.built as? any AttributeSource
        if loaderSource != nil, service.resourceAttributes != nil {
            run.issues.add(
                at("resourceAttributes"),
                "the loader \"\(service.loader.type)\" holds its resources' attributes itself, so they "
                    + "have one source; remove \"resourceAttributes\"")
        }
        guard let loader, !cacheInFrontOfAGate, !gates.isEmpty, gates.allSatisfy({ $0 != nil }),
            shadow.allSatisfy({ $0 != nil }), source.map({ $0 != nil }) ?? true,
            loaderSource == nil || service.resourceAttributes == nil
        else {
            return nil
        }

        var chain = AnyLoader(checked: loader.built)
        var lines = [
            "service \"\(service.name)\": \(service.cache == nil ? "gate → loader" : "gate → cache → loader")"
        ]
        for (index, gate) in gates.compactMap({ $0 }).enumerated() {
            gate.line.render("  gatekeeper \(index + 1): ", into: &lines)
        }
        for (index, gate) in shadow.compactMap({ $0 }).enumerated() {
            gate.line.render("  shadow \(index + 1) (reported, not enforced): ", into: &lines)
        }
        if let cache = service.cache {
            chain = AnyLoader(
                CachingLoader(chain, countLimit: cache.countLimit ?? .max, byteLimit: cache.byteLimit ?? .max)
            )
            let limits = [cache.countLimit.map { "\($0) entries" }, cache.byteLimit.map { "\($0) bytes" }]
            lines.append(
                "  cache: LRU behind the gate, at most \(limits.compactMap { $0 }.joined(separator: " and "))"
            )
        }
        lines.append("  loader: \(loader.text)")
        var attributes = source.flatMap { $0 }.map { attributeSource in
            lines.append("  resource attributes: \(attributeSource.text)")
            return attributeSource.built.resourceAttributes
        }
        if let loaderSource {
            lines.append("  resource attributes: the loader's own")
            attributes = loaderSource.resourceAttributes
        }

        let gate = AccessGate(
            named: gates.compactMap { $0?.member }, shadow: shadow.compactMap { $0?.member },
            observer: run.observer, clock: clock, service: service.name, mask: mask,
            resourceAttributes: attributes)
        return ConfiguredService(
            name: service.name, proxy: AccessProxy(chain, gate: gate), description: lines)
    }
}

/// Two observers that both receive every record: the caller's, then the decision log.
struct ObserverPair: AccessObserver {
    let first: any AccessObserver
    let second: any AccessObserver

    func observe(_ record: AccessRecord) {
        first.observe(record)
        second.observe(record)
    }
}
