import Foundation
import GatehouseComposition
import GatehouseCore

/// `gatehouse remove`: deletes through the gate, action `delete`.
enum Remove: RequestCommand {
    static let name = "remove"
    static let abstract =
        "delete a resource through the gate (action delete): the loader is reached only if allowed"
    static let options = RequestOptions.all(refusingAction: "remove always asks the action delete")
    static let discussion =
        "Exit status: 0 removed, 3 denied, 1 error (configuration, loader), 2 usage error."

    static func run(_ request: PreparedRequest) async -> ExitStatus {
        var report = request.report(name, action: "delete")
        do {
            try await request.service.remove(request.key)
        } catch {
            return request.finish(report, after: error)
        }
        report.allowed = true
        return request.finish(report, status: .ok) { "removed: \($0.requestInService)" }
    }
}
