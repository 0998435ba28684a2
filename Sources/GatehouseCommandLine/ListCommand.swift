import Foundation
import GatehouseComposition
import GatehouseCore

/// `gatehouse list`: the keys under a folder that the subject may read.
enum List: RequestCommand {
    static let name = "list"
    static let abstract = "list the keys under a folder that the subject may read, one a line"
    static let options = RequestOptions.all(
        refusingAction: "list asks the action list on the folder, then read on each key")
    static let positionals = ["PREFIX"]
    static let discussion = """
        PREFIX names a folder: "docs" or "docs/"; "" or "/" is the root. The folder is asked as
        action list; each key as action read, and a key that may not be read is left out, unseen.

        Exit status: 0 listed (even when nothing may be read), 3 listing denied, 1 error, 2 usage error.
        """

    static func run(_ request: PreparedRequest) async -> ExitStatus {
        // A folder may be written with a trailing slash ("docs/"); "/" alone is the root.
        let folder = request.key.hasSuffix("/") ? String(request.key.dropLast()) : request.key
        var report = request.report(name, action: "list", key: folder)
        let progress = request.commands.console.progress("listing \(printable(request.key))")
        do {
            defer { progress.finish() }
            report.keys = try await request.service.keys(under: folder)
        } catch {
            return request.finish(report, after: error)
        }
        report.allowed = true
        guard request.json else {
            for key in report.keys ?? [] { request.commands.console.out(printable(key)) }
            return .ok
        }
        return request.finish(report, status: .ok)
    }
}
