import Foundation

/// The `gatehouse` command: see `gatehouse help` and docs/cli.md.
@main
struct GatehouseMain {
    static func main() async {
        let status = await Commands(console: .standard).run(Array(CommandLine.arguments.dropFirst()))
        exit(status.rawValue)
    }
}
