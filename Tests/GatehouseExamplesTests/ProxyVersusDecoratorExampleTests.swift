import Foundation
import Testing

@Suite("proxy-vs-decorator example")
struct ProxyVersusDecoratorExampleTests {
    /// The rows of the two side-by-side tables, in order (lines that start with a call number).
    static func rows(of run: ExampleRun) -> [String] {
        run.stdout.components(separatedBy: "\n").filter {
            $0.first == " " && $0.dropFirst().first?.isNumber == true
        }
    }

    @Test func theLessonHoldsAndExitsZero() throws {
        let run = try Examples.run("proxy-vs-decorator", [])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(run.stdout.hasSuffix("\nAll 11 invariants of the lesson hold.\n"))
    }

    @Test func theProxyDecidesWhetherAndTheDecoratorHowCallByCall() throws {
        let run = try Examples.run("proxy-vs-decorator", [])
        #expect(
            Self.rows(of: run).prefix(6) == [
                " 1  public/a.png           | gate allows > loader > served [1]          | miss > loader > served [1]",
                " 2  public/a.png           | gate allows > loader > served [2]          | hit > served [1]",
                " 3  private/salaries.csv   | gate denies > AccessDenied [2]             | miss > loader > served ANYWAY [2]",
                " 4  public/b.png           | gate allows > loader > served [3]          | miss > loader > served [3]",
                " 5  public/a.png           | gate allows > loader > served [4]          | hit > served [3]",
                " 6  public/b.png           | gate allows > loader > served [5]          | hit > served [3]",
            ])
        #expect(
            run.stdout.contains(
                "  the proxy's loader saw:     public/a.png, public/a.png, public/b.png, public/a.png, public/b.png (5 calls)\n"
                    + "  the decorator's loader saw: public/a.png, private/salaries.csv, public/b.png (3 calls)\n"
            ))
    }

    @Test func aCacheInFrontOfTheGateKeepsServingAfterRevocationWhileBehindItDenies() throws {
        let run = try Examples.run("proxy-vs-decorator", [])
        #expect(
            Array(Self.rows(of: run).dropFirst(6)) == [
                " 1  salaries.csv           | gate allows > miss > loader > served [1]   | miss > gate allows > loader > served [1]",
                " 2  salaries.csv           | gate allows > hit > served [1]             | hit > served [1]",
                " 3  salaries.csv           | gate denies > AccessDenied [1]             | hit > served ANYWAY [1]",
                " 4  salaries.csv           | gate denies > AccessDenied [1]             | hit > served ANYWAY [1]",
                " 5  bonus.csv              | gate denies > AccessDenied [1]             | miss > gate denies > AccessDenied [1]",
            ])
        #expect(run.stdout.contains("    -- access revoked --   |"))
        #expect(run.stdout.contains("  served after revocation: 0 of 3 on the left, 2 of 3 on the right.\n"))
        #expect(
            run.stdout.contains("  the gate was asked on 5 of 5 calls on the left, 2 of 5 on the right.\n"))
    }

    @Test func theColumnsHaveAFixedWidth() throws {
        let run = try Examples.run("proxy-vs-decorator", [])
        let rows = Self.rows(of: run)
        #expect(rows.count == 11)
        for row in rows {
            let separators = row.indices.filter { row[$0...].hasPrefix(" | ") }.map {
                row.distance(from: row.startIndex, to: $0)
            }
            #expect(separators == [26, 71], "\(row)")
        }
    }

    @Test func theLessonIsTheSameOnEveryRun() throws {
        let first = try Examples.run("proxy-vs-decorator", [])
        let second = try Examples.run("proxy-vs-decorator", [])
        #expect(first.stdout == second.stdout)
    }

    @Test func aStrayArgumentIsAUsageErrorExitingTwo() throws {
        let run = try Examples.run("proxy-vs-decorator", ["--fast"])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "error: unexpected argument \"--fast\"; proxy-vs-decorator takes none\n")
    }

    @Test func helpPrintsUsageAndExitsZero() throws {
        let run = try Examples.run("proxy-vs-decorator", ["--help"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("usage: proxy-vs-decorator\n"))
    }
}
