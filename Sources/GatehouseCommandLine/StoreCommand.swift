import Foundation
import GatehouseComposition
import GatehouseCore

/// `gatehouse store`: writes standard input (or `--input`) through the gate, action `write`.
enum Store: RequestCommand {
    static let name = "store"
    static let abstract =
        "write a resource through the gate (action write): the loader is reached only if allowed"
    static let options = RequestOptions.all(
        [
            .init(
                name: "input", valueName: "FILE",
                help: "read the resource from FILE instead of standard input")
        ],
        refusingAction: "store always asks the action write")
    static let discussion = """
        Reads the resource from standard input, or --input FILE: at most 64 MiB (67108864 bytes);
        a larger or endless input (/dev/zero) stops there and nothing is stored (exit status 1).

        Exit status: 0 stored, 3 denied, 1 error (configuration, loader, input over 64 MiB),
        2 usage error (also an input that cannot be read or is a folder).
        """

    static func run(_ request: PreparedRequest) async -> ExitStatus {
        var report = request.report(name, action: "write")
        let data: Data
        do throws(StoreInput.Failure) {
            data = try StoreInput.contents(of: request.arguments.value("input"))
        } catch {
            guard error.status == .error else {
                return request.commands.usage(error.message, json: request.json)
            }
            report.error = error.message
            return request.finish(report, status: .error)
        }
        do {
            try await request.service.store(data, for: request.key)
        } catch {
            return request.finish(report, after: error)
        }
        report.allowed = true
        report.bytes = data.count
        return request.finish(report, status: .ok) { "stored \(data.count) bytes: \($0.requestInService)" }
    }
}
