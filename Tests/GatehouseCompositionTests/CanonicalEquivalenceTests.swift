import Foundation
import GatehouseCore
import GatehouseLoaders
import GatehousePolicies
import GatehouseTestSupport
import Testing

/// Every canonical decomposition Unicode 17 has (the Swift 6.3 runtime's version): for each,
/// every spelling is one resource to every kind of gate and to both loaders. A spelling that is
/// not NFC never reaches a gatekeeper (the identity check refuses it, naming NFC); patterns,
/// group members, condition values and placeholder values in any spelling match the NFC
/// request. The attack this closes: `keys/\u{11382}\u{113C9}` passed a deny of
/// `keys/\u{11383}` while Foundation's older tables took it for NFC, and a `Dictionary` found
/// the secret under the composed key.
@Suite("Canonical equivalents: one resource in every spelling")
struct CanonicalEquivalenceTests {
    static let all = CanonicalEquivalent.all

    /// The equivalents in four parts, a test case each, so that no case runs long.
    static let parts: [Range<Int>] = stride(from: 0, to: all.count, by: 3_400).map {
        $0..<min($0 + 3_400, all.count)
    }

    /// The equivalents of `part`, with their indexes.
    static func equivalents(in part: Range<Int>) -> Zip2Sequence<Range<Int>, ArraySlice<CanonicalEquivalent>>
    {
        zip(part, all[part])
    }

    /// How a pattern or value is written in a rules file or a list.
    enum Written: CaseIterable, Sendable {
        case composed, decomposed

        func spelling(_ equivalent: CanonicalEquivalent) -> String {
            self == .composed ? equivalent.composed : equivalent.decomposed
        }
    }

    /// The runtime's own NFC, which `String ==`, `Dictionary` and `Set` compare by.
    static func runtimeNFC(_ text: String) -> String {
        String(decoding: text._nfcCodeUnits, as: UTF8.self)
    }

    /// A key or pattern that holds a spelling after a `-`, which composes with no mark that
    /// may follow it, so the key is NFC exactly when the spelling is (`k12-é`).
    static func key(_ prefix: String, _ index: Int, _ spelling: String) -> String {
        "\(prefix)\(index)-\(spelling)"
    }

    /// The first few failures of a check over every equivalent, so that a broken build prints a
    /// page, not thirteen thousand lines.
    struct Failures {
        private(set) var count = 0
        private(set) var first: [String] = []
        mutating func add(_ text: @autoclosure () -> String) {
            count += 1
            if first.count < 12 { first.append(text()) }
        }
        var summary: String { "\(count) failures, the first: \(first.joined(separator: "; "))" }
    }

    @Test func theListHoldsEveryCanonicalDecompositionAndTheRuntimeAgreesWithIt() {
        #expect(Self.all.count == 2_081 + 11_172)
        var failures = Failures()
        for equivalent in Self.all {
            for spelling in equivalent.spellings {
                if spelling != equivalent.nfc {
                    failures.add("\(equivalent): \(spelling.debugDescription) != NFC")
                }
                if !Self.runtimeNFC(spelling).utf8.elementsEqual(equivalent.nfc.utf8) {
                    failures.add("\(equivalent): the runtime's NFC differs")
                }
            }
        }
        // The other way: every character the runtime does not keep as it is, is in the list.
        let listed = Set(CanonicalEquivalent.listed.map(\.character))
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), scalar.properties.generalCategory != .unassigned else {
                continue
            }
            let text = String(scalar)
            if !Self.runtimeNFC(text).utf8.elementsEqual(text.utf8) && !listed.contains(scalar) {
                failures.add(
                    "U+\(String(value, radix: 16)) changes under the runtime's NFC but is not listed")
            }
        }
        #expect(failures.count == 0, "\(failures.summary)")
    }

    @Test func theNormalizerIsTheRuntimesOwn() {
        var failures = Failures()
        for equivalent in Self.all {
            for spelling in equivalent.spellings
            where !ResourceIdentity.normalized(spelling).utf8.elementsEqual(equivalent.nfc.utf8) {
                failures.add("\(equivalent): normalized(\(spelling.debugDescription)) is not the NFC")
            }
        }
        #expect(failures.count == 0, "\(failures.summary)")
    }

    @Test(arguments: [ResourceIdentity.path, .text])
    func identityAdmitsTheNFCSpellingAndRefusesEveryOther(_ identity: ResourceIdentity) {
        var failures = Failures()
        for (index, equivalent) in Self.all.enumerated() {
            let nfc = Self.key("k", index, equivalent.nfc)
            if let violation = identity.violation(in: nfc) {
                failures.add("\(equivalent): the NFC spelling is refused: \(violation)")
            }
            for spelling in equivalent.otherSpellings {
                let violation = identity.violation(in: Self.key("k", index, spelling))
                guard case .notNFC(let normalized)? = violation, normalized.utf8.elementsEqual(nfc.utf8)
                else {
                    failures.add(
                        "\(equivalent): \(spelling.debugDescription) gave \(String(describing: violation))")
                    continue
                }
            }
        }
        #expect(failures.count == 0, "\(failures.summary)")
    }

    // MARK: - Gates

    /// Asks `gate` about every spelling of every equivalent: the NFC spelling must get
    /// `expected(index)` from the gatekeeper `deciding`, every other spelling an identity denial.
    static func check(
        _ gate: AccessGate, in part: Range<Int>, deciding: String, subject: String? = "mallory",
        resource: (Int, String) -> String, expected: (Int) -> AccessVerdict.Outcome,
        skipping skipped: Set<Int> = [], onlyNFC: Bool = false, failures: inout Failures
    ) async {
        for (index, equivalent) in equivalents(in: part) where !skipped.contains(index) {
            for spelling in onlyNFC ? [equivalent.nfc] : equivalent.spellings {
                let request = AccessRequest(
                    subject: subject, action: "read", resource: resource(index, spelling))
                guard let verdict = try? await gate.decide(request) else {
                    failures.add("\(equivalent): cancelled")
                    continue
                }
                let isNFC = spelling.utf8.elementsEqual(equivalent.nfc.utf8)
                let want = isNFC ? expected(index) : .denied
                let gatekeeper = isNFC ? deciding : AccessGate.identityGatekeeper
                if verdict.outcome != want || verdict.gatekeeper != gatekeeper {
                    failures.add(
                        "\(equivalent) spelled \(spelling.debugDescription): \(verdict.outcome) by "
                            + "\(verdict.gatekeeper), expected \(want) by \(gatekeeper)")
                }
            }
        }
    }

    /// The indexes of the equivalents that no pattern may hold in any spelling: U+2000 EN QUAD
    /// and U+2001 EM QUAD, whose NFC are the Unicode spaces U+2002 and U+2003. Each spelling
    /// is tried on its own; an equivalent accepted in one spelling and refused in another
    /// would be a hole, and fails the tests that use this.
    static let refused: (indexes: Set<Int>, inconsistent: [String]) = {
        var indexes: Set<Int> = []
        var inconsistent: [String] = []
        for (index, equivalent) in all.enumerated() {
            let answers = Set(equivalent.spellings.map { (try? AllowList(resources: ["r-" + $0])) != nil })
            if answers == [false] { indexes.insert(index) }
            if answers.count > 1 { inconsistent.append(equivalent.description) }
        }
        return (indexes, inconsistent)
    }()

    @Test func onlyTheQuadSpacesAreRefusedAndInEverySpelling() throws {
        #expect(Self.refused.inconsistent == [])
        #expect(Set(Self.refused.indexes.map { Self.all[$0].character }) == ["\u{2000}", "\u{2001}"])
        for index in Self.refused.indexes {
            for spelling in Self.all[index].spellings {
                #expect(throws: RulesFileError.self) { try RulesPolicy(text: "deny * read r-\(spelling)") }
            }
        }
    }

    @Test(arguments: Written.allCases, parts)
    func aDenyRuleWrittenInEitherSpellingCoversEverySpelling(_ written: Written, _ part: Range<Int>)
        async throws
    {
        var failures = Failures()
        let refused = Self.refused.indexes
        var text = "allow * read *\n"
        for (index, equivalent) in Self.equivalents(in: part) where !refused.contains(index) {
            text += "deny mallory read \(Self.key("r", index, written.spelling(equivalent)))\n"
        }
        let gate = AccessGate(gatekeepers: [try RulesPolicy(text: text, name: "rules")])
        await Self.check(
            gate, in: part, deciding: "rules", resource: { Self.key("r", $0, $1) },
            expected: { _ in .denied },
            skipping: refused, failures: &failures)
        // The deny is exact: another subject is allowed.
        await Self.check(
            gate, in: part, deciding: "rules", subject: "alice", resource: { Self.key("r", $0, $1) },
            expected: { _ in .allowed }, skipping: refused, onlyNFC: true, failures: &failures)
        #expect(failures.count == 0, "\(failures.summary)")
    }

    @Test(arguments: Written.allCases, parts)
    func anAllowListAndItsNegationMatchEverySpelling(_ written: Written, _ part: Range<Int>) async throws {
        var failures = Failures()
        let refused = Self.refused.indexes
        let patterns = Self.equivalents(in: part).filter { !refused.contains($0.0) }.map {
            Self.key("a", $0.0, written.spelling($0.1))
        }
        let list = try AllowList(resources: patterns)
        await Self.check(
            AccessGate(gatekeepers: [list]), in: part, deciding: "allowList",
            resource: { Self.key("a", $0, $1) },
            expected: { _ in .allowed }, skipping: refused, failures: &failures)
        await Self.check(
            AccessGate(gatekeepers: [Not(list)]), in: part, deciding: "not(allowList)",
            resource: { Self.key("a", $0, $1) }, expected: { _ in .denied }, skipping: refused,
            failures: &failures)
        #expect(failures.count == 0, "\(failures.summary)")
    }

    @Test(arguments: parts)
    func aGroupMemberInEitherSpellingIsTheSubjectInEverySpelling(_ part: Range<Int>) async throws {
        var failures = Failures()
        let refused = Self.refused.indexes
        var text = "allow * read *\n"
        for (index, equivalent) in Self.equivalents(in: part) where !refused.contains(index) {
            let member = index.isMultiple(of: 2) ? equivalent.composed : equivalent.decomposed
            text += "group g\(index) x-\(member)\ndeny @g\(index) read m\(index)\n"
        }
        let gate = AccessGate(gatekeepers: [try RulesPolicy(text: text, name: "rules")])
        for (index, equivalent) in Self.equivalents(in: part) where !refused.contains(index) {
            for spelling in equivalent.spellings {
                let verdict = try await gate.decide(
                    AccessRequest(subject: "x-" + spelling, action: "read", resource: "m\(index)"))
                let isNFC = spelling.utf8.elementsEqual(equivalent.nfc.utf8)
                let gatekeeper = isNFC ? "rules" : AccessGate.identityGatekeeper
                if verdict.isAllowed || verdict.gatekeeper != gatekeeper {
                    failures.add("\(equivalent): subject \(spelling.debugDescription) got \(verdict)")
                }
            }
        }
        #expect(failures.count == 0, "\(failures.summary)")
    }

    @Test(arguments: parts)
    func conditionAndPlaceholderValuesMatchTheAttributeInEverySpelling(_ part: Range<Int>) async throws {
        var failures = Failures()
        let refused = Self.refused.indexes
        var text = "allow * read c*\nallow * read p/{value}/*\ndeny * read q/{value}/*\n"
        for (index, equivalent) in Self.equivalents(in: part) where !refused.contains(index) {
            let written = index.isMultiple(of: 2) ? equivalent.composed : equivalent.decomposed
            text += "deny * read c\(index) if tag=\(written)\n"
        }
        let gate = AccessGate(gatekeepers: [try RulesPolicy(text: text, name: "rules")])
        for (index, equivalent) in Self.equivalents(in: part) where !refused.contains(index) {
            // Attributes are not checked for NFC: every spelling of the value is the value.
            for spelling in equivalent.spellings {
                let cases: [(resource: String, attribute: String, allowed: Bool)] = [
                    ("c\(index)", "tag", false),
                    ("p/\(equivalent.nfc)/x", "value", true),
                    ("q/\(equivalent.nfc)/x", "value", false),
                ]
                for (resource, attribute, allowed) in cases {
                    let verdict = try await gate.decide(
                        AccessRequest(
                            subject: "alice", action: "read", resource: resource,
                            attributes: [attribute: spelling]))
                    if verdict.isAllowed != allowed || verdict.gatekeeper != "rules" {
                        failures.add(
                            "\(equivalent): \(attribute)=\(spelling.debugDescription) on \(resource) got \(verdict)"
                        )
                    }
                }
            }
        }
        #expect(failures.count == 0, "\(failures.summary)")
    }

    // MARK: - Loaders

    @Test(arguments: parts)
    func aMemoryLoaderAndAWarmCacheBehindTheGateServeOnlyTheNFCSpelling(_ part: Range<Int>) async throws {
        var failures = Failures()
        var values: [String: Int] = [:]
        var rules = "allow * read *\n"
        let refused = Self.refused.indexes
        for (index, equivalent) in Self.equivalents(in: part) {
            values[Self.key("k", index, equivalent.nfc)] = index
            if !refused.contains(index) {
                rules += "deny mallory read \(Self.key("k", index, equivalent.composed))\n"
            }
        }
        let memory = MemoryLoader(values)
        let cached = CachingLoader(memory, countLimit: part.count)
        let gate = AccessGate(gatekeepers: [try RulesPolicy(text: rules, name: "rules")])
        let proxy = AccessProxy(cached, gate: gate)
        for (index, equivalent) in Self.equivalents(in: part) {
            // The dictionary itself finds every spelling (that is why the gate must refuse).
            for spelling in equivalent.spellings
            where (try? await memory.load(Self.key("k", index, spelling))) != index {
                failures.add("\(equivalent): the dictionary did not find \(spelling.debugDescription)")
            }
            // Warm the cache, then every spelling is denied to mallory, by the rule or identity.
            let nfc = Self.key("k", index, equivalent.nfc)
            try await AccessContext.$current.withValue(AccessContext(subject: "alice")) {
                if try await proxy.load(nfc) != index {
                    failures.add("\(equivalent): alice got another value")
                }
            }
            for spelling in equivalent.spellings {
                await AccessContext.$current.withValue(AccessContext(subject: "mallory")) {
                    do {
                        let loaded = try await proxy.load(Self.key("k", index, spelling))
                        if !refused.contains(index) || !spelling.utf8.elementsEqual(equivalent.nfc.utf8) {
                            failures.add(
                                "\(equivalent): mallory loaded \(spelling.debugDescription): \(loaded)")
                        }
                    } catch let denied as AccessDenied {
                        let expected =
                            spelling.utf8.elementsEqual(equivalent.nfc.utf8)
                            ? "rules" : AccessGate.identityGatekeeper
                        if denied.gatekeeper != expected && !refused.contains(index) {
                            failures.add(
                                "\(equivalent): denied by \(denied.gatekeeper), expected \(expected)")
                        }
                    } catch {
                        failures.add("\(equivalent): \(error)")
                    }
                }
            }
        }
        #expect(failures.count == 0, "\(failures.summary)")
    }

    @Test(arguments: parts)
    func aDiskLoaderKnowsOnlyTheNFCSpellingOfAName(_ part: Range<Int>) async throws {
        // 13,253 files: in memory where the machine has a tmpfs for it, so the test stays fast.
        let shm = URL(fileURLWithPath: "/dev/shm")
        let folder =
            try FileManager.default.isWritableFile(atPath: shm.path)
            ? TemporaryDirectory(in: shm) : TemporaryDirectory()
        defer { folder.cleanUp() }
        let loader = DiskLoader(root: folder.url)
        var failures = Failures()
        for (index, equivalent) in Self.equivalents(in: part) {
            try await loader.store(Data([UInt8(index % 256)]), for: Self.key("k", index, equivalent.nfc))
        }
        // A name written by another program in another spelling: never listed, never loaded.
        let decomposed = Self.all.first { $0.character == "\u{11383}" }!
        try Data("the secret".utf8).write(
            to: folder.url.appendingPathComponent("outside-\(decomposed.decomposed)"))

        var expectedKeys: [String] = []
        for (index, equivalent) in Self.equivalents(in: part) {
            let nfc = Self.key("k", index, equivalent.nfc)
            expectedKeys.append(nfc)
            if (try? await loader.load(nfc)) != Data([UInt8(index % 256)]) {
                failures.add("\(equivalent): the NFC spelling was not loaded")
            }
            for spelling in equivalent.otherSpellings {
                let key = Self.key("k", index, spelling)
                for (operation, attempt) in [
                    ("load", { _ = try await loader.load(key) }),
                    ("store", { try await loader.store(Data(), for: key) }),
                    ("remove", { try await loader.remove(key) }),
                ] as [(String, () async throws -> Void)] {
                    do {
                        try await attempt()
                        failures.add(
                            "\(equivalent): \(operation) of \(spelling.debugDescription) went through")
                    } catch DiskLoaderError.invalidKey(_, let reason) where reason.contains("NFC") {
                    } catch {
                        failures.add("\(equivalent): \(operation) of \(spelling.debugDescription): \(error)")
                    }
                }
            }
        }
        let listed = try await loader.keys(under: "")
        #expect(listed == expectedKeys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        await #expect(throws: DiskLoaderError.self) {
            try await loader.load("outside-\(decomposed.decomposed)")
        }
        #expect(failures.count == 0, "\(failures.summary)")
    }
}
