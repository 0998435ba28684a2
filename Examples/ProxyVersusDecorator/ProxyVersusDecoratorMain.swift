import Foundation

/// `proxy-vs-decorator`: the lesson, see docs/examples.md and docs/proxy-vs-decorator.md.
/// Exit status 0 when every invariant of the lesson held, 1 otherwise, 2 for a usage error.
@main
struct ProxyVersusDecoratorMain {
    @MainActor
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments == ["-h"] || arguments == ["--help"] {
            print(
                """
                usage: proxy-vs-decorator

                Prints, side by side, what the real loader sees through a proxy and through a caching
                decorator, and the revoked-access hazard of a cache in front of the gate. Exits 0 when
                every invariant of the lesson held, 1 otherwise.
                """)
            exit(0)
        }
        guard arguments.isEmpty else {
            FileHandle.standardError.write(
                Data("error: unexpected argument \"\(arguments[0])\"; proxy-vs-decorator takes none\n".utf8))
            exit(2)
        }
        do {
            let violations = try await ProxyVersusDecoratorLesson().run()
            for violation in violations {
                FileHandle.standardError.write(Data("invariant broken: \(violation)\n".utf8))
            }
            exit(violations.isEmpty ? 0 : 1)
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            exit(1)
        }
    }
}
