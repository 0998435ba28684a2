import Foundation
import GatehouseCore

/// The characters a pattern (and a rules-file line) may not hold, because a rule holding them reads
/// as something other than what it matches: control characters (a NUL cuts a field short), Unicode
/// spaces (one field looks like two), bidirectional controls (the line displays in another order),
/// look-alikes of `*` (they match only themselves), and invisible characters (`deny
/// mallory<U+3164> read docs/*` reads as a deny of mallory and denies no one).
package enum PatternCharacters {
    /// What is wrong with `scalar` in a pattern, or `nil` when it may be used (ASCII space
    /// included: in a rules line it separates fields).
    static func problem(with scalar: Unicode.Scalar) -> Issue? {
        if scalar.value < 0x7F && scalar.value >= 0x20 { return nil }
        return checks.first { $0.applies(scalar) }.map { Issue(scalar: scalar, kind: $0.kind) }
    }

    /// The kinds of problem, in the order a scalar is checked for them.
    private static let checks: [(kind: Issue.Kind, applies: @Sendable (Unicode.Scalar) -> Bool)] = [
        (.control, ResourceIdentity.isControl),
        (.unicodeSpace, { $0.properties.isWhitespace || invisibleSeparators.contains($0.value) }),
        (.bidirectionalControl, { bidirectionalControls.contains($0.value) }),
        (.invisible, isInvisible),
        (.starLookAlike, isStarLookAlike),
    ]

    /// Whether `scalar` renders as nothing, or may: a default-ignorable code point (the Hangul
    /// fillers, joiners, variation selectors, tags), a format character (Cf), or a blank symbol.
    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        return properties.isDefaultIgnorableCodePoint || properties.generalCategory == .format
            || blankSymbols.contains(scalar.value)
    }

    /// Whether `scalar` looks like `*` (ASCII `*` itself does not): a non-letter whose Unicode name
    /// says so, or one of ``otherStarLookAlikes``.
    private static func isStarLookAlike(_ scalar: Unicode.Scalar) -> Bool {
        if otherStarLookAlikes.contains(scalar.value) { return true }
        if scalar.isASCII { return false }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber, .unassigned, .privateUse, .surrogate:
            return false
        default:
            guard let name = scalar.properties.name else { return false }
            return name.split(whereSeparator: { $0 == " " || $0 == "-" }).contains { starWords.contains($0) }
        }
    }

    /// The first invisible character in `text`, with its 1-based column in Unicode scalars: what a
    /// configuration's strings may not hold.
    package static func firstInvisible(in text: String) -> (column: Int, problem: Issue)? {
        firstProblem(in: text[...]) {
            $0.isASCII || !isInvisible($0) ? nil : Issue(scalar: $0, kind: .invisible)
        }
    }

    /// The first problem in `text` (by `check`), with its 1-based column in Unicode scalars.
    static func firstProblem(
        in text: Substring, _ check: (Unicode.Scalar) -> Issue? = problem(with:)
    ) -> (column: Int, problem: Issue)? {
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            if let problem = check(scalar) {
                return (offset + 1, problem)
            }
        }
        return nil
    }

    /// A character a pattern may not hold, and why.
    package struct Issue: Equatable, CustomStringConvertible {
        var scalar: Unicode.Scalar
        var kind: Kind

        enum Kind: Equatable {
            case control, unicodeSpace, bidirectionalControl, starLookAlike, invisible
        }

        /// `U+00A0 (NO-BREAK SPACE), a Unicode space; separate fields with ASCII spaces or tabs`.
        package var description: String {
            let code = scalar.codePoint
            let named = scalar.properties.name.map { "\(code) (\($0))" } ?? code
            switch kind {
            case .control:
                return "\(named), a control character; remove it"
            case .unicodeSpace:
                return "\(named), a Unicode space or invisible separator; separate fields with ASCII "
                    + "spaces or tabs, and write no invisible characters in a pattern"
            case .bidirectionalControl:
                return "\(named), a bidirectional control that makes the line read in another "
                    + "order than it is matched; remove it"
            case .starLookAlike:
                return "\(named), which looks like \"*\" but matches only itself; write the ASCII "
                    + "\"*\" (U+002A) for a wildcard"
            case .invisible:
                return "\(named), an invisible character; remove it"
            }
        }
    }

    /// Invisible separators that Unicode does not class as white space.
    private static let invisibleSeparators: Set<UInt32> = [0x180E, 0x200B, 0x2060, 0xFEFF]

    private static let bidirectionalControls: Set<UInt32> = [
        0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069,
    ]

    private static let starWords: Set<Substring> = ["ASTERISK", "ASTERISKS", "ASTERISM", "STAR", "STARS"]

    /// Look-alikes of `*` whose names do not say so: U+2055 FLOWER PUNCTUATION MARK, the
    /// florettes, snowflakes and sparkles among the Dingbats' asterisks (U+273E–U+2748), and
    /// U+1031F OLD ITALIC LETTER ESS (Unicode's confusables map it to `*`).
    private static let otherStarLookAlikes: Set<UInt32> = Set([0x2055, 0x1031F] + Array(0x273E...0x2748))

    /// Characters that are neither default-ignorable nor format characters, yet render blank.
    private static let blankSymbols: Set<UInt32> = [
        0x2800,  // BRAILLE PATTERN BLANK
        0x1D159,  // MUSICAL SYMBOL NULL NOTEHEAD
        0x16FE4,  // KHITAN SMALL SCRIPT FILLER
        0x13441, 0x13442,  // EGYPTIAN HIEROGLYPH FULL BLANK, HALF BLANK
    ]
}
