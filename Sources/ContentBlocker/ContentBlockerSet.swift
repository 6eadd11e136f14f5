/// The content blockers a networking process applies: named compiled lists, each mapped from
/// its file (`CompiledRuleList.load`), decided together for every request before it is sent
/// (WebKit's `ContentExtensionsBackend::processContentRuleListsForLoad`, network side).
///
/// The lists are immutable and may be shared; a set keeps one `RuleListMatcher` per list
/// (scratch buffers and page caches), so use one set per thread. css-display-none is left out
/// (it cannot change which other actions apply; the content process applies it).
///
///     let blockers = ContentBlockerSet()
///     try blockers.load(name: "easylist", compiledPath: "…/easylist.bin", sourcePath: "…/easylist.json")
///     let d = blockers.decide(url: url, resourceType: ResourceFlags.script, mainDocumentURL: page)
///     if d.blocked { /* report a network error to the page, as Safari does */ }
public final class ContentBlockerSet {
    struct Entry {
        let name: String
        let list: CompiledRuleList
        let matcher: RuleListMatcher
    }
    var entries: [Entry] = []

    public init() {}

    /// The lists, in the order they are applied.
    public var lists: [(name: String, list: CompiledRuleList)] { entries.map { ($0.name, $0.list) } }

    /// The names of the lists, in the order they are applied.
    public var names: [String] { entries.map(\.name) }

    /// Adds (or replaces) a list.
    public func add(name: String, list: CompiledRuleList) {
        let entry = Entry(name: name, list: list, matcher: RuleListMatcher(list))
        if let i = entries.firstIndex(where: { $0.name == name }) { entries[i] = entry } else { entries.append(entry) }
    }

    /// Maps a compiled list (recompiling it from `sourcePath` when the file is refused: damaged,
    /// or written by another format version) and adds it. On failure the set keeps the lists it
    /// had.
    @discardableResult
    public func load(name: String, compiledPath: String, sourcePath: String? = nil) -> Result<Void, ContentRuleListStore.Failure> {
        switch ContentRuleListStore.loadOrCompile(compiledPath: compiledPath, sourcePath: sourcePath) {
        case .failure(let f): return .failure(f)
        case .success(let r): add(name: name, list: r.list); return .success(())
        }
    }

    public func remove(name: String) { entries.removeAll { $0.name == name } }

    /// What the networking process does with a request.
    public struct Decision: Sendable, Equatable {
        /// Not sent: reported to the page as a network error.
        public var blocked = false
        /// Sent without cookies, and cookies in the response not stored.
        public var blockCookies = false
        /// make-https: the http: or ws: URL on its default port, upgraded.
        public var upgradedURL: String? = nil
        /// A redirect (after make-https), when not blocked.
        public var redirectURL: String? = nil
        /// modify-headers actions, to apply with `HeaderModification.apply`.
        public var headerModifications: [ModifyHeadersAction] = []
        /// notify actions' notifications.
        public var notifications: [String] = []
        /// The URL did not parse: nothing was decided.
        public var invalidURL = false

        public static func == (a: Decision, b: Decision) -> Bool {
            a.blocked == b.blocked && a.blockCookies == b.blockCookies && a.upgradedURL == b.upgradedURL
                && a.redirectURL == b.redirectURL && a.headerModifications == b.headerModifications
                && a.notifications == b.notifications && a.invalidURL == b.invalidURL
        }
    }

    /// Decides a request from the text the networking process has: the URL, its resource type
    /// (a `ResourceFlags` resource-type bit), the page's main document URL, the frame's URL (the
    /// main document's when nil), whether the main frame makes it, the request method
    /// (`ResourceFlags.requestMethod(named:)`, 0 for none).
    public func decide(url: String, resourceType: UInt32, mainDocumentURL: String, frameURL: String? = nil,
                       mainFrameContext: Bool = false, requestMethod: UInt32 = 0) -> Decision {
        var d = Decision()
        var upgrade = false
        var redirects: [RedirectAction] = []
        for e in entries {
            guard e.matcher.decide(url: url, resourceType: resourceType, mainDocumentURL: mainDocumentURL, frameURL: frameURL,
                                   mainFrameContext: mainFrameContext, requestMethod: requestMethod, networkOnly: true) else {
                d.invalidURL = true
                return d
            }
            for l in e.matcher.result {
                switch e.list.kind(atLocation: l) {
                case RuleAction.block.kind: d.blocked = true
                case RuleAction.blockCookies.kind: d.blockCookies = true
                case RuleAction.makeHTTPS.kind: upgrade = true
                default:
                    switch e.list.action(atLocation: l) {
                    case .notify(let n): d.notifications.append(n)
                    case .redirect(let r): redirects.append(r)
                    case .modifyHeaders(let m): d.headerModifications.append(m)
                    default: break
                    }
                }
            }
        }
        if d.blocked || (!upgrade && redirects.isEmpty) { return d }
        guard var current = RequestURL(url) else { return d }
        // make-https: http and ws URLs on their default port (processContentRuleListsForLoad).
        if upgrade, current.scheme == "http" || current.scheme == "ws", current.port == nil {
            current.scheme = current.scheme == "http" ? "https" : "wss"
            d.upgradedURL = current.string
        }
        var changed = false
        for r in redirects {
            if let s = r.apply(to: current), let u = RequestURL(s) { current = u; changed = true }
        }
        if changed { d.redirectURL = current.string }
        return d
    }

    /// The style sheet the content process applies to a page (WebKit's user style sheet of
    /// content blockers): each list's global style sheet, unless an ignore-previous-rules
    /// matched the page's URL, then the css-display-none selectors of rules that match the
    /// page's URL, as `selectors{display:none !important;}` rules. Empty when nothing applies.
    /// `mainDocumentURL`: the top page's, for a document in a frame.
    public func styleSheet(forPage url: String, mainDocumentURL: String? = nil) -> String {
        var sheet = ""
        for e in entries {
            guard e.matcher.decide(url: url, resourceType: mainDocumentURL == nil ? ResourceFlags.topDocument : ResourceFlags.childDocument,
                                   mainDocumentURL: mainDocumentURL ?? url, frameURL: url,
                                   mainFrameContext: mainDocumentURL == nil, networkOnly: false) else { continue }
            var selectors: [String] = []
            for l in e.matcher.result where e.list.kind(atLocation: l) == RuleAction.cssDisplayNone(selector: "").kind {
                if case .cssDisplayNone(let s) = e.list.action(atLocation: l) { selectors.append(s) }
            }
            if !e.matcher.sawIgnorePreviousRules, let global = e.list.globalStyleSheet { sheet += global + "\n" }
            if !selectors.isEmpty { sheet += selectors.joined(separator: ",") + "{display:none !important;}\n" }
        }
        return sheet
    }
}
