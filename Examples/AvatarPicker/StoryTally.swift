/// What the avatar story counted, and every invariant it saw broken.
struct StoryTally: Sendable {
    /// Thumbnails shown as images.
    var loadsShown = 0
    /// Denials shown as guidance (open Settings, tap a button) instead of an image.
    var denialsShownAsGuidance = 0
    /// Failures shown as such (an empty thumbnail, a deleted asset).
    var failuresShown = 0
    /// Calls that reached the real loader.
    var loaderCalls = 0
    /// Calls that reached the real loader although the gate denied them; must stay 0.
    var loaderCallsForDeniedRequests = 0
    /// Images shown with no bytes; must stay 0.
    var emptyImagesShown = 0
    /// The invariants broken, one sentence each.
    var violations: [String] = []

    /// The final two lines of the story.
    var summary: String {
        "loads shown: \(loadsShown), denials shown as guidance: \(denialsShownAsGuidance), "
            + "failures shown: \(failuresShown),\n"
            + "loader calls: \(loaderCalls), loader calls for denied requests: \(loaderCallsForDeniedRequests), "
            + "empty images shown: \(emptyImagesShown)"
    }
}
