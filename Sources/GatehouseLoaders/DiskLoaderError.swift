import Foundation
import GatehouseCore

/// Why ``DiskLoader`` refused or failed to load a key. Every case names the key (or the root)
/// and, where it helps, says what was expected.
public enum DiskLoaderError: Error, Sendable, Hashable, LocalizedError {
    /// The key is not a plain relative path: `reason` says which rule it breaks.
    case invalidKey(key: String, reason: String)
    /// Nothing exists at the key under the root (or a component before the last is not a directory).
    case notFound(key: String)
    /// The key names a directory, fifo, device or socket: only regular files are loaded.
    case notARegularFile(key: String)
    /// The file to load, or the resource to store, is larger than the loader's limit.
    case tooLarge(key: String, size: Int, limit: Int)
    /// A component of the key is a symbolic link; the loader follows none.
    case outsideRoot(key: String)
    /// The root directory is missing, not a directory, or cannot be opened.
    case rootUnavailable(root: String, reason: String)
    /// A name in the key is spelled differently on disk, in bytes, though the volume found it
    /// (Apple platforms); `stored` is the key's path up to that name as stored. Compare the two
    /// as bytes: `String`'s `==` holds `"cafe\u{301}"` and `"café"` equal.
    case spellingMismatch(key: String, stored: String)
    /// The operating system reported an error while opening or reading the file.
    case io(key: String, reason: String)
    /// A write or a listing needs the folder `folder` (a path under the root), which does not
    /// exist or is not a folder. Writes create no folders.
    case missingFolder(key: String, folder: String)

    /// A sentence saying what was wrong, where, and what was expected.
    public var errorDescription: String? {
        switch self {
        case .invalidKey(let key, let reason):
            return "The key \(quoted(key)) is not a valid relative path (\(reason)); expected "
                + "names separated by single \"/\" characters, without \".\" or \"..\"."
        case .notFound(let key):
            return "Nothing exists at \(quoted(key)) under the loader's root directory."
        case .notARegularFile(let key):
            return "The key \(quoted(key)) names a directory, fifo, device or socket; "
                + "only regular files can be loaded."
        case .tooLarge(let key, let size, let limit):
            return "The file at \(quoted(key)) is \(size) bytes, more than the loader's limit of \(limit) "
                + "bytes; it was neither read nor written."
        case .outsideRoot(let key):
            return "The key \(quoted(key)) passes through a symbolic link; the loader follows no links, "
                + "so that no key can resolve outside its root directory."
        case .rootUnavailable(let root, let reason):
            return "The root directory \(quoted(root)) is unavailable (\(reason)); "
                + "expected an existing, readable directory."
        case .spellingMismatch(let key, let stored):
            return "The key \(quoted(key)) is spelled differently on disk, where its path begins "
                + "\(quoted(stored))\(normalizationNote(key: key, stored: stored)); the volume finds names "
                + "regardless of case or Unicode normalization, so the loader expects a key that spells "
                + "every name byte for byte as stored."
        case .io(let key, let reason):
            return "Reading the file at \(quoted(key)) failed: \(reason)."
        case .missingFolder(let key, let folder):
            return "The folder \(quoted(folder)) needed for \(quoted(key)) does not exist under the "
                + "loader's root directory, or is not a folder; expected an existing folder (the loader "
                + "creates none)."
        }
    }
}

/// The text in double quotes, with quotes, backslashes and control characters escaped.
private func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        if scalar.properties.generalCategory == .control || scalar == "\"" || scalar == "\\" {
            result += scalar.escaped(asASCII: true)
        } else {
            result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}

/// A note listing both names as code points when the last name of `stored` and the key's name in
/// its place are the same text in different Unicode forms; otherwise an empty string.
private func normalizationNote(key: String, stored: String) -> String {
    let keyNames = key.utf8.split(separator: 0x2F, omittingEmptySubsequences: false)
    let storedNames = stored.utf8.split(separator: 0x2F, omittingEmptySubsequences: false)
    guard let storedName = storedNames.last, storedNames.count <= keyNames.count else { return "" }
    let keyText = String(decoding: keyNames[storedNames.count - 1], as: UTF8.self)
    let storedText = String(decoding: storedName, as: UTF8.self)
    guard keyText == storedText else { return "" }
    return " (the same text in another Unicode form: \(codePoints(keyText)) in the key, "
        + "\(codePoints(storedText)) on disk)"
}

/// The text's Unicode scalars as `U+XXXX`, separated by spaces.
private func codePoints(_ text: String) -> String {
    text.unicodeScalars.map(\.codePoint).joined(separator: " ")
}
