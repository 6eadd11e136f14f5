import ContentBlocker
import EngineIPC
import Synchronization
import WebURL

/// The content blockers as the networking process's request policy: the profile's compiled
/// lists (`ContentBlockerProfile`, each mapped from its file), decided for every request
/// before it is sent and for every redirect: block (the page gets a network error, as in
/// Safari), block-cookies (none sent, none stored), make-https, redirect, modify-headers.
/// For a fetched document, `styleSheet(forDocument:)` gives the css-display-none rules the
/// content process applies.
///
/// Requests are decided on the fetching threads, several at once: a matcher keeps scratch
/// and page caches, so each decision borrows a `ContentBlockerSet` from a pool (one per
/// thread in practice) over the same mapped lists.
public final class ContentBlockerPolicy: RequestPolicy, @unchecked Sendable {
    let lists: [(name: String, list: CompiledRuleList)]
    let pool = Mutex<[ContentBlockerSetBox]>([])
    /// What loading the profile's lists reported (recompiled files, lists left out).
    public let problems: [String]

    /// The lists of `profileDirectory`; nil when it has none (no policy needed).
    public convenience init?(profileDirectory: String) {
        let (set, problems) = ContentBlockerProfile(profileDirectory: profileDirectory).loadAll()
        guard !set.names.isEmpty || !problems.isEmpty else { return nil }
        self.init(set: set, problems: problems)
    }

    /// A policy over the lists of `set` (the set itself becomes the first of the pool).
    public init(set: ContentBlockerSet, problems: [String] = []) {
        lists = set.lists
        self.problems = problems
        pool.withLock { $0.append(ContentBlockerSetBox(set)) }
    }

    public var names: [String] { lists.map(\.name) }

    func withSet<T>(_ body: (ContentBlockerSet) -> T) -> T {
        let box = pool.withLock { $0.popLast() } ?? {
            let set = ContentBlockerSet()
            for l in lists { set.add(name: l.name, list: l.list) }
            return ContentBlockerSetBox(set)
        }()
        defer { pool.withLock { $0.append(box) } }
        return body(box.set)
    }

    static func resourceFlags(_ type: ResourceType, topLevel: Bool) -> UInt32 {
        switch type {
        case .document: return topLevel ? ResourceFlags.topDocument : ResourceFlags.childDocument
        case .script: return ResourceFlags.script
        case .styleSheet: return ResourceFlags.styleSheet
        case .image: return ResourceFlags.image
        case .font: return ResourceFlags.font
        case .media: return ResourceFlags.media
        case .fetch: return ResourceFlags.fetch
        case .other: return ResourceFlags.other
        }
    }

    public func decide(_ request: RequestInfo) -> RequestDecision {
        let url = request.url.href
        let topLevel = request.firstPartyURL == nil
        let page = request.firstPartyURL?.href ?? url
        let d = withSet { set in
            set.decide(url: url, resourceType: ContentBlockerPolicy.resourceFlags(request.resourceType, topLevel: topLevel),
                       mainDocumentURL: page, mainFrameContext: topLevel,
                       requestMethod: ResourceFlags.requestMethod(named: request.method.lowercased()) ?? 0)
        }
        if d.invalidURL { return .allow }
        var decision = RequestDecision()
        decision.block = d.blocked
        decision.stripCookies = d.blockCookies
        // make-https and redirects come as the URL to load (the redirect after the upgrade).
        if let target = d.redirectURL ?? d.upgradedURL { decision.redirect = target }
        if !d.headerModifications.isEmpty {
            var headers = request.headers.map { ($0.name, $0.value) }
            HeaderModification.apply(d.headerModifications, to: &headers)
            decision.headers = headers.map { HTTPHeader($0.0, $0.1) }
        }
        return decision
    }

    public func styleSheet(forDocument url: WebURL, firstPartyURL: WebURL?) -> String? {
        let sheet = withSet { $0.styleSheet(forPage: url.href, mainDocumentURL: firstPartyURL?.href) }
        return sheet.isEmpty ? nil : sheet
    }
}

/// A set that moves between threads through the pool (used by one thread at a time).
final class ContentBlockerSetBox: @unchecked Sendable {
    let set: ContentBlockerSet
    init(_ set: ContentBlockerSet) { self.set = set }
}
