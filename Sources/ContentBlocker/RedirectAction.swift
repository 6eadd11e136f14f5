/// A `redirect` action (WebKit `ContentExtensionActions.cpp`, `RedirectAction::parse`).
public enum RedirectAction: Sendable, Equatable {
    case extensionPath(String)
    case regexSubstitution(substitution: String, regex: String)
    case transform(URLTransform)
    case url(String)

    /// `{ "type": "redirect", "redirect": { … } }`: the members are tried in WebKit's order,
    /// extension-path, regex-substitution, transform, url.
    static func parse(_ action: JSONValue, urlFilter: String) -> Result<RedirectAction, ContentExtensionError> {
        guard let redirect = action["redirect"], redirect.isObject else { return .failure(.JSONRedirectMissing) }
        if let path = redirect["extension-path"]?.stringValue {
            guard path.hasPrefix("/") else { return .failure(.JSONRedirectExtensionPathDoesNotStartWithSlash) }
            return .success(.extensionPath(path))
        }
        if let substitution = redirect["regex-substitution"]?.stringValue {
            return .success(.regexSubstitution(substitution: substitution, regex: urlFilter))
        }
        if let transform = redirect["transform"], transform.isObject {
            return URLTransform.parse(transform).map(RedirectAction.transform)
        }
        if let url = redirect["url"]?.stringValue {
            guard let parsed = RequestURL(url) else {
                if asciiLowercased(url).hasPrefix("javascript:") { return .failure(.JSONRedirectToJavaScriptURL) }
                return .failure(.JSONRedirectURLInvalid)
            }
            if parsed.scheme == "javascript" { return .failure(.JSONRedirectToJavaScriptURL) }
            return .success(.url(parsed.string))
        }
        return .failure(.JSONRedirectInvalidType)
    }

    /// The URL a request is redirected to, or nil when the redirect does not apply.
    /// `extensionBaseURL` is where `extension-path` resolves (none outside an extension).
    public func apply(to url: RequestURL, extensionBaseURL: String? = nil) -> String? {
        switch self {
        case .extensionPath(let path):
            guard let base = extensionBaseURL else { return nil }
            return (base.hasSuffix("/") ? String(base.dropLast()) : base) + path
        case .url(let target):
            return target
        case .transform(let transform):
            return transform.apply(to: url).string
        case .regexSubstitution(let substitution, let regex):
            // The url-filter as a JavaScript regular expression over the URL (`SubstitutionRegex`).
            return SubstitutionRegex.substitute(substitution, regex: regex, in: url.string)
        }
    }
}

/// The `transform` member of a redirect (WebKit's `URLTransformAction`).
public struct URLTransform: Sendable, Equatable {
    public var fragment: String?
    public var host: String?
    public var password: String?
    public var path: String?
    public var port: String?
    public var query: String?
    public var removeParameters: [String] = []
    public var addOrReplaceParameters: [(key: String, value: String, replaceOnly: Bool)] = []
    public var scheme: String?
    public var username: String?

    public static func == (a: URLTransform, b: URLTransform) -> Bool {
        a.fragment == b.fragment && a.host == b.host && a.password == b.password && a.path == b.path
            && a.port == b.port && a.query == b.query && a.removeParameters == b.removeParameters
            && a.scheme == b.scheme && a.username == b.username
            && a.addOrReplaceParameters.count == b.addOrReplaceParameters.count
            && zip(a.addOrReplaceParameters, b.addOrReplaceParameters).allSatisfy {
                $0.key == $1.key && $0.value == $1.value && $0.replaceOnly == $1.replaceOnly
            }
    }

    static func parse(_ object: JSONValue) -> Result<URLTransform, ContentExtensionError> {
        var t = URLTransform()
        if let fragment = object["fragment"]?.stringValue {
            guard fragment.isEmpty || fragment.hasPrefix("#") else { return .failure(.JSONRedirectInvalidFragment) }
            t.fragment = fragment
        }
        t.host = object["host"]?.stringValue
        t.password = object["password"]?.stringValue
        t.path = object["path"]?.stringValue
        if let port = object["port"]?.stringValue {
            if !port.isEmpty {
                guard port.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), port.utf8.count <= 5,
                      let n = Int(port), n <= 65535 else { return .failure(.JSONRedirectInvalidPort) }
            }
            t.port = port
        }
        if let query = object["query"]?.stringValue {
            guard query.isEmpty || query.hasPrefix("?") else { return .failure(.JSONRedirectInvalidQuery) }
            t.query = query
        }
        if let queryTransform = object["query-transform"], queryTransform.isObject {
            if let remove = queryTransform["remove-parameters"] {
                guard let items = remove.arrayValue else { return .failure(.JSONRemoveParametersNotStringArray) }
                for item in items {
                    guard let s = item.stringValue else { return .failure(.JSONRemoveParametersNotStringArray) }
                    t.removeParameters.append(s)
                }
            }
            if let add = queryTransform["add-or-replace-parameters"] {
                guard let items = add.arrayValue else { return .failure(.JSONAddOrReplaceParametersNotArray) }
                for item in items {
                    guard item.isObject else { return .failure(.JSONAddOrReplaceParametersKeyValueNotADictionary) }
                    guard let key = item["key"]?.stringValue else {
                        return .failure(.JSONAddOrReplaceParametersKeyValueMissingKeyString)
                    }
                    guard let value = item["value"]?.stringValue else {
                        return .failure(.JSONAddOrReplaceParametersKeyValueMissingValueString)
                    }
                    t.addOrReplaceParameters.append((key, value, item["replace-only"]?.boolValue ?? false))
                }
            }
        }
        if let scheme = object["scheme"]?.stringValue {
            let lower = asciiLowercased(scheme)
            guard RequestURL.isValidScheme(lower) else { return .failure(.JSONRedirectURLSchemeInvalid) }
            guard lower != "javascript" else { return .failure(.JSONRedirectToJavaScriptURL) }
            t.scheme = lower
        }
        t.username = object["username"]?.stringValue
        return .success(t)
    }

    /// The URL after the transform.
    public func apply(to url: RequestURL) -> RequestURL {
        var u = url
        if let scheme { u.scheme = scheme }
        if let username { u.username = username }
        if let password { u.password = password }
        if let host { u.host = asciiLowercased(host) }
        if let port { u.port = port.isEmpty ? nil : port }
        if let path { u.path = path.isEmpty || path.hasPrefix("/") ? (path.isEmpty ? "/" : path) : "/" + path }
        if let query { u.query = query.isEmpty ? nil : String(query.dropFirst()) }
        if !removeParameters.isEmpty || !addOrReplaceParameters.isEmpty {
            var pairs: [(String, String?)] = []
            if let q = u.query, !q.isEmpty {
                for part in q.split(separator: "&", omittingEmptySubsequences: false) {
                    if let eq = part.firstIndex(of: "=") {
                        pairs.append((String(part[..<eq]), String(part[part.index(after: eq)...])))
                    } else { pairs.append((String(part), nil)) }
                }
            }
            pairs.removeAll { removeParameters.contains($0.0) }
            for p in addOrReplaceParameters {
                if let i = pairs.firstIndex(where: { $0.0 == p.key }) { pairs[i].1 = p.value }
                else if !p.replaceOnly { pairs.append((p.key, p.value)) }
            }
            u.query = pairs.isEmpty ? nil : pairs.map { pair in pair.1.map { v in "\(pair.0)=\(v)" } ?? pair.0 }.joined(separator: "&")
        }
        if let fragment { u.fragment = fragment.isEmpty ? nil : String(fragment.dropFirst()) }
        return u
    }
}

/// A `modify-headers` action (WebKit's `ModifyHeadersAction`).
public struct ModifyHeadersAction: Sendable, Equatable {
    public enum Operation: String, Sendable { case set, append, remove }
    public struct HeaderInfo: Sendable, Equatable {
        public var operation: Operation
        public var header: String
        public var value: String
    }
    public var requestHeaders: [HeaderInfo] = []
    public var responseHeaders: [HeaderInfo] = []
    public var priority: UInt32 = 0

    static func parse(_ action: JSONValue) -> Result<ModifyHeadersAction, ContentExtensionError> {
        func list(_ key: String) -> Result<[HeaderInfo], ContentExtensionError> {
            guard let value = action[key] else { return .success([]) }
            guard let items = value.arrayValue else { return .failure(.JSONModifyHeadersNotArray) }
            var infos: [HeaderInfo] = []
            for item in items {
                guard item.isObject else { return .failure(.JSONModifyHeadersInfoNotADictionary) }
                guard let op = item["operation"]?.stringValue else { return .failure(.JSONModifyHeadersMissingOperation) }
                guard let operation = Operation(rawValue: op) else { return .failure(.JSONModifyHeadersInvalidOperation) }
                guard let header = item["header"]?.stringValue else { return .failure(.JSONModifyHeadersMissingHeader) }
                let value = item["value"]?.stringValue
                if operation != .remove && value == nil { return .failure(.JSONModifyHeadersMissingValue) }
                infos.append(HeaderInfo(operation: operation, header: header, value: value ?? ""))
            }
            return .success(infos)
        }
        var m = ModifyHeadersAction()
        switch list("request-headers") { case .success(let l): m.requestHeaders = l; case .failure(let e): return .failure(e) }
        switch list("response-headers") { case .success(let l): m.responseHeaders = l; case .failure(let e): return .failure(e) }
        if let p = action["priority"] {
            guard let n = p.numberValue, n >= 0, n == n.rounded(), n <= Double(UInt32.max) else {
                return .failure(.JSONModifyHeadersInvalidPriority)
            }
            m.priority = UInt32(n)
        }
        return .success(m)
    }
}
