import GatehouseCommandLine
import GatehouseComposition

/// The `gatehouse` command with the built-in plugin types and its `sqlite` loader: see
/// `gatehouse help` and docs/cli.md.
@main
struct GatehouseMain {
    static func main() async {
        await GatehouseCommand.main(registry: .command)
    }
}
