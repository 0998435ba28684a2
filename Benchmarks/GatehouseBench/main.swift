import Foundation

/// gatehouse-bench: the performance cases, their ratio targets and the scaling table.
/// A synchronous main that drives one task, so valgrind can run it.
let usage = """
    usage: gatehouse-bench [--quick] [--json] [--filter TEXT] [--runs N] [--help]

      --quick        a smoke run: few operations, 3 runs, no scaling cases (a second or two)
      --json         print a JSON array: name, ns_per_op, iterations, median_of, min/max_ns_per_op
      --filter TEXT  run only the named cases (a comma-separated list of exact names), or else
                     the cases whose name contains TEXT; large fixtures are built only if needed
      --runs N       runs per case (default 9; the median is reported)
      --help         this text

    Each case runs in rounds (one run of every case per round) and reports its median run.
    Build and run: swift run -c release gatehouse-bench
    """

var quick = false
var json = false
var filter: String?
var runs: Int?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--quick": quick = true
    case "--json": json = true
    case "--filter":
        guard let value = arguments.next() else {
            FileHandle.standardError.write(Data("--filter needs a value\n\(usage)\n".utf8))
            exit(2)
        }
        filter = value
    case "--runs":
        guard let value = arguments.next().flatMap({ Int($0) }), value > 0 else {
            FileHandle.standardError.write(Data("--runs needs a positive number\n\(usage)\n".utf8))
            exit(2)
        }
        runs = value
    case "--help", "-h":
        print(usage)
        exit(0)
    default:
        FileHandle.standardError.write(Data("unknown argument \(argument)\n\(usage)\n".utf8))
        exit(2)
    }
}

let settings = (quick: quick, json: json, filter: filter, runs: runs ?? (quick ? 3 : 9))
do {
    let sink = Sink()
    let (results, skipped) = try runBlocking { () async throws -> ([BenchResult], [SkippedCase]) in
        let wanted = { (name: String) -> Bool in
            guard let filter = settings.filter else { return true }
            let names = filter.split(separator: ",").map(String.init)
            return names.contains(name)
                || (names.count == 1 && !allCaseNames.contains(filter) && name.contains(filter))
        }
        let fixtures = try await Fixtures.build(wanted: wanted)
        var cases = try mainCases(fixtures, sink: sink)
        // The gated read runs next to the reads it is compared with.
        let afterReads = (cases.firstIndex { $0.name == "raw-read-32k" } ?? cases.count - 1) + 1
        cases.insert(try await gatedDiskCase(fixtures), at: afterReads)
        cases.append(decisionLogCase(fixtures))
        cases += try listingCases(fixtures, wanted: wanted)
        cases += try remoteListingCases(wanted: wanted)
        cases += try await ownerListingCases(wanted: wanted)
        cases += try invariantCases(wanted: wanted)
        var skipped: [SkippedCase] = []
        if wanted(RemoteLoopback.name) {
            switch try RemoteLoopback.benchCase() {
            case .success(let remote): cases.append(remote)
            case .failure(let reason): skipped.append(reason)
            }
        }
        if !settings.quick || settings.filter != nil {
            cases += try await scalingCases(fixtures, wanted: wanted)
        }
        cases = cases.filter { benchCase in
            if settings.filter != nil { return wanted(benchCase.name) }
            return !settings.quick || benchCase.inQuickRun
        }
        return (try await measure(cases, runs: settings.runs, quick: settings.quick, sink: sink), skipped)
    }
    if settings.json {
        print(Report.json(results))
        for reason in skipped {
            FileHandle.standardError.write(Data("\(reason.name): \(reason.reason)\n".utf8))
        }
    } else {
        print(Report.text(results, quick: settings.quick, skipped: skipped))
    }
    // The checksum of every result, so no case's work is dead code.
    FileHandle.standardError.write(Data("checksum \(sink.value)\n".utf8))
} catch {
    FileHandle.standardError.write(Data("gatehouse-bench: \(error)\n".utf8))
    exit(1)
}
