import Foundation

extension RemotePolicy {
    /// A decision service's URL as every message shows it: user information as `…@`, a query as
    /// `?…` and a fragment as `#…`, since any of them may carry a secret. Works on text, so that
    /// a URL which cannot be used is shown safely too.
    public static func redacted(_ url: String) -> String {
        var text = Substring(url)
        var suffix = ""
        if let fragment = text.firstIndex(of: "#") {
            suffix = "#…"
            text = text[..<fragment]
        }
        if let query = text.firstIndex(of: "?") {
            suffix = "?…" + suffix
            text = text[..<query]
        }
        guard let schemeEnd = text.range(of: "://") else { return String(text) + suffix }
        let authorityStart = schemeEnd.upperBound
        let authorityEnd =
            text[authorityStart...].firstIndex(where: { $0 == "/" || $0 == "\\" }) ?? text.endIndex
        guard let at = text[authorityStart..<authorityEnd].lastIndex(of: "@") else {
            return String(text) + suffix
        }
        return String(text[..<authorityStart]) + "…" + String(text[at...]) + suffix
    }

    static func redacted(_ url: URL) -> String {
        redacted(url.absoluteString)
    }

    /// Whether the URL's text names a user (`http://name:password@host/…`), by Foundation's
    /// reading or by the text itself.
    static func hasUserInformation(_ url: URL) -> Bool {
        if url.user != nil || url.password != nil { return true }
        return redacted(url.absoluteString).contains("…@")
    }
}
