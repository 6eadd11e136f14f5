// The URL interface's setters (https://url.spec.whatwg.org/#urlutils-members).

extension WebURL {
    /// `href` setter: false (TypeError) when the value does not parse.
    @discardableResult
    public mutating func setHref(_ value: String) -> Bool {
        guard let url = WebURL(value) else { return false }
        self = url
        return true
    }

    public mutating func setProtocol(_ value: String) {
        URLParser.basicParse(value + ":", base: nil, url: &self, stateOverride: .schemeStart)
    }

    public mutating func setUsername(_ value: String) {
        if cannotHaveUsernamePasswordPort { return }
        username = percentEncode(value.unicodeScalars, .userinfo)
    }

    public mutating func setPassword(_ value: String) {
        if cannotHaveUsernamePasswordPort { return }
        password = percentEncode(value.unicodeScalars, .userinfo)
    }

    public mutating func setHost(_ value: String) {
        if hasOpaquePath { return }
        var copy = self
        if URLParser.basicParse(value, base: nil, url: &copy, stateOverride: .host) { self = copy }
    }

    public mutating func setHostname(_ value: String) {
        if hasOpaquePath { return }
        var copy = self
        if URLParser.basicParse(value, base: nil, url: &copy, stateOverride: .hostname) { self = copy }
    }

    public mutating func setPort(_ value: String) {
        if cannotHaveUsernamePasswordPort { return }
        if value.isEmpty {
            port = nil
            return
        }
        var copy = self
        if URLParser.basicParse(value, base: nil, url: &copy, stateOverride: .port) { self = copy }
    }

    public mutating func setPathname(_ value: String) {
        if hasOpaquePath { return }
        var copy = self
        copy.path = .segments([])
        if URLParser.basicParse(value, base: nil, url: &copy, stateOverride: .pathStart) { self = copy }
    }

    public mutating func setSearch(_ value: String) {
        if value.isEmpty {
            query = nil
            stripTrailingSpacesFromOpaquePath()
            return
        }
        let input = value.hasPrefix("?") ? String(value.unicodeScalars.dropFirst()) : value
        var copy = self
        copy.query = ""
        if URLParser.basicParse(input, base: nil, url: &copy, stateOverride: .query) { self = copy }
    }

    public mutating func setHash(_ value: String) {
        if value.isEmpty {
            fragment = nil
            stripTrailingSpacesFromOpaquePath()
            return
        }
        let input = value.hasPrefix("#") ? String(value.unicodeScalars.dropFirst()) : value
        var copy = self
        copy.fragment = ""
        if URLParser.basicParse(input, base: nil, url: &copy, stateOverride: .fragment) { self = copy }
    }

    /// Replaces the query with serialized name-value pairs (`searchParams` updates).
    public mutating func setSearchParams(_ params: URLSearchParams) {
        let s = params.serialized
        query = s.isEmpty ? nil : s
        if s.isEmpty { stripTrailingSpacesFromOpaquePath() }
    }

    /// https://url.spec.whatwg.org/#potentially-strip-trailing-spaces-from-an-opaque-path
    mutating func stripTrailingSpacesFromOpaquePath() {
        guard case .opaque(var p) = path, fragment == nil, query == nil else { return }
        while p.hasSuffix(" ") { p.removeLast() }
        path = .opaque(p)
    }
}
