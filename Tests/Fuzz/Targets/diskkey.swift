import Foundation
import GatehouseLoaders

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// DiskLoader key validation on arbitrary keys, in a fixture tree with links that point outside
/// the root (absolute, relative, to a file, to a directory, up through a parent) and a secret
/// file beside the root.
///
/// - The key is refused as invalid exactly when the documented path rules say so.
/// - A key that loads resolves (by `realpath`) inside the root, passes through no symbolic link,
///   and returns exactly that file's bytes; never the secret's.
/// - Every failure is a `DiskLoaderError`.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzDiskKey(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    // The first byte may start the key with a name from the tree, which the fuzzer cannot see.
    let selector = Int(input.byte())
    let prefix = selector < fixture.names.count * 4 ? fixture.names[selector % fixture.names.count] : ""
    let key = prefix + String(decoding: input.rest(), as: UTF8.self)
    let loader = fixture.loader
    let outcome = blocking { () -> Result<Data, DiskLoaderError> in
        do {
            return .success(try await loader.load(key))
        } catch let error as DiskLoaderError {
            return .failure(error)
        } catch {
            fatalError("DiskLoader.load threw \(type(of: error)): \(error)")
        }
    }
    let invalidReason = referenceInvalidReason(key)
    switch outcome {
    case .failure(.invalidKey(let reportedKey, _)):
        require(reportedKey == key, "the error names another key")
        require(invalidReason != nil, "refused the valid key \(key.debugDescription) as invalid")
    case .failure:
        require(
            invalidReason == nil,
            "\(key.debugDescription) breaks a rule (\(invalidReason!)) but got \(outcome)")
    case .success(let bytes):
        require(
            invalidReason == nil, "loaded \(key.debugDescription), which breaks a rule: \(invalidReason!)")
        checkInside(key, bytes)
    }
    return 0
}

private func checkInside(_ key: String, _ bytes: Data) {
    require(!bytes.elementsEqual(fixture.secret), "\(key.debugDescription) returned the secret")
    let path = fixture.root + "/" + key
    guard let resolved = realpath(path, nil) else {
        require(false, "\(key.debugDescription) loaded but does not resolve")
        return
    }
    defer { free(resolved) }
    let real = String(cString: resolved)
    require(real.hasPrefix(fixture.root + "/"), "\(key.debugDescription) resolves outside the root: \(real)")
    var prefix = fixture.root
    for component in key.split(separator: "/") {
        prefix += "/" + component
        var status = stat()
        require(lstat(prefix, &status) == 0, "cannot lstat \(prefix)")
        require(
            status.st_mode & S_IFMT != S_IFLNK, "\(key.debugDescription) passes through the link \(prefix)")
    }
    require(
        FileManager.default.contents(atPath: real) == bytes, "\(key.debugDescription) returned other bytes")
}

/// The path rules of docs/loaders.md, checked the slow and obvious way; `nil` for a valid key.
private func referenceInvalidReason(_ key: String) -> String? {
    let bytes = Array(key.utf8)
    if bytes.isEmpty { return "empty" }
    if bytes.count > 1024 { return "too long" }
    if bytes.contains(0x5C) { return "backslash" }
    if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return "C0 control or DEL" }
    if key.unicodeScalars.contains(where: { (0x80...0x9F).contains($0.value) }) { return "C1 control" }
    // The Swift runtime's NFC, the Unicode data `==` and `Dictionary` use (docs/loaders.md).
    if !key._nfcCodeUnits.elementsEqual(bytes) { return "not NFC" }
    let components = bytes.split(separator: 0x2F, omittingEmptySubsequences: false)
    for component in components {
        if component.isEmpty { return "empty component (leading, trailing or double slash)" }
        if component.elementsEqual([0x2E]) || component.elementsEqual([0x2E, 0x2E]) {
            return "dot component"
        }
        if component.count > 255 { return "long component" }
    }
    return nil
}

/// The tree the target loads from, made once per process.
private struct Fixture: Sendable {
    let root: String
    let secret: [UInt8]
    let names: [String]
    let loader: DiskLoader

    init() {
        var template = Array("\(NSTemporaryDirectory())/gatehouse-fuzz-diskkey-XXXXXX".utf8CString)
        let base = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        // The root's real path, so that `realpath` results compare by prefix.
        let top = String(cString: realpath(base, nil)!)
        root = top + "/root"
        let outside = top + "/outside"
        secret = Array("TOP SECRET: outside the root\n".utf8)
        let manager = FileManager.default
        func make(_ path: String, _ text: String) {
            try! manager.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            require(manager.createFile(atPath: path, contents: Data(text.utf8)), "cannot create \(path)")
        }
        func link(_ path: String, to target: String) {
            require(symlink(target, path) == 0, "cannot link \(path)")
        }
        make(outside + "/secret.txt", String(decoding: secret, as: UTF8.self))
        make(root + "/a.txt", "a\n")
        make(root + "/empty.txt", "")
        make(root + "/dir/b.txt", "b\n")
        make(root + "/dir/sub/c.txt", "c\n")
        make(root + "/sp ace é.txt", "unicode\n")
        link(root + "/link-out", to: outside + "/secret.txt")
        link(root + "/link-out-relative", to: "../outside/secret.txt")
        link(root + "/link-dir-out", to: outside)
        link(root + "/dir/link-up", to: "../..")
        link(root + "/dir/link-in", to: "../a.txt")
        link(root + "/dir/link-loop", to: "link-loop")
        require(mkfifo(root + "/fifo", 0o600) == 0, "cannot make the fifo")
        names = [
            "a.txt", "empty.txt", "dir/", "dir/b.txt", "dir/sub/", "dir/sub/c.txt", "sp ace é.txt",
            "link-out", "link-out-relative", "link-dir-out/", "dir/link-up/", "dir/link-in", "dir/link-loop",
            "fifo", "../outside/secret.txt", "dir/../", "./",
        ]
        loader = DiskLoader(root: URL(fileURLWithPath: root, isDirectory: true))
    }
}

private let fixture = Fixture()
