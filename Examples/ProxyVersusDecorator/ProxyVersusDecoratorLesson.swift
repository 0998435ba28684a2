import Foundation
import GatehouseCore
import GatehouseLoaders
import GatehousePolicies

/// The lesson, told call by call: a proxy controls *whether* the real loader is reached, a
/// decorator (a cache) changes *how*; and a cache in front of the gate keeps serving after access
/// is revoked. Every claim is checked; the checks that fail are returned.
@MainActor
final class ProxyVersusDecoratorLesson {
    private var violations: [String] = []
    private var checks = 0

    /// Tells the lesson and returns the violated invariants (none when the lesson holds).
    func run() async throws -> [String] {
        say(
            """
            Proxy versus decorator: what the real loader sees, call by call.
            A proxy decides WHETHER the real loader is reached; a decorator (a cache) changes HOW.
            Each cell shows the path of one call from the caller inwards, and in brackets the calls
            the real loader behind that column has seen so far. ANYWAY marks a call served although
            the gate's rule would deny it.
            """)
        try await sameCallsThroughAProxyAndADecorator()
        await revokedAccessWithTheCacheBehindOrInFrontOfTheGate()
        say("")
        say(
            """
            The lesson:
              - The proxy's loader saw only the allowed calls, each one: the gate decides whether.
              - The decorator's loader saw one call per miss, and the decorator served a private
                file: a cache changes how often the loader is reached and decides nothing.
              - Both salary caches held the same entry and their loaders saw the same single call;
                only the order decided whether a revoked caller was served. The safe order is
                AccessProxy(CachingLoader(loader)): the gate first, on every call.
            """)
        if violations.isEmpty {
            say("All \(checks) invariants of the lesson hold.")
        }
        return violations
    }

    private func sameCallsThroughAProxyAndADecorator() async throws {
        let allowList = CountingPolicy(try AllowList(resources: ["public/*"]))
        let proxyLoader = RecordingLoader()
        let proxy = Arrangement(
            title: "proxy",
            expression: "AccessProxy(loader, gatekeepers: [AllowList(resources: [\"public/*\"])])",
            layers: [.gate, .loader], service: AccessProxy(proxyLoader, gatekeepers: [allowList]),
            loader: proxyLoader, gate: allowList)
        let decoratorLoader = RecordingLoader()
        let decorator = Arrangement(
            title: "decorator", expression: "CachingLoader(loader, countLimit: 10)",
            layers: [.cache, .loader],
            service: CachingLoader(decoratorLoader, countLimit: 10), loader: decoratorLoader, gate: nil)

        say("")
        say("Part 1. The same six calls through a proxy and through a caching decorator.")
        let calls = [
            "public/a.png", "public/a.png", "private/salaries.csv", "public/b.png", "public/a.png",
            "public/b.png",
        ]
        var servedByDecorator: [String] = []
        var servedByProxy: [String] = []
        await compare(proxy, decorator, calls: calls.map { .call($0) }) { key in
            key.hasPrefix("public/")
        } record: { key, left, right in
            if left.wasServed { servedByProxy.append(key) }
            if right.wasServed { servedByDecorator.append(key) }
        }

        let allowed = calls.filter { $0.hasPrefix("public/") }
        say("  the proxy's loader saw:     \(list(proxyLoader.receivedKeys))")
        say("  the decorator's loader saw: \(list(decoratorLoader.receivedKeys))")
        say("  the gate was asked on \(allowList.count) of \(calls.count) calls; the decorator has no gate.")
        check(
            proxyLoader.receivedKeys == allowed,
            "the proxy's loader did not see exactly the allowed calls, in order, with their keys")
        check(allowList.count == calls.count, "the proxy's gate was not asked on every call")
        check(servedByProxy == allowed, "the proxy served something other than the allowed calls")
        check(
            decoratorLoader.receivedKeys == ["public/a.png", "private/salaries.csv", "public/b.png"],
            "the decorator's loader did not see exactly one call per miss")
        check(
            servedByDecorator.contains("private/salaries.csv"),
            "the decorator did not serve the private file, so the lesson shows nothing")
    }

    private func revokedAccessWithTheCacheBehindOrInFrontOfTheGate() async {
        let grant = RevocableGrant()
        let behindGate = CountingPolicy(grant)
        let behindLoader = RecordingLoader()
        let behind = Arrangement(
            title: "cache BEHIND the gate",
            expression: "AccessProxy(CachingLoader(loader), gatekeepers: [grant])",
            layers: [.gate, .cache, .loader],
            service: AccessProxy(CachingLoader(behindLoader, countLimit: 10), gatekeepers: [behindGate]),
            loader: behindLoader, gate: behindGate)
        let frontGate = CountingPolicy(grant)
        let frontLoader = RecordingLoader()
        let front = Arrangement(
            title: "cache IN FRONT of the gate",
            expression: "CachingLoader(AccessProxy(loader, gatekeepers: [grant]))",
            layers: [.cache, .gate, .loader],
            service: CachingLoader(AccessProxy(frontLoader, gatekeepers: [frontGate]), countLimit: 10),
            loader: frontLoader, gate: frontGate)

        say("")
        say("Part 2. Revoked access: the same cache behind the gate and in front of it.")
        var servedAfterRevocation = (behind: 0, front: 0)
        var callsAfterRevocation = 0
        await compare(
            behind, front,
            calls: [
                .call("salaries.csv"), .call("salaries.csv"), .event("access revoked", grant.revoke),
                .call("salaries.csv"), .call("salaries.csv"), .call("bonus.csv"),
            ]
        ) { _ in
            grant.isGranted
        } record: { _, left, right in
            guard !grant.isGranted else { return }
            callsAfterRevocation += 1
            if left.wasServed { servedAfterRevocation.behind += 1 }
            if right.wasServed { servedAfterRevocation.front += 1 }
        }

        say("  the left loader saw:  \(list(behindLoader.receivedKeys))")
        say("  the right loader saw: \(list(frontLoader.receivedKeys))")
        say(
            "  the gate was asked on \(behindGate.count) of 5 calls on the left, \(frontGate.count) of 5 on the right."
        )
        say(
            "  served after revocation: \(servedAfterRevocation.behind) of \(callsAfterRevocation) on the left, "
                + "\(servedAfterRevocation.front) of \(callsAfterRevocation) on the right.")
        check(servedAfterRevocation.behind == 0, "the cache behind the gate served a call after revocation")
        check(behindGate.count == 5, "the gate in front of the cache was not asked on every call")
        check(
            servedAfterRevocation.front == 2,
            "the cache in front of the gate did not serve the revoked file twice, so the hazard is not shown")
        check(frontGate.count == 2, "the gate behind the cache was asked on a hit")
        check(
            behindLoader.receivedKeys == ["salaries.csv"] && frontLoader.receivedKeys == ["salaries.csv"],
            "the two loaders did not see the same single call")
        check(callsAfterRevocation == 3, "the lesson did not make three calls after revocation")
    }

    /// A call to make in both arrangements, or something that happens between calls.
    enum Step {
        case call(String)
        case event(String, @Sendable () -> Void)
    }

    private func compare(
        _ left: Arrangement, _ right: Arrangement, calls steps: [Step],
        permitted: (String) -> Bool,
        record: (String, CallTrace, CallTrace) -> Void
    ) async {
        say("  left:  \(left.title) = \(left.expression)")
        say("  right: \(right.title) = \(right.expression)")
        say("")
        for line in SideBySideTable.header(left: left.title, right: right.title) { say(line) }
        var number = 0
        for step in steps {
            switch step {
            case .event(let text, let happen):
                happen()
                say(SideBySideTable.event(text))
            case .call(let key):
                number += 1
                let isPermitted = permitted(key)
                let leftTrace = await left.call(key)
                let rightTrace = await right.call(key)
                say(
                    SideBySideTable.row(
                        number, call: key,
                        left: cell(left, leftTrace, permitted: isPermitted),
                        right: cell(right, rightTrace, permitted: isPermitted)))
                record(key, leftTrace, rightTrace)
            }
        }
        say("")
    }

    private func cell(_ arrangement: Arrangement, _ trace: CallTrace, permitted: Bool) -> String {
        let anyway = trace.wasServed && !permitted ? " ANYWAY" : ""
        return arrangement.path(of: trace) + anyway + " [\(trace.loaderCalls)]"
    }

    private func list(_ keys: [String]) -> String {
        "\(keys.joined(separator: ", ")) (\(keys.count) call\(keys.count == 1 ? "" : "s"))"
    }

    private func check(_ condition: Bool, _ violation: String) {
        checks += 1
        if !condition { violations.append(violation) }
    }

    private func say(_ text: String) {
        print(text)
    }
}
