/// The payload of `redirect` and `modify-headers` actions in a compiled list: the action's
/// members as JSON (decoded only when such a rule matches).
enum ActionCoding {
    static func encode(redirect: RedirectAction) -> String {
        var members: [(String, JSONValue)] = []
        switch redirect {
        case .extensionPath(let p): members.append(("extension-path", .string(p)))
        case .url(let u): members.append(("url", .string(u)))
        case .regexSubstitution(let s, let r): members.append(("regex-substitution", .string(s))); members.append(("regex", .string(r)))
        case .transform(let t):
            var o: [(String, JSONValue)] = []
            if let v = t.fragment { o.append(("fragment", .string(v))) }
            if let v = t.host { o.append(("host", .string(v))) }
            if let v = t.password { o.append(("password", .string(v))) }
            if let v = t.path { o.append(("path", .string(v))) }
            if let v = t.port { o.append(("port", .string(v))) }
            if let v = t.query { o.append(("query", .string(v))) }
            if let v = t.scheme { o.append(("scheme", .string(v))) }
            if let v = t.username { o.append(("username", .string(v))) }
            var q: [(String, JSONValue)] = []
            if !t.removeParameters.isEmpty { q.append(("remove-parameters", .array(t.removeParameters.map(JSONValue.string)))) }
            if !t.addOrReplaceParameters.isEmpty {
                q.append(("add-or-replace-parameters", .array(t.addOrReplaceParameters.map {
                    .object([("key", .string($0.key)), ("value", .string($0.value)), ("replace-only", .bool($0.replaceOnly))])
                })))
            }
            if !q.isEmpty { o.append(("query-transform", .object(q))) }
            members.append(("transform", .object(o)))
        }
        return JSONValue.object(members).serialized
    }

    static func decodeRedirect(_ payload: String) -> RedirectAction? {
        guard let v = JSONValue.parse(payload) else { return nil }
        if let s = v["regex-substitution"]?.stringValue { return .regexSubstitution(substitution: s, regex: v["regex"]?.stringValue ?? "") }
        guard case .success(let r) = RedirectAction.parse(.object([("redirect", v)]), urlFilter: "") else { return nil }
        return r
    }

    static func encode(modifyHeaders m: ModifyHeadersAction) -> String {
        func list(_ infos: [ModifyHeadersAction.HeaderInfo]) -> JSONValue {
            .array(infos.map { .object([("operation", .string($0.operation.rawValue)), ("header", .string($0.header)), ("value", .string($0.value))]) })
        }
        return JSONValue.object([("request-headers", list(m.requestHeaders)), ("response-headers", list(m.responseHeaders)),
                                 ("priority", .number(Double(m.priority)))]).serialized
    }

    static func decodeModifyHeaders(_ payload: String) -> ModifyHeadersAction? {
        guard let v = JSONValue.parse(payload), case .success(let m) = ModifyHeadersAction.parse(v) else { return nil }
        return m
    }
}
