/// What a failed main load means for a job: whether it failed at all, and which `WebParserError.Kind` (the one
/// table is `PageError`'s), and so whether a retry can help.
enum LoadFailureTriage {
    /// True for the failure WebKit reports when a newer navigation replaced a load: not a job failure.
    static func isSuperseded(_ failure: PageLoadFailure) -> Bool {
        failure.error.kind == .navigationReplaced
    }

    /// True for the failure of a load WebKit stopped during a policy decision: one webparse refused, or one
    /// a newer navigation replaced while its decision was pending.
    static func isPolicyInterruption(_ failure: PageLoadFailure) -> Bool {
        failure.error.kind == .policyInterrupted
    }

    /// True for an https load that failed because WebKit gave up the connection it was waiting for: with every
    /// load it is asked for, WebKit also opens a connection ahead (a preconnect) that the load may take over, and
    /// when the server's certificate is not trusted, the preconnect's own check cancels that connection, so the
    /// load fails as cancelled instead of with the TLS error (about one load in five on a local server, WebKitGTK
    /// 2.50 with libsoup 3.2). The page checks such a server's certificate itself.
    static func mayHideUntrustedCertificate(_ failure: PageLoadFailure) -> Bool {
        failure.error.kind == .cancelled && failure.url.lowercased().hasPrefix("https:")
    }

    /// The failure WebKit reports for a load to `url` whose server's certificate is not trusted.
    static func untrustedCertificate(at url: String) -> PageLoadFailure {
        PageLoadFailure(url: url, error: .untrustedCertificate)
    }

    /// Where a server redirected the failed load, when it failed for going somewhere that is not a web page. A
    /// main load fails at such a URL only after a redirect: WebKit reports a `data:` or `about:` target as a
    /// restricted port, and a `javascript:` one as too many redirects.
    static func redirectTarget(of failure: PageLoadFailure) -> String? {
        let scheme = failure.url.firstIndex(of: ":").map { failure.url[..<$0].lowercased() }
        guard let scheme, !["http", "https", "file"].contains(scheme) else { return nil }
        return failure.url
    }

    /// The kind of a failed load that `redirectTarget(of:)` found to be redirected to `target`.
    static func redirected(to target: String) -> WebParserError.Kind {
        let shown = target.count > 80 ? target.prefix(77) + "..." : target
        return .loadFailed(
            "the server redirected to \(shown), which is not a web page (webparse follows redirects "
                + "to http and https only)")
    }
}
