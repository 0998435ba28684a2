/// UTF-8 bytes read by position: what the rules engine matches patterns against.
///
/// A decision reads the request's text through its `Span` where the platform has one
/// (`String.UTF8View.span`: no copy, no allocation), and through a copied `[UInt8]` elsewhere
/// (Apple platforms before 26). The matching code is written once, generic over this protocol,
/// and specialized for both (see `PatternIndex.matchedIDs(of:values:)`).
protocol ByteText: ~Escapable {
    /// The number of bytes.
    var count: Int { get }
    /// The byte at `position`, in `0..<count`.
    subscript(_ position: Int) -> UInt8 { get }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
extension Span<UInt8>: ByteText {}

extension [UInt8]: ByteText {}
