import EngineIPC
import WebURL

/// What the networking process asks about each request before it is sent (the first one and
/// every redirect): the hook where the content blocker decides. Called on the fetching thread,
/// possibly several at once.
public protocol RequestPolicy: AnyObject, Sendable {
    func decide(_ request: RequestInfo) -> RequestDecision
    /// The style sheet of content-blocker rules (css-display-none) for a document that was
    /// fetched: what the content process applies to the page; nil for none.
    func styleSheet(forDocument url: WebURL, firstPartyURL: WebURL?) -> String?
}

extension RequestPolicy {
    public func styleSheet(forDocument url: WebURL, firstPartyURL: WebURL?) -> String? { nil }
}

/// A request as the policy sees it.
public struct RequestInfo: Sendable {
    public var url: WebURL
    public var method: String
    public var resourceType: ResourceType
    /// The page that makes the request (nil for a top-level navigation).
    public var firstPartyURL: WebURL?
    /// 0 for the request itself, n for the n-th redirect.
    public var redirectCount: Int
    /// The request's header fields (what modify-headers rules change).
    public var headers: [HTTPHeader] = []
}

/// A policy's answer. The actions combine (WebKit's rules can both upgrade a load and block
/// its cookies); `block` wins over everything.
public struct RequestDecision: Equatable, Sendable {
    public var block = false
    public var upgradeToHTTPS = false
    public var stripCookies = false
    /// Load this URL instead (absolute, or relative to the request's URL).
    public var redirect: String?
    /// The request's header fields after the policy's changes (modify-headers); nil: unchanged.
    public var headers: [HTTPHeader]? = nil

    public init(block: Bool = false, upgradeToHTTPS: Bool = false, stripCookies: Bool = false, redirect: String? = nil) {
        self.block = block
        self.upgradeToHTTPS = upgradeToHTTPS
        self.stripCookies = stripCookies
        self.redirect = redirect
    }

    public static let allow = RequestDecision()
    public static let block = RequestDecision(block: true)
    public static let upgradeToHTTPS = RequestDecision(upgradeToHTTPS: true)
    public static let stripCookies = RequestDecision(stripCookies: true)
    public static func redirect(to url: String) -> RequestDecision { RequestDecision(redirect: url) }
}
