import GatehouseCore
import Testing

/// What ``AccessPlan/sql(column:dialect:)`` writes for each dialect: quoting, escapes, NUL. The
/// databases themselves run it in Tests/GatehouseSQLiteTests (PlanSQLExactnessTests,
/// PlanSQLPostgreSQLTests).
@Suite("A plan's SQL in each dialect")
struct SQLDialectTests {
    static let tricky = AccessPlan(
        .allOf([
            .anyOf([.matching(#"it's_100%\*"#), .pattern(AccessPlan.Pattern(runs: ["a*b"])), .matching("c")]),
            .not(.matching("x*")),
        ]))

    @Test func postgresqlEscapesLikeWildcardsAndWritesABackslashInAnEscapeString() {
        #expect(
            Self.tricky.sql(column: #"t.na"me"#, dialect: .postgresql)
                == #"(("t"."na""me" LIKE E'it''s\\_100\\%\\\\%' OR "t"."na""me" IN ('a*b', 'c')) AND NOT ("t"."na""me" LIKE 'x%'))"#
        )
    }

    @Test func sqliteIsTheDialectOfSQLColumn() {
        #expect(Self.tricky.sql(column: "r") == Self.tricky.sql(column: "r", dialect: .sqlite))
        #expect(
            Self.tricky.sql(column: "r", dialect: .sqlite)
                == #"(instr(`r`, char(0)) = 0 AND ((`r` GLOB 'it''s_100%\*' OR `r` IN ('a*b', 'c')) AND NOT (`r` GLOB 'x*')))"#
        )
    }

    @Test func namesAloneOrNothingNeedNoGuardAgainstNUL() {
        let names = AccessPlan(.anyOf([.matching("a"), .matching("b")]))
        #expect(names.sql(column: "r") == "(`r` IN ('a', 'b'))")
        #expect(AccessPlan(.matching("a")).sql(column: "r") == "`r` = 'a'")
        #expect(AccessPlan(.nothing).sql(column: "r") == "(1 = 0)")
        #expect(AccessPlan(.everything).sql(column: "r", dialect: .postgresql) == "(1 = 1)")
    }

    @Test(arguments: SQLDialect.allCases)
    func aNameOrPatternHoldingNULMatchesNothingAndTheQueryHoldsNoNUL(_ dialect: SQLDialect) {
        let plan = AccessPlan(
            .allOf([
                .anyOf([.matching("docs/*"), .matching("a\0b"), .matching("c"), .matching("\0*")]),
                .not(.matching("docs/\0*")),
            ]))
        let sql = plan.sql(column: "r", dialect: dialect)
        #expect(!sql.utf8.contains(0))
        let column = dialect == .sqlite ? "`r`" : "\"r\""
        #expect(sql.contains("\(column) = 'c' OR (1 = 0)"), "\(sql)")
        #expect(sql.contains("NOT ((1 = 0))"), "\(sql)")
        #expect(AccessPlan(.matching("a\0")).sql(column: "r", dialect: dialect) == "(1 = 0)")
    }

    @Test func aDialectIsNamedByItsRawValue() {
        #expect(SQLDialect.allCases.map(\.description) == ["sqlite", "postgresql"])
        #expect(SQLDialect(rawValue: "postgresql") == .postgresql)
    }
}
