import Foundation
import GatehouseCore

/// One way of putting layers in front of a real loader (a gate, a cache, a call log), instrumented
/// so that each call can be traced through it.
struct Arrangement: Sendable {
    /// One layer a call passes through, from the caller inwards.
    enum Layer: Sendable {
        case gate
        case cache
        case log
        case loader
    }

    /// The short name shown on each line, such as `gate first`.
    let label: String
    /// The arrangement as code, such as `AccessProxy(CachingLoader(loader), gatekeepers: [grant])`.
    let expression: String
    /// The layers from the caller inwards, ending with the loader.
    let layers: [Layer]
    /// The outermost layer: what callers hold.
    let service: any ResourceLoading<String, Data>
    /// The real loader at the bottom.
    let loader: RecordingLoader
    /// The gate, counted; `nil` when the arrangement has none.
    var gate: CountingPolicy? = nil
    /// How many calls the call log has written down; `nil` when the arrangement has no log.
    var loggedCalls: (@Sendable () -> Int)? = nil

    /// Makes one call as `subject` (no subject when `nil`) and traces it through the layers.
    func call(_ key: String, as subject: String? = nil) async -> CallTrace {
        let gateBefore = gate?.count ?? 0
        let logBefore = loggedCalls?() ?? 0
        let loaderBefore = loader.receivedKeys.count
        let outcome: CallTrace.Outcome
        do {
            let data = try await AccessContext.$current.withValue(AccessContext(subject: subject)) {
                try await service.load(key)
            }
            outcome = .served(data)
        } catch let denial as AccessDenied {
            outcome = .denied(gate: denial.gatekeeper)
        } catch {
            outcome = .failed(String(describing: error))
        }
        return CallTrace(
            gateAsked: (gate?.count ?? 0) > gateBefore,
            logReached: (loggedCalls?() ?? 0) > logBefore,
            loaderReached: loader.receivedKeys.count > loaderBefore,
            outcome: outcome)
    }

    /// The path of a traced call through the layers in front of the loader, such as
    /// `cache miss, gate allows` or `cache hit, gate not asked`.
    func path(of trace: CallTrace) -> String {
        var steps: [String] = []
        for (index, layer) in layers.enumerated() {
            let deeper = layers[(index + 1)...]
            switch layer {
            case .gate:
                steps.append(trace.wasDenied ? "gate denies" : "gate allows")
                if trace.wasDenied { return steps.joined(separator: ", ") }
            case .cache:
                // A hit answers from the cache: nothing deeper was reached.
                let reachedDeeper =
                    trace.loaderReached || (deeper.contains(.gate) && trace.gateAsked)
                    || (deeper.contains(.log) && trace.logReached)
                if !reachedDeeper {
                    steps.append(deeper.contains(.gate) ? "cache hit, gate not asked" : "cache hit")
                    return steps.joined(separator: ", ")
                }
                steps.append("cache miss")
            case .log:
                steps.append("logged")
            case .loader:
                break
            }
        }
        return steps.joined(separator: ", ")
    }
}
