import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The reference matcher: a plain dynamic program over pattern and text, written for clarity
/// rather than speed. `matches[i][j]`: the first `i` pattern bytes match the first `j` text bytes.
func referenceGlobMatch(_ pattern: String, _ text: String) -> Bool {
    referenceGlobMatch(Array(pattern.utf8), Array(text.utf8))
}

/// The reference matcher on bytes (which need not be UTF-8).
func referenceGlobMatch(_ pattern: [UInt8], _ text: [UInt8]) -> Bool {
    var matches = Array(repeating: Array(repeating: false, count: text.count + 1), count: pattern.count + 1)
    matches[0][0] = true
    for (index, byte) in pattern.enumerated() {
        let i = index + 1
        for j in 0...text.count {
            if byte == UInt8(ascii: "*") {
                matches[i][j] = matches[i - 1][j] || (j > 0 && matches[i][j - 1])
            } else {
                matches[i][j] = j > 0 && matches[i - 1][j - 1] && byte == text[j - 1]
            }
        }
    }
    return matches[pattern.count][text.count]
}

/// Overwrites the file in place (same inode): truncates it and writes `bytes`. Creates the file
/// when it does not exist.
func rewriteInPlace(_ url: URL, with bytes: [UInt8]) throws {
    guard FileManager.default.fileExists(atPath: url.path) else {
        try Data(bytes).write(to: url)
        return
    }
    let handle = try FileHandle(forWritingTo: url)
    try handle.truncate(atOffset: 0)
    try handle.write(contentsOf: Data(bytes))
    try handle.close()
}

/// Sets the file's modification (and access) time to exactly `seconds` + `nanoseconds`.
func setModificationTime(_ url: URL, seconds: Int, nanoseconds: Int) throws {
    var times = [
        timespec(tv_sec: seconds, tv_nsec: nanoseconds), timespec(tv_sec: seconds, tv_nsec: nanoseconds),
    ]
    guard utimensat(AT_FDCWD, url.path, &times, 0) == 0 else {
        throw CocoaError(.fileWriteUnknown)
    }
}
