import Foundation
import GatehouseCore
import GatehouseLoaders
import GatehousePolicies

/// The lesson, told call by call: a proxy controls *whether* the real loader is reached, a
/// decorator changes *how*; two decorators stack in either order and never refuse anything; and
/// a cache placed in front of the gate keeps serving after access is revoked and serves one
/// subject's resource to another. Every claim is checked; the broken ones are returned.
@MainActor
final class ProxyVersusDecoratorLesson {
    private var broken: [String] = []
    private var checks = 0

    /// Tells the lesson and returns the expectations that did not hold (none when it holds).
    func run() async throws -> [String] {
        say(
            """
            Proxy versus decorator: what the real loader sees, call by call.

            A proxy (AccessProxy) decides WHETHER a call reaches the real loader. A decorator (here
            CachingLoader and CallLog) changes HOW it is reached, and decides nothing. Each line is
            one call through one arrangement: the path it took from the caller inwards, whether
            the real loader was reached, and what the caller got. Each part ends with a summary,
            one row per arrangement: calls made, calls that reached the loader, calls served,
            calls refused with AccessDenied, and decisions the gate made (or calls logged).
            """)
        try await proxyBesideDecorator()
        await twoDecoratorsStacked()
        await revokedAccess()
        try await oneSubjectsResourceServedToAnother()
        say("")
        say(
            """
            The lesson:
              - Part 1: the gate decided whether; the cache only changed how often the loader was
                reached. It served the private file because deciding is not its job.
              - Part 2: two decorators stack in either order and the caller gets the same answers;
                the order changes only what the log sees.
              - Parts 3 and 4: the same gate and cache, in two orders. With the cache in front,
                a hit never asks the gate: revoked access is served, and bob gets alice's
                avatar. The safe order is AccessProxy(CachingLoader(loader)): the gate first.
            """)
        if broken.isEmpty {
            say("All \(checks) expectations of the lesson hold.")
        }
        return broken
    }

    // MARK: - Part 1

    private func proxyBesideDecorator() async throws {
        let allowList = CountingPolicy(try AllowList(resources: ["public/*"]))
        let proxyLoader = RecordingLoader()
        let proxy = Arrangement(
            label: "proxy",
            expression: "AccessProxy(loader, gatekeepers: [AllowList(resources: [\"public/*\"])])",
            layers: [.gate, .loader], service: AccessProxy(proxyLoader, gatekeepers: [allowList]),
            loader: proxyLoader, gate: allowList)
        let cacheLoader = RecordingLoader()
        let decorator = Arrangement(
            label: "decorator", expression: "CachingLoader(loader, countLimit: 10)",
            layers: [.cache, .loader], service: CachingLoader(cacheLoader, countLimit: 10),
            loader: cacheLoader)

        part(1, "The same six calls through a proxy and through a decorator (a cache).", [proxy, decorator])
        let keys = [
            "public/a.png", "public/a.png", "private/salaries.csv", "public/b.png", "public/a.png",
            "public/b.png",
        ]
        let traces = await calls(keys.map { .call($0) }, through: [proxy, decorator])
        summary(traces, of: [proxy, decorator])

        let allowed = keys.filter { $0.hasPrefix("public/") }
        expect(
            proxyLoader.receivedKeys == allowed, "the proxy's loader saw exactly the allowed calls, in order")
        expect(allowList.count == keys.count, "the proxy's gate was asked on every call")
        expect(
            traces[0].filter(\.wasServed).count == allowed.count, "the proxy served only the allowed calls")
        expect(
            cacheLoader.receivedKeys == ["public/a.png", "private/salaries.csv", "public/b.png"],
            "the cache's loader saw exactly one call per miss")
        expect(traces[1][2].wasServed, "the cache served the private file: it has no rule to apply")
    }

    // MARK: - Part 2

    private func twoDecoratorsStacked() async {
        let logOutsideLoader = RecordingLoader()
        let logOutside = CallLog(CachingLoader(logOutsideLoader, countLimit: 10))
        let logFirst = Arrangement(
            label: "log first", expression: "CallLog(CachingLoader(loader, countLimit: 10))",
            layers: [.log, .cache, .loader], service: logOutside, loader: logOutsideLoader,
            loggedCalls: { logOutside.loggedKeys.count })
        let logInsideLoader = RecordingLoader()
        let logInside = CallLog(logInsideLoader)
        let cacheFirst = Arrangement(
            label: "cache first", expression: "CachingLoader(CallLog(loader), countLimit: 10)",
            layers: [.cache, .log, .loader], service: CachingLoader(logInside, countLimit: 10),
            loader: logInsideLoader, loggedCalls: { logInside.loggedKeys.count })

        part(2, "Two decorators stacked, in both orders: a call log and a cache.", [logFirst, cacheFirst])
        let keys = ["public/a.png", "public/b.png", "public/a.png", "public/a.png"]
        let traces = await calls(keys.map { .call($0) }, through: [logFirst, cacheFirst])
        summary(traces, of: [logFirst, cacheFirst], logged: true)

        expect(
            traces[0].map(\.outcome) == traces[1].map(\.outcome) && traces[0].allSatisfy(\.wasServed),
            "both stacks served every call, with the same bytes")
        expect(
            logOutsideLoader.receivedKeys == ["public/a.png", "public/b.png"]
                && logInsideLoader.receivedKeys == logOutsideLoader.receivedKeys,
            "both loaders saw the same two misses")
        expect(
            logOutside.loggedKeys == keys && logInside.loggedKeys == ["public/a.png", "public/b.png"],
            "the log outside the cache saw every call, the log inside it only the misses")
    }

    // MARK: - Part 3

    private func revokedAccess() async {
        let grant = RevocableGrant()
        let (gateFirst, gateFirstGate) = Self.gateFirst(grant, expression: "grant")
        let (cacheFirst, cacheFirstGate) = Self.cacheFirst(grant, expression: "grant")

        part(
            3, "Access revoked: the same cache behind the gate and in front of it.", [gateFirst, cacheFirst],
            where: "grant = a gate of our own that allows until access is revoked")
        let traces = await calls(
            [
                .call("salaries.csv"), .call("salaries.csv"), .event("access revoked", grant.revoke),
                .call("salaries.csv"), .call("salaries.csv"), .call("bonus.csv"),
            ], through: [gateFirst, cacheFirst])
        summary(traces, of: [gateFirst, cacheFirst])

        let afterRevocation = traces.map { Array($0.dropFirst(2)) }
        expect(
            !afterRevocation[0].contains(where: \.wasServed), "gate first: nothing served after revocation")
        expect(gateFirstGate.count == 5, "gate first: the gate was asked on every call")
        expect(
            afterRevocation[1].map(\.wasServed) == [true, true, false],
            "cache first: the cached file was served twice after revocation, the uncached one refused")
        expect(cacheFirstGate.count == 2, "cache first: the gate was asked only on the two misses")
        expect(
            gateFirst.loader.receivedKeys == ["salaries.csv"]
                && cacheFirst.loader.receivedKeys == ["salaries.csv"],
            "both loaders saw the same single call")
    }

    // MARK: - Part 4

    private func oneSubjectsResourceServedToAnother() async throws {
        let ownAvatar = try RulesPolicy(text: "allow * read avatars/{subject}\n", name: "ownAvatar")
        let (gateFirst, _) = Self.gateFirst(ownAvatar, expression: "ownAvatar")
        let (cacheFirst, _) = Self.cacheFirst(ownAvatar, expression: "ownAvatar")

        part(
            4, "Two subjects, each allowed to read only their own avatar.", [gateFirst, cacheFirst],
            where: "ownAvatar = try RulesPolicy(text: \"allow * read avatars/{subject}\")")
        let traces = await calls(
            [
                .call("avatars/alice", as: "alice"), .call("avatars/alice", as: "bob"),
                .call("avatars/bob", as: "bob"),
            ], through: [gateFirst, cacheFirst])
        summary(traces, of: [gateFirst, cacheFirst])
        say(
            """

              Call 2 through cache first: bob got the bytes alice loaded. The cache's key is the
              resource key alone, with no subject in it, so whatever one subject was allowed to
              load is served to every subject who asks for the same key: a leak between users,
              not only a late revocation.
            """)

        let alices = RecordingLoader.contents(of: "avatars/alice")
        expect(traces[0][1].wasDenied, "gate first: bob was refused alice's avatar")
        expect(
            traces[1][1].outcome == .served(alices) && !traces[1][1].loaderReached,
            "cache first: bob was served alice's avatar from the cache")
        expect(
            gateFirst.loader.receivedKeys == ["avatars/alice", "avatars/bob"]
                && cacheFirst.loader.receivedKeys == gateFirst.loader.receivedKeys,
            "both loaders saw only alice's and bob's own avatars")
    }

    // MARK: - Arrangements

    /// `AccessProxy(CachingLoader(loader))`: the safe order.
    private static func gateFirst(_ policy: any AccessPolicy, expression: String) -> (
        Arrangement, CountingPolicy
    ) {
        let gate = CountingPolicy(policy)
        let loader = RecordingLoader()
        let arrangement = Arrangement(
            label: "gate first",
            expression: "AccessProxy(CachingLoader(loader, countLimit: 10), gatekeepers: [\(expression)])",
            layers: [.gate, .cache, .loader],
            service: AccessProxy(CachingLoader(loader, countLimit: 10), gatekeepers: [gate]), loader: loader,
            gate: gate)
        return (arrangement, gate)
    }

    /// `CachingLoader(AccessProxy(loader))`: the hazard. It does not compile as written, so it is
    /// built through `HiddenGate`.
    private static func cacheFirst(_ policy: any AccessPolicy, expression: String) -> (
        Arrangement, CountingPolicy
    ) {
        let gate = CountingPolicy(policy)
        let loader = RecordingLoader()
        let arrangement = Arrangement(
            label: "cache first",
            expression: "CachingLoader(AccessProxy(loader, gatekeepers: [\(expression)]), countLimit: 10)",
            layers: [.cache, .gate, .loader],
            service: CachingLoader(
                HiddenGate(base: AccessProxy(loader, gatekeepers: [gate])), countLimit: 10), loader: loader,
            gate: gate)
        return (arrangement, gate)
    }

    // MARK: - Telling

    /// A call to make in every arrangement, or something that happens between calls.
    enum Step {
        case call(String, subject: String?)
        case event(String, @Sendable () -> Void)

        static func call(_ key: String, as subject: String? = nil) -> Step {
            .call(key, subject: subject)
        }
    }

    private func part(
        _ number: Int, _ title: String, _ arrangements: [Arrangement], where definition: String? = nil
    ) {
        say("")
        say("Part \(number). \(title)")
        let width = arrangements.map(\.label.count).max() ?? 0
        for arrangement in arrangements {
            let label =
                arrangement.label + ":" + String(repeating: " ", count: width - arrangement.label.count)
            say("  \(label)  \(arrangement.expression)")
        }
        if let definition {
            say("  where \(definition)")
        }
        say("")
        say(CallTable.header)
    }

    /// Makes every call through every arrangement, prints a line for each, and returns the
    /// traces, one list per arrangement.
    private func calls(_ steps: [Step], through arrangements: [Arrangement]) async -> [[CallTrace]] {
        var traces = Array(repeating: [CallTrace](), count: arrangements.count)
        var number = 0
        for step in steps {
            switch step {
            case .event(let text, let happen):
                happen()
                say(CallTable.event(text))
            case .call(let key, let subject):
                number += 1
                let call = subject.map { "\($0): \(key)" } ?? key
                for (index, arrangement) in arrangements.enumerated() {
                    let trace = await arrangement.call(key, as: subject)
                    traces[index].append(trace)
                    say(
                        CallTable.row(
                            number: index == 0 ? number : nil, call: call, label: arrangement.label,
                            path: arrangement.path(of: trace), loaderReached: trace.loaderReached,
                            result: result(trace.outcome)))
                }
            }
        }
        return traces
    }

    private func result(_ outcome: CallTrace.Outcome) -> String {
        switch outcome {
        case .served: "served"
        case .denied: "AccessDenied"
        case .failed(let error): "error: \(error)"
        }
    }

    /// The summary of a part: what each arrangement did over all its calls, in named columns.
    private func summary(_ traces: [[CallTrace]], of arrangements: [Arrangement], logged: Bool = false) {
        var titles = ["through", "calls", "loader reached", "served", "AccessDenied"]
        titles.append(logged ? "logged" : "gate asked")
        let rows = zip(arrangements, traces).map { arrangement, calls in
            var row = [
                arrangement.label, "\(calls.count)", "\(calls.filter(\.loaderReached).count)",
                "\(calls.filter(\.wasServed).count)", "\(calls.filter(\.wasDenied).count)",
            ]
            if logged {
                row.append("\(calls.filter(\.logReached).count)")
            } else {
                row.append(arrangement.gate == nil ? "no gate" : "\(calls.filter(\.gateAsked).count)")
            }
            return row
        }
        say("")
        for line in CallTable.summary(titles, rows) { say(line) }
    }

    private func expect(_ condition: Bool, _ expectation: String) {
        checks += 1
        if !condition { broken.append(expectation) }
    }

    private func say(_ text: String) {
        print(text)
    }
}
