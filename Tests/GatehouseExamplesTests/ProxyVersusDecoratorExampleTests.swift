import Foundation
import Testing

@Suite("proxy-vs-decorator example")
struct ProxyVersusDecoratorExampleTests {
    /// The lines of part `number`, from its title to the line before the next part or the lesson.
    static func part(_ number: Int, of run: ExampleRun) -> [String] {
        let lines = run.stdout.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix("Part \(number). ") }) else { return [] }
        let rest = lines[(start + 1)...]
        let end = rest.firstIndex { $0.hasPrefix("Part ") || $0.hasPrefix("The lesson:") } ?? lines.endIndex
        return Array(lines[start..<end])
    }

    /// The call lines of part `number`, the event lines between them included: the lines from
    /// the column titles (left out) to the first blank line.
    static func calls(_ number: Int, of run: ExampleRun) -> [String] {
        let lines = part(number, of: run)
        guard let header = lines.firstIndex(where: { $0.hasPrefix("  #  call") }) else { return [] }
        return Array(lines[(header + 1)...].prefix { !$0.isEmpty })
    }

    /// The summary table of part `number`: the lines from its column titles to the next blank line.
    static func summary(_ number: Int, of run: ExampleRun) -> [String] {
        let lines = part(number, of: run)
        guard let header = lines.firstIndex(where: { $0.hasPrefix("  through ") }) else { return [] }
        return Array(lines[header...].prefix { !$0.isEmpty })
    }

    @Test func theLessonHoldsAndExitsZero() async throws {
        let run = try await Examples.run("proxy-vs-decorator", [])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(run.stdout.hasSuffix("\nAll 16 expectations of the lesson hold.\n"))
    }

    @Test func everyLineFitsInOneHundredColumns() async throws {
        let run = try await Examples.run("proxy-vs-decorator", [])
        for line in run.stdout.components(separatedBy: "\n") {
            #expect(line.count <= 100, "\(line.count) columns: \(line)")
        }
    }

    @Test func everyCallLineSaysWhetherTheLoaderWasReached() async throws {
        let run = try await Examples.run("proxy-vs-decorator", [])
        let lines = (1...4).flatMap { Self.calls($0, of: run) }.filter { !$0.contains("--") }
        // Two lines for each of the 6 + 4 + 5 + 3 calls of the four parts.
        let expectedLines: Int = 2 * (6 + 4 + 5 + 3)
        #expect(lines.count == expectedLines)
        for line in lines {
            #expect(line.contains(" loader reached ") || line.contains(" loader not reached "), "\(line)")
        }
    }

    @Test func noCallLineBlamesTheCacheOrCarriesARunningTotal() async throws {
        let run = try await Examples.run("proxy-vs-decorator", [])
        #expect(!run.stdout.contains("ANYWAY"))
        for line in (1...4).flatMap({ Self.calls($0, of: run) }) {
            #expect(!line.contains("["), "\(line)")
        }
    }

    @Test func theProxyDecidesWhetherAndTheDecoratorHowCallByCall() async throws {
        let run = try await Examples.run("proxy-vs-decorator", [])
        #expect(
            Self.calls(1, of: run) == [
                "  1  public/a.png          proxy        gate allows                loader reached      served",
                "                           decorator    cache miss                 loader reached      served",
                "  2  public/a.png          proxy        gate allows                loader reached      served",
                "                           decorator    cache hit                  loader not reached  served",
                "  3  private/salaries.csv  proxy        gate denies                loader not reached  AccessDenied",
                "                           decorator    cache miss                 loader reached      served",
                "  4  public/b.png          proxy        gate allows                loader reached      served",
                "                           decorator    cache miss                 loader reached      served",
                "  5  public/a.png          proxy        gate allows                loader reached      served",
                "                           decorator    cache hit                  loader not reached  served",
                "  6  public/b.png          proxy        gate allows                loader reached      served",
                "                           decorator    cache hit                  loader not reached  served",
            ])
        #expect(
            Self.summary(1, of: run) == [
                "  through    calls  loader reached  served  AccessDenied  gate asked",
                "  proxy          6               5       5             1           6",
                "  decorator      6               3       6             0     no gate",
            ])
    }

    @Test func twoStackedDecoratorsServeTheSameInEitherOrder() async throws {
        let run = try await Examples.run("proxy-vs-decorator", [])
        let part = Self.part(2, of: run)
        #expect(part.contains("  log first:    CallLog(CachingLoader(loader, countLimit: 10))"))
        #expect(part.contains("  cache first:  CachingLoader(CallLog(loader), countLimit: 10)"))
        #expect(
            Self.calls(2, of: run).suffix(2) == [
                "  4  public/a.png          log first    logged, cache hit          loader not reached  served",
                "                           cache first  cache hit                  loader not reached  served",
            ])
        #expect(
            Self.summary(2, of: run) == [
                "  through      calls  loader reached  served  AccessDenied  logged",
                "  log first        4               2       4             0       4",
                "  cache first      4               2       4             0       2",
            ])
    }

    @Test func aCacheInFrontOfTheGateKeepsServingAfterRevocationWhileBehindItDenies() async throws {
        let run = try await Examples.run("proxy-vs-decorator", [])
        #expect(
            Array(Self.calls(3, of: run).dropFirst(4)) == [
                "     -- access revoked --",
                "  3  salaries.csv          gate first   gate denies                loader not reached  AccessDenied",
                "                           cache first  cache hit, gate not asked  loader not reached  served",
                "  4  salaries.csv          gate first   gate denies                loader not reached  AccessDenied",
                "                           cache first  cache hit, gate not asked  loader not reached  served",
                "  5  bonus.csv             gate first   gate denies                loader not reached  AccessDenied",
                "                           cache first  cache miss, gate denies    loader not reached  AccessDenied",
            ])
        #expect(
            Self.summary(3, of: run) == [
                "  through      calls  loader reached  served  AccessDenied  gate asked",
                "  gate first       5               1       2             3           5",
                "  cache first      5               1       4             1           2",
            ])
    }

    @Test func aCacheInFrontOfTheGateServesAlicesAvatarToBobWhileBehindItRefusesHim() async throws {
        let run = try await Examples.run("proxy-vs-decorator", [])
        #expect(
            Self.calls(4, of: run) == [
                "  1  alice: avatars/alice  gate first   gate allows, cache miss    loader reached      served",
                "                           cache first  cache miss, gate allows    loader reached      served",
                "  2  bob: avatars/alice    gate first   gate denies                loader not reached  AccessDenied",
                "                           cache first  cache hit, gate not asked  loader not reached  served",
                "  3  bob: avatars/bob      gate first   gate allows, cache miss    loader reached      served",
                "                           cache first  cache miss, gate allows    loader reached      served",
            ])
        #expect(Self.part(4, of: run).contains { $0.contains("bob got the bytes alice loaded") })
    }

    @Test func theLessonIsTheSameOnEveryRun() async throws {
        let first = try await Examples.run("proxy-vs-decorator", [])
        let second = try await Examples.run("proxy-vs-decorator", [])
        #expect(first.stdout == second.stdout)
    }

    @Test func aStrayArgumentIsAUsageErrorExitingTwo() async throws {
        let run = try await Examples.run("proxy-vs-decorator", ["--fast"])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "error: unexpected argument \"--fast\"; proxy-vs-decorator takes none\n")
    }

    @Test func helpPrintsUsageAndExitsZero() async throws {
        let run = try await Examples.run("proxy-vs-decorator", ["--help"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("usage: proxy-vs-decorator\n"))
    }
}
