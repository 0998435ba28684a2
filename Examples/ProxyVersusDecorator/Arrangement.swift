import Foundation
import GatehouseCore

/// One way of putting layers in front of a real loader (a gate, a cache, or both), instrumented
/// so that each call can be traced through it.
struct Arrangement: Sendable {
    /// One layer a call passes through, from the caller inwards.
    enum Layer: Sendable {
        case gate
        case cache
        case loader
    }

    /// The column title, such as `cache behind the gate`.
    let title: String
    /// The arrangement as code, such as `AccessProxy(CachingLoader(loader))`.
    let expression: String
    /// The layers from the caller inwards, ending with the loader.
    let layers: [Layer]
    /// The outermost layer: what callers hold.
    let service: any ResourceLoading<String, Data>
    /// The real loader at the bottom.
    let loader: RecordingLoader
    /// The gate, counted; `nil` when the arrangement has none.
    let gate: CountingPolicy?

    /// Makes one call and traces what happened in each layer.
    func call(_ key: String) async -> CallTrace {
        let gateBefore = gate?.count ?? 0
        let loaderBefore = loader.receivedKeys.count
        let outcome: CallTrace.Outcome
        do {
            outcome = .served(try await service.load(key))
        } catch let denial as AccessDenied {
            outcome = .denied(denial)
        } catch {
            outcome = .failed(String(describing: error))
        }
        return CallTrace(
            gateAsked: (gate?.count ?? 0) > gateBefore,
            loaderCalled: loader.receivedKeys.count > loaderBefore,
            loaderCalls: loader.receivedKeys.count,
            outcome: outcome)
    }

    /// The path of a traced call through the layers, such as `gate allows > miss > loader > served`.
    func path(of trace: CallTrace) -> String {
        var steps: [String] = []
        walk: for (index, layer) in layers.enumerated() {
            switch layer {
            case .gate:
                if case .denied = trace.outcome {
                    steps.append("gate denies")
                    break walk
                }
                steps.append("gate allows")
            case .cache:
                // A hit answers from the cache: nothing deeper (gate or loader) was reached.
                let deeperGate = layers[(index + 1)...].contains(.gate)
                if !trace.loaderCalled && !(deeperGate && trace.gateAsked) {
                    steps.append("hit")
                    break walk
                }
                steps.append("miss")
            case .loader:
                steps.append("loader")
            }
        }
        switch trace.outcome {
        case .served: steps.append("served")
        case .denied: steps.append("AccessDenied")
        case .failed(let error): steps.append("error \(error)")
        }
        return steps.joined(separator: " > ")
    }
}
