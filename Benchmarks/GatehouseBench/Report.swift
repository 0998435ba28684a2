import Foundation

/// Text and JSON output.
enum Report {
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// `1234.5` → `"1.23 µs"`, choosing the unit.
    static func duration(_ nanoseconds: Double) -> String {
        switch nanoseconds {
        case ..<1_000: String(format: "%.1f ns", nanoseconds)
        case ..<1_000_000: String(format: "%.2f µs", nanoseconds / 1_000)
        default: String(format: "%.2f ms", nanoseconds / 1_000_000)
        }
    }

    static func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    static func leftPadded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }

    static func text(_ results: [BenchResult], quick: Bool, skipped: [SkippedCase] = []) -> String {
        var lines: [String] = []
        lines.append(
            padded("case", 30) + leftPadded("median/op", 12) + leftPadded("min", 11) + leftPadded("max", 11)
                + leftPadded("ops/run", 9) + "  runs  what")
        for result in results {
            var summary = result.summary
            if result.name.hasPrefix("concurrent-") {
                summary += String(format: " (%.2f M loads/s)", 1_000 / result.nanosecondsPerOperation)
            }
            if result.name.hasPrefix("decision-log-") {
                summary += String(format: " (%.0f lines/s)", 1e9 / result.nanosecondsPerOperation)
            }
            lines.append(
                padded(result.name, 30) + leftPadded(duration(result.nanosecondsPerOperation), 12)
                    + leftPadded(duration(result.spread.low), 11)
                    + leftPadded(duration(result.spread.high), 11)
                    + leftPadded(String(result.iterations), 9) + leftPadded(String(result.runs), 6) + "  "
                    + summary)
        }
        for reason in skipped {
            lines.append(padded(reason.name, 30) + "  " + reason.reason)
        }
        let byName = Dictionary(results.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        lines.append("")
        lines.append(
            "targets" + (quick ? " (quick run: too few operations to judge)" : "")
                + ": the median of each round's ratio; in brackets the ratio of the medians")
        for target in Target.all {
            guard let (value, passed, ofMedians) = target.check(byName) else {
                lines.append("  " + padded(target.label, 62) + "   (not run)")
                continue
            }
            let shown =
                target.isAbsoluteMilliseconds
                ? String(format: "%.1f ms", value) : String(format: "%.2f", value)
            let beside = target.isAbsoluteMilliseconds ? "" : String(format: "  (%.2f)", ofMedians)
            lines.append(
                "  " + padded(target.label, 62) + leftPadded(shown, 9) + "  " + (passed ? "PASS" : "FAIL")
                    + beside)
        }
        let retired = Target.retired.compactMap { target -> String? in
            guard let (value, _, ofMedians) = target.check(byName) else { return nil }
            let base = target.denominators.joined(separator: " + ")
            let label = "\(target.numerator) / " + (target.denominators.count == 1 ? base : "(\(base))")
            return "  " + padded(label, 62) + leftPadded(String(format: "%.2f", value), 9)
                + String(format: "        (%.2f)", ofMedians)
        }
        if !retired.isEmpty {
            lines.append("")
            lines.append("retired targets: the ratio, reported without a bound")
            lines += retired
        }
        let scaling = Target.scaling.compactMap { ratio -> String? in
            guard let one = byName[ratio.one]?.nanosecondsPerOperation,
                let two = byName[ratio.two]?.nanosecondsPerOperation
            else { return nil }
            return "  " + padded(ratio.label, 62) + leftPadded(String(format: "%.2f", one / two), 9)
        }
        if !scaling.isEmpty {
            lines.append("")
            lines.append("scaling: throughput of two tasks over one (reported, no target)")
            lines += scaling
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ results: [BenchResult]) -> String {
        let objects = results.map { result in
            "  {\"name\": \"\(result.name)\", \"ns_per_op\": \(String(format: "%.2f", result.nanosecondsPerOperation)), "
                + "\"iterations\": \(result.iterations), \"median_of\": \(result.runs), "
                + "\"min_ns_per_op\": \(String(format: "%.2f", result.spread.low)), "
                + "\"max_ns_per_op\": \(String(format: "%.2f", result.spread.high))}"
        }
        return "[\n" + objects.joined(separator: ",\n") + "\n]"
    }
}
