import Foundation

/// `proxy-vs-decorator`: the lesson, see docs/examples.md and the article `ProxyVersusDecorator`
/// in GatehouseCore's DocC catalog. Exit status 0 when every expectation of the lesson held, 1
/// otherwise (each broken one on standard error), 2 for a usage error.
@main
struct ProxyVersusDecoratorMain {
    @MainActor
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments == ["-h"] || arguments == ["--help"] {
            print(
                """
                usage: proxy-vs-decorator

                Shows, call by call, what the real loader sees through a proxy (AccessProxy) and through
                decorators (CachingLoader, CallLog): a proxy beside a cache, two decorators stacked, and
                the same gate and cache in both orders, with access revoked and with two subjects. Exits 0
                when every expectation of the lesson held, 1 otherwise.
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
                FileHandle.standardError.write(Data("expectation broken: \(violation)\n".utf8))
            }
            exit(violations.isEmpty ? 0 : 1)
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            exit(1)
        }
    }
}
