/// A load to decide (WebKit's `ResourceLoadInfo`): the URL, the page's main document URL,
/// the frame's URL, the resource type and context, the request method.
public struct ResourceLoad: Sendable {
    public let url: RequestURL
    public let urlString: String
    public let mainDocumentURLString: String
    public let mainDocumentHost: String
    public let frameURLString: String
    public let ancestorFrameURLStrings: [String]
    /// Resource type, load type (first/third party), load context and request method flags.
    public let flags: UInt32

    /// - Parameters:
    ///   - resourceType: one of `ResourceFlags`' resource-type bits.
    ///   - mainFrameContext: whether the load is made by the main frame (WebKit's default: no).
    ///   - requestMethod: a `ResourceFlags.requestMethod(named:)` value, or 0.
    public init(url: RequestURL, mainDocumentURL: RequestURL?, frameURL: RequestURL? = nil,
                ancestorFrameURLs: [RequestURL] = [], resourceType: UInt32,
                mainFrameContext: Bool = false, requestMethod: UInt32 = 0,
                mainDocumentDomain: RegistrableDomain? = nil) {
        self.url = url
        urlString = url.string
        mainDocumentURLString = mainDocumentURL?.string ?? ""
        mainDocumentHost = mainDocumentURL?.host ?? ""
        frameURLString = frameURL?.string ?? mainDocumentURLString
        ancestorFrameURLStrings = ancestorFrameURLs.map(\.string)
        // ResourceLoadInfo::isThirdParty: the main document's registrable domain does not
        // match the URL's host.
        let domain = mainDocumentDomain ?? RegistrableDomain(host: mainDocumentHost)
        let thirdParty = !domain.matches(host: url.host)
        flags = resourceType
            | (thirdParty ? ResourceFlags.thirdParty : ResourceFlags.firstParty)
            | (mainFrameContext ? ResourceFlags.topFrame : ResourceFlags.childFrame)
            | requestMethod
    }

    /// WebKit decides nothing for a data: URL (`actionsForResourceLoad`).
    public var isExempt: Bool { url.scheme == "data" }
}
