/// SplitMix64: a tiny seeded generator, so random tests repeat exactly on every run.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    /// Creates the generator; the same seed gives the same sequence.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next number of the sequence.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A string of `0...maxLength` characters drawn from `alphabet`.
    public mutating func string(from alphabet: String, maxLength: Int) -> String {
        let characters = Array(alphabet)
        let length = Int.random(in: 0...maxLength, using: &self)
        return String((0..<length).map { _ in characters.randomElement(using: &self)! })
    }
}
