/// The `eval` format of `sable-contentblock` (one JSON case a line in, one JSON result a line
/// out), in the library so that the tests and the command share it.
///
/// In: `{"rules": [...]}` or `{"ruleLists": [[...], ...]}` or `{"rulesJSON": "text"}`, and
/// `"request"`: `{url, resourceType, mainDocumentURL, frameURL, ancestorFrameURLs,
/// requestMethod, mainFrameContext, requestHeaders}` or null (compile only).
/// Out: `{actions, error, errorMessage, globalStyleSheet, cssSelectors, redirectURL,
/// upgradedURL, requestHeadersAfter, notifications}`.
public enum ContentBlockerEval {
    public static func evaluate(line: String) -> String {
        evaluate(JSONValue.parse(line)).serialized
    }

    static func errorResult(_ name: String, _ message: String) -> JSONValue {
        output(actions: [], error: .string(name), message: .string(message))
    }

    static func output(actions: [JSONValue], error: JSONValue = .null, message: JSONValue = .null,
                       sheet: JSONValue = .null, selectors: [JSONValue] = [], redirect: JSONValue = .null,
                       upgraded: JSONValue = .null, headers: JSONValue = .null, notifications: [JSONValue] = []) -> JSONValue {
        .object([("actions", .array(actions)), ("error", error), ("errorMessage", message),
                 ("globalStyleSheet", sheet), ("cssSelectors", .array(selectors)), ("redirectURL", redirect),
                 ("upgradedURL", upgraded), ("requestHeadersAfter", headers), ("notifications", .array(notifications))])
    }

    /// Compiles one list given as a JSON value or raw text, through the serialized form.
    static func compileList(_ value: JSONValue?, text: String?) -> Result<CompiledRuleList, ContentExtensionError> {
        let rules: Result<[ContentRule], ContentExtensionError>
        if let text { rules = RuleListParser.parse(text) }
        else if let value { rules = RuleListParser.loadEncodedRules(value) }
        else { rules = .failure(.JSONInvalid) }
        switch rules {
        case .failure(let e): return .failure(e)
        case .success(let r):
            switch ContentRuleListCompiler.compile(rules: r) {
            case .failure(let e): return .failure(e)
            case .success(let bytes):
                guard let list = try? CompiledRuleList(bytes: bytes) else { return .failure(.ErrorWritingSerializedNFA) }
                return .success(list)
            }
        }
    }

    public static func evaluate(_ input: JSONValue?) -> JSONValue {
        guard let input, input.isObject else { return errorResult("BadCase", "the case is not a JSON object") }
        var lists: [CompiledRuleList] = []
        var sources: [(JSONValue?, String?)] = []
        if let text = input["rulesJSON"]?.stringValue { sources.append((nil, text)) }
        else if let many = input["ruleLists"]?.arrayValue { sources = many.map { ($0, nil) } }
        else if let rules = input["rules"] { sources.append((rules, nil)) }
        else { return errorResult("BadCase", "no rules, ruleLists or rulesJSON") }
        for (value, text) in sources {
            switch compileList(value, text: text) {
            case .failure(let e): return errorResult(e.name, e.message)
            case .success(let l): lists.append(l)
            }
        }
        guard let request = input["request"], request.isObject else { return output(actions: []) }
        return decide(request, lists: lists)
    }

    static func decide(_ request: JSONValue, lists: [CompiledRuleList]) -> JSONValue {
        guard let urlText = request["url"]?.stringValue, let url = RequestURL(urlText) else { return output(actions: []) }
        let typeName = request["resourceType"]?.stringValue ?? "other"
        guard let type = ResourceFlags.requestResourceType(named: typeName) else {
            return errorResult("BadCase", "unknown resourceType \(typeName)")
        }
        let main = request["mainDocumentURL"]?.stringValue.flatMap(RequestURL.init)
        let frame = request["frameURL"]?.stringValue.flatMap(RequestURL.init)
        let ancestors = (request["ancestorFrameURLs"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(RequestURL.init) }
        let method = request["requestMethod"]?.stringValue.flatMap(ResourceFlags.requestMethod(named:)) ?? 0
        let load = ResourceLoad(url: url, mainDocumentURL: main, frameURL: frame, ancestorFrameURLs: ancestors,
                                resourceType: type, mainFrameContext: request["mainFrameContext"]?.boolValue ?? false,
                                requestMethod: method)
        var actions: [JSONValue] = []
        var sheets: [String] = []
        var selectors: [JSONValue] = []
        var notifications: [JSONValue] = []
        var redirects: [RedirectAction] = []
        var modifications: [ModifyHeadersAction] = []
        var blocked = false, upgrade = false
        for list in lists {
            let matcher = RuleListMatcher(list)
            matcher.decide(load)
            for l in matcher.result {
                let action = list.action(atLocation: l)
                actions.append(.string(action.typeName))
                switch action {
                case .block: blocked = true
                case .cssDisplayNone(let s): selectors.append(.string(s))
                case .notify(let s): notifications.append(.string(s))
                case .makeHTTPS: upgrade = true
                case .redirect(let r): redirects.append(r)
                case .modifyHeaders(let m): modifications.append(m)
                default: break
                }
            }
            if !matcher.sawIgnorePreviousRules, let sheet = list.globalStyleSheet { sheets.append(sheet) }
        }
        var current = url
        var upgraded: JSONValue = .null
        // make-https: http and ws URLs on their default port (processContentRuleListsForLoad).
        if upgrade, url.scheme == "http" || url.scheme == "ws", url.port == nil {
            current.scheme = url.scheme == "http" ? "https" : "wss"
            upgraded = .string(current.string)
        }
        var redirectURL: JSONValue = .null
        if !blocked && !redirects.isEmpty {
            var changed = false
            for r in redirects {
                if let s = r.apply(to: current), let u = RequestURL(s) { current = u; changed = true }
            }
            if changed { redirectURL = .string(current.string) }
        }
        var headersAfter: JSONValue = .null
        if let headers = request["requestHeaders"], case .object(let members) = headers {
            var h: [(String, String)] = members.compactMap { m in m.1.stringValue.map { (m.0, $0) } }
            HeaderModification.apply(modifications, to: &h)
            headersAfter = .object(h.map { ($0.0, .string($0.1)) })
        } else if !modifications.isEmpty {
            var h: [(String, String)] = []
            HeaderModification.apply(modifications, to: &h)
            headersAfter = .object(h.map { ($0.0, .string($0.1)) })
        }
        return output(actions: actions, sheet: sheets.isEmpty ? .null : .string(sheets.joined(separator: "\n")),
                      selectors: selectors, redirect: redirectURL, upgraded: upgraded, headers: headersAfter,
                      notifications: notifications)
    }
}

/// Applying modify-headers actions to request headers: the highest priority first; the first
/// action to set or remove a header decides it, later ones may only append to a set or
/// appended header (WebKit's `ModifyHeadersAction::applyToRequest`, after DNR's rules).
public enum HeaderModification {
    public static func apply(_ actions: [ModifyHeadersAction], to headers: inout [(String, String)]) {
        var firstOperation: [String: ModifyHeadersAction.Operation] = [:]
        let ordered = actions.enumerated().sorted { $0.element.priority > $1.element.priority || ($0.element.priority == $1.element.priority && $0.offset < $1.offset) }
        for (_, action) in ordered {
            for info in action.requestHeaders {
                let key = asciiLowercased(info.header)
                if let first = firstOperation[key] {
                    if first == .remove || info.operation != .append { continue }
                } else { firstOperation[key] = info.operation }
                let index = headers.firstIndex { asciiLowercased($0.0) == key }
                switch info.operation {
                case .set:
                    if let i = index { headers[i].1 = info.value } else { headers.append((info.header, info.value)) }
                case .append:
                    if let i = index { headers[i].1 += "; " + info.value } else { headers.append((info.header, info.value)) }
                case .remove:
                    headers.removeAll { asciiLowercased($0.0) == key }
                }
            }
        }
    }
}
