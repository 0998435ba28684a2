/// A character and its canonically equivalent spellings, from the Unicode data (not from the
/// runtime under test): the character itself, its full canonical decomposition (NFD) and its
/// NFC, which differ for singletons (`U+212A` KELVIN SIGN is `K`) and composition exclusions
/// (`U+0958` is `U+0915 U+093C`).
public struct CanonicalEquivalent: Sendable, CustomStringConvertible {
    /// The character with a canonical decomposition.
    public var character: Unicode.Scalar
    /// Its full canonical decomposition (NFD).
    public var decomposed: String
    /// Its NFC: the one spelling of the character a key, a pattern or a subject may hold.
    public var nfc: String

    /// The character on its own.
    public var composed: String { String(character) }

    /// The distinct spellings: the NFC first, then the others (the character, its NFD).
    public var spellings: [String] {
        var result = [nfc]
        for spelling in [composed, decomposed]
        where !result.contains(where: { $0.utf8.elementsEqual(spelling.utf8) }) {
            result.append(spelling)
        }
        return result
    }

    /// The spellings that are not the NFC (one or two).
    public var otherSpellings: [String] { Array(spellings.dropFirst()) }

    /// `U+11383 = U+11382 U+113C9 (NFC U+11383)`.
    public var description: String {
        "\(character.hex) = \(Self.hex(decomposed)) (NFC \(Self.hex(nfc)))"
    }

    /// Every canonical decomposition in Unicode 17.0, the Swift 6.3 runtime's: 2,081 characters
    /// from `CanonicalEquivalents.swift` (generated from the Unicode data) and the 11,172 Hangul
    /// syllables, whose decompositions are arithmetic.
    public static let all: [CanonicalEquivalent] = listed + hangulSyllables

    /// The characters of `CanonicalEquivalents.swift`.
    public static let listed: [CanonicalEquivalent] = canonicalDecompositionLines.split(separator: "\n").map {
        line in
        let fields = line.split(separator: ";", omittingEmptySubsequences: false).map(scalars)
        precondition(fields.count == 3 && fields[0].count == 1, "malformed line \(line)")
        return CanonicalEquivalent(
            character: fields[0][0], decomposed: string(fields[1]), nfc: string(fields[2]))
    }

    /// The Hangul syllables U+AC00–U+D7A3: each is a leading consonant, a vowel and, for 10,773
    /// of them, a trailing consonant (Unicode's section 3.12).
    public static let hangulSyllables: [CanonicalEquivalent] = (0xAC00...0xD7A3).map { code in
        let index = UInt32(code - 0xAC00)
        var jamo = [0x1100 + index / (21 * 28), 0x1161 + (index % (21 * 28)) / 28]
        if index % 28 != 0 { jamo.append(0x11A7 + index % 28) }
        let syllable = Unicode.Scalar(UInt32(code))!
        return CanonicalEquivalent(
            character: syllable, decomposed: string(jamo.map { Unicode.Scalar($0)! }), nfc: String(syllable))
    }

    private static func scalars(_ field: Substring) -> [Unicode.Scalar] {
        field.split(separator: " ").map { Unicode.Scalar(UInt32($0, radix: 16)!)! }
    }

    private static func string(_ scalars: [Unicode.Scalar]) -> String {
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars)
        return text
    }

    private static func hex(_ text: String) -> String {
        text.unicodeScalars.map(\.hex).joined(separator: " ")
    }
}

extension Unicode.Scalar {
    /// `U+00C0`.
    fileprivate var hex: String {
        let digits = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
