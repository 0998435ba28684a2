import Foundation
import GatehouseCore

/// The characters a pattern (and a rules-file line) may not hold, because they would make a rule
/// read as something other than what it matches: control characters (a NUL cuts a field
/// short), Unicode spaces and invisible separators (a field that looks like two words is one),
/// bidirectional controls (the line displays in another order than it is matched), look-alikes
/// of `*` (they read as a wildcard and match only themselves), and invisible characters
/// (`deny mallory<U+3164> read docs/*` reads as a deny of mallory and denies no one).
package enum PatternCharacters {
    /// What is wrong with `scalar` in a pattern, or `nil` when it may be used (ASCII space
    /// included: in a rules line it separates fields).
    static func problem(with scalar: Unicode.Scalar) -> Problem? {
        let value = scalar.value
        if value < 0x7F && value >= 0x20 { return nil }
        if ResourceIdentity.isControl(scalar) {
            return Problem(scalar: scalar, kind: .control)
        }
        if scalar.properties.isWhitespace || invisibleSeparators.contains(value) {
            return Problem(scalar: scalar, kind: .unicodeSpace)
        }
        if bidirectionalControls.contains(value) {
            return Problem(scalar: scalar, kind: .bidirectionalControl)
        }
        if isInvisible(scalar) {
            return Problem(scalar: scalar, kind: .invisible)
        }
        if isStarLookAlike(scalar) {
            return Problem(scalar: scalar, kind: .starLookAlike)
        }
        return nil
    }

    /// Whether `scalar` renders as nothing, or may: a default-ignorable code point (the Hangul
    /// fillers, joiners, variation selectors, tags), a format character (Cf), or one of
    /// ``blankSymbols``, by the Swift runtime's Unicode data.
    package static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        return properties.isDefaultIgnorableCodePoint || properties.generalCategory == .format
            || blankSymbols.contains(scalar.value)
    }

    /// Whether `scalar` looks like `*`: it is not a letter and its Unicode name holds one of
    /// ``starWords``, or it is one of ``otherStarLookAlikes``. ASCII `*` itself is not.
    static func isStarLookAlike(_ scalar: Unicode.Scalar) -> Bool {
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

    /// The first invisible character in `text` (``isInvisible(_:)``), with its 1-based column
    /// in Unicode scalars: what a configuration's strings may not hold.
    package static func firstInvisible(in text: String) -> (column: Int, problem: Problem)? {
        firstProblem(in: text[...]) {
            $0.isASCII || !isInvisible($0) ? nil : Problem(scalar: $0, kind: .invisible)
        }
    }

    /// The first problem in `text` (by `check`, ``problem(with:)`` unless given), with the
    /// 1-based column, in Unicode scalars, it is at.
    static func firstProblem(
        in text: Substring, _ check: (Unicode.Scalar) -> Problem? = problem(with:)
    ) -> (column: Int, problem: Problem)? {
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            if let problem = check(scalar) {
                return (offset + 1, problem)
            }
        }
        return nil
    }

    /// A character a pattern may not hold, and why.
    package struct Problem: Equatable, CustomStringConvertible {
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

    /// Zero-width and other invisible separators that Unicode does not class as white space.
    private static let invisibleSeparators: Set<UInt32> = [0x180E, 0x200B, 0x2060, 0xFEFF]

    /// Marks that change the display order of text.
    private static let bidirectionalControls: Set<UInt32> = [
        0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069,
    ]

    /// The words of a Unicode name that make a symbol a look-alike of `*`.
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
