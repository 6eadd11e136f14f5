// The URL interface's setters (https://url.spec.whatwg.org/#urlutils-members). As in the
// standard, a setter whose parse fails part-way keeps what was set before the failure
// (`host = "example.com:65536"` sets the host, not the port).

extension WebURL {
    /// The setter of the URL interface's attribute `attribute` (`href`, `protocol`,
    /// `username`, `password`, `host`, `hostname`, `port`, `pathname`, `search`, `hash`).
    /// False when `href` is given a value that does not parse (a TypeError) or the name is
    /// none of those; the URL is then unchanged.
    @discardableResult
    public mutating func set(_ attribute: String, to value: String) -> Bool {
        switch attribute {
        case "href": return setHref(value)
        case "protocol": setProtocol(value)
        case "username": setUsername(value)
        case "password": setPassword(value)
        case "host": setHost(value)
        case "hostname": setHostname(value)
        case "port": setPort(value)
        case "pathname": setPathname(value)
        case "search": setSearch(value)
        case "hash": setHash(value)
        default: return false
        }
        return true
    }

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
        URLParser.basicParse(value, base: nil, url: &self, stateOverride: .host)
    }

    public mutating func setHostname(_ value: String) {
        if hasOpaquePath { return }
        URLParser.basicParse(value, base: nil, url: &self, stateOverride: .hostname)
    }

    public mutating func setPort(_ value: String) {
        if cannotHaveUsernamePasswordPort { return }
        if value.isEmpty {
            port = nil
            return
        }
        URLParser.basicParse(value, base: nil, url: &self, stateOverride: .port)
    }

    public mutating func setPathname(_ value: String) {
        if hasOpaquePath { return }
        path = .segments([])
        URLParser.basicParse(value, base: nil, url: &self, stateOverride: .pathStart)
    }

    public mutating func setSearch(_ value: String) {
        if value.isEmpty {
            query = nil
            stripTrailingSpacesFromOpaquePath()
            return
        }
        let input = value.hasPrefix("?") ? String(value.unicodeScalars.dropFirst()) : value
        query = ""
        URLParser.basicParse(input, base: nil, url: &self, stateOverride: .query)
    }

    public mutating func setHash(_ value: String) {
        if value.isEmpty {
            fragment = nil
            stripTrailingSpacesFromOpaquePath()
            return
        }
        let input = value.hasPrefix("#") ? String(value.unicodeScalars.dropFirst()) : value
        fragment = ""
        URLParser.basicParse(input, base: nil, url: &self, stateOverride: .fragment)
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
