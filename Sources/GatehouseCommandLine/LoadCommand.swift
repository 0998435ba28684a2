import Foundation
import GatehouseComposition
import GatehouseCore

/// `gatehouse load`: loads through the gate.
enum Load: RequestCommand {
    static let name = "load"
    static let abstract =
        "load a resource through the gate: the loader is reached only if every gatekeeper allows"
    static let options = RequestOptions.all([
        .init(
            name: "output", valueName: "FILE", help: "write the resource to FILE instead of standard output")
    ])
    static let discussion = """
        Exit status: 0 loaded, 3 denied, 1 error (configuration, loader, output), 2 usage error.
        Example: gatehouse load --config Examples/demo/gatehouse.json --subject alice --at 2026-11-30T10:00:00Z avatars/alice.txt
        """

    static func run(_ request: PreparedRequest) async -> ExitStatus {
        var report = request.report(name, action: request.action)
        let data: Data
        do {
            data = try await request.service.load(request.key, action: request.action)
        } catch {
            return request.finish(report, after: error)
        }
        report.allowed = true
        report.bytes = data.count
        if let output = request.arguments.value("output") {
            do {
                try data.write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                report.error = "cannot write \(output): \(describe(error))"
                return request.finish(report, status: .error)
            }
            report.output = output
            return request.finish(report, status: .ok) {
                "loaded \(data.count) bytes to \(printable(output)): \($0.requestText)"
            }
        }
        guard request.json else {
            request.commands.console.outData(data)
            return .ok
        }
        report.content = String(data: data, encoding: .utf8)
        if report.content == nil { report.contentBase64 = data.base64EncodedString() }
        return request.finish(report, status: .ok)
    }
}
