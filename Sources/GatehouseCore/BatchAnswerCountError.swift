/// What a gatekeeper that answers a batch with the wrong number of answers fails each request of
/// it with: no answer can be matched to its request.
public struct BatchAnswerCountError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The gatekeeper, by the name its holder shows.
    public var gatekeeper: String
    /// How many requests it was asked.
    public var asked: Int
    /// How many answers it gave.
    public var answered: Int

    /// Such as `remote answered 3 times to a batch of 4 requests; …`.
    public var description: String {
        "\(gatekeeper) answered \(answered) times to a batch of \(asked) requests; with another count no answer can be matched to its request, so each fails"
    }
}
