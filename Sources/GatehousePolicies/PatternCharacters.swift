import Foundation
import GatehouseCore

/// The characters a pattern (and a rules-file line) may not hold, because they would make a rule
/// read as something other than what it matches, and the Unicode form patterns are kept in.
///
/// - Control characters (C0, DEL, C1): invisible, and a NUL silently cut a field short.
/// - Unicode spaces and invisible separators (no-break space, ideographic space, zero-width
///   space, U+FEFF…): a field that looks like two words is one, so its rule never matches.
/// - Bidirectional controls: the line displays in another order than it is matched.
/// - Look-alikes of `*` (full-width, small, operator, heavy asterisks…): they read as a
///   wildcard and match only themselves.
///
/// Patterns are normalized to Unicode NFC when loaded, so a pattern written in NFD matches its
/// NFC request (and the proxy refuses requests that are not NFC).
enum PatternCharacters {
    /// What is wrong with `scalar` in a pattern, as a phrase naming it and its class
    /// (`"U+00A0 (NO-BREAK SPACE), a Unicode space"`), or `nil` when it may be used.
    /// ASCII space is allowed (in a rules line it separates fields; the line's reader allows
    /// tab too).
    static func problem(with scalar: Unicode.Scalar) -> Problem? {
        let value = scalar.value
        if ResourceIdentity.isControl(scalar) {
            return Problem(scalar: scalar, kind: .control)
        }
        if value == 0x20 { return nil }
        if scalar.properties.isWhitespace || invisibleSeparators.contains(value) {
            return Problem(scalar: scalar, kind: .unicodeSpace)
        }
        if bidirectionalControls.contains(value) {
            return Problem(scalar: scalar, kind: .bidirectionalControl)
        }
        if starLookAlikes.contains(value) {
            return Problem(scalar: scalar, kind: .starLookAlike)
        }
        return nil
    }

    /// The first problem in `text`, with the 1-based column (in Unicode scalars) it is at.
    static func firstProblem(in text: Substring) -> (column: Int, problem: Problem)? {
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            if let problem = problem(with: scalar) {
                return (offset + 1, problem)
            }
        }
        return nil
    }

    /// `text` in Unicode NFC.
    static func normalized(_ text: String) -> String {
        text.utf8.allSatisfy { $0 < 0x80 } ? text : ResourceIdentity.normalized(text)
    }

    /// A character a pattern may not hold, and why.
    struct Problem: Equatable, CustomStringConvertible {
        /// The offending character.
        var scalar: Unicode.Scalar
        /// Its class.
        var kind: Kind

        /// The classes of forbidden characters.
        enum Kind: Equatable {
            case control, unicodeSpace, bidirectionalControl, starLookAlike
        }

        /// `U+00A0 (NO-BREAK SPACE), a Unicode space; separate fields with ASCII spaces or tabs`.
        var description: String {
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
            }
        }
    }

    /// Zero-width and other invisible separators that Unicode does not class as white space.
    private static let invisibleSeparators: Set<UInt32> = [0x180E, 0x200B, 0x2060, 0xFEFF]

    /// Marks that change the display order of text.
    private static let bidirectionalControls: Set<UInt32> = [
        0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069,
    ]

    /// Characters that read as an asterisk.
    private static let starLookAlikes: Set<UInt32> = [
        0x066D, 0x204E, 0x2217, 0x2731, 0x2732, 0x2733, 0xFE61, 0xFF0A,
    ]
}
