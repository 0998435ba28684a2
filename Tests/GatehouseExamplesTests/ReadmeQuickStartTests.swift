import Foundation
import GatehouseTestSupport
import Testing

/// README's quick start compiles exactly as written, as the `main.swift` of an app.
@Suite("README's quick start")
struct ReadmeQuickStartTests {
    /// The first `swift` block under `## Quick start` in README.md.
    static func quickStart() throws -> String {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "\n## Quick start\n"))
        let rest = readme[section.upperBound...]
        let open = try #require(rest.range(of: "```swift\n"))
        let close = try #require(rest[open.upperBound...].range(of: "\n```"))
        return String(rest[open.upperBound..<close.lowerBound])
    }

    @Test func theQuickStartCompilesAsWritten() async throws {
        let source = try Self.quickStart()
        #expect(source.contains("PhotoLibraryPolicy()"))
        let result = try await typecheck(source)
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.errorLines.isEmpty)
    }
}
