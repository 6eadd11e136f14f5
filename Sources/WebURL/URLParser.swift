/// The basic URL parser (https://url.spec.whatwg.org/#concept-basic-url-parser): a state
/// machine over the input's code points. Step comments quote the standard.
struct URLParser {
    enum State {
        case schemeStart, scheme, noScheme, specialRelativeOrAuthority, pathOrAuthority, relative,
             relativeSlash, specialAuthoritySlashes, specialAuthorityIgnoreSlashes, authority, host,
             hostname, port, file, fileSlash, fileHost, pathStart, path, opaquePath, query, fragment
    }

    /// Parses a whole URL; nil on failure.
    static func parse(_ input: String, base: WebURL?) -> WebURL? {
        var url = WebURL()
        guard basicParse(input, base: base, url: &url, stateOverride: nil) else { return nil }
        return url
    }

    static func isC0ControlOrSpace(_ c: Unicode.Scalar) -> Bool { c.value <= 0x20 }
    static func isASCIIAlpha(_ c: Unicode.Scalar) -> Bool { (c.value | 0x20) >= 0x61 && (c.value | 0x20) <= 0x7A }
    static func isASCIIDigit(_ c: Unicode.Scalar) -> Bool { c.value >= 0x30 && c.value <= 0x39 }
    static func lower(_ c: Unicode.Scalar) -> Unicode.Scalar {
        c.value >= 0x41 && c.value <= 0x5A ? Unicode.Scalar(c.value + 32)! : c
    }

    /// https://url.spec.whatwg.org/#windows-drive-letter
    static func isWindowsDriveLetter(_ s: some Collection<Unicode.Scalar>) -> Bool {
        guard s.count == 2 else { return false }
        let a = s.first!, b = s[s.index(after: s.startIndex)]
        return isASCIIAlpha(a) && (b == ":" || b == "|")
    }

    static func isNormalizedWindowsDriveLetter(_ s: String) -> Bool {
        let u = s.unicodeScalars
        return isWindowsDriveLetter(u) && u.last == ":"
    }

    /// https://url.spec.whatwg.org/#start-with-a-windows-drive-letter
    static func startsWithWindowsDriveLetter(_ s: ArraySlice<Unicode.Scalar>) -> Bool {
        guard s.count >= 2, isWindowsDriveLetter(s.prefix(2)) else { return false }
        if s.count == 2 { return true }
        let third = s[s.startIndex + 2]
        return third == "/" || third == "\\" || third == "?" || third == "#"
    }

    static func isSingleDot(_ b: [Unicode.Scalar]) -> Bool {
        b == ["."] || (b.count == 3 && b[0] == "%" && b[1] == "2" && (b[2] == "e" || b[2] == "E"))
    }

    static func isDoubleDot(_ b: [Unicode.Scalar]) -> Bool {
        switch b.count {
        case 2: return b == [".", "."]
        case 4: return (isSingleDot(Array(b[0..<1])) && isSingleDot(Array(b[1..<4])))
                    || (isSingleDot(Array(b[0..<3])) && isSingleDot(Array(b[3..<4])))
        case 6: return isSingleDot(Array(b[0..<3])) && isSingleDot(Array(b[3..<6]))
        default: return false
        }
    }

    /// Runs the basic URL parser on `url`. Returns false on failure. With a state override
    /// (the setters), "return" without failure returns true and leaves `url` as modified.
    @discardableResult
    static func basicParse(_ inputString: String, base: WebURL?, url: inout WebURL, stateOverride: State?) -> Bool {
        var input = Array(inputString.unicodeScalars)
        if stateOverride == nil {
            // 1. Remove leading and trailing C0 control or space.
            var start = 0, end = input.count
            while start < end && isC0ControlOrSpace(input[start]) { start += 1 }
            while end > start && isC0ControlOrSpace(input[end - 1]) { end -= 1 }
            input = Array(input[start..<end])
        }
        // 2. Remove all ASCII tab or newline.
        input.removeAll { $0 == "\t" || $0 == "\n" || $0 == "\r" }
        // 3. Let state be state override if given, or scheme start state otherwise.
        var state = stateOverride ?? .schemeStart
        var buffer: [Unicode.Scalar] = []
        var atSignSeen = false, insideBrackets = false, passwordTokenSeen = false
        var pointer = 0
        let count = input.count

        func bufferString() -> String {
            var s = ""
            s.unicodeScalars.append(contentsOf: buffer)
            return s
        }
        func remainingStarts(_ c: Unicode.Scalar) -> Bool { pointer + 1 < count && input[pointer + 1] == c }

        while true {
            let c: Unicode.Scalar? = pointer < count ? input[pointer] : nil
            switch state {
            case .schemeStart:
                if let c, isASCIIAlpha(c) {
                    buffer.append(lower(c))
                    state = .scheme
                } else if stateOverride == nil {
                    state = .noScheme
                    pointer -= 1
                } else {
                    return false
                }

            case .scheme:
                if let c, isASCIIAlpha(c) || isASCIIDigit(c) || c == "+" || c == "-" || c == "." {
                    buffer.append(lower(c))
                } else if c == ":" {
                    let newScheme = bufferString()
                    if stateOverride != nil {
                        if url.isSpecial != WebURL.isSpecialScheme(newScheme) { return true }
                        if (url.includesCredentials || url.port != nil) && newScheme == "file" { return true }
                        if url.scheme == "file" && url.host == .empty { return true }
                    }
                    url.scheme = newScheme
                    if stateOverride != nil {
                        if url.port == WebURL.defaultPort(url.scheme) { url.port = nil }
                        return true
                    }
                    buffer = []
                    if url.scheme == "file" {
                        state = .file
                    } else if url.isSpecial, let base, base.scheme == url.scheme {
                        state = .specialRelativeOrAuthority
                    } else if url.isSpecial {
                        state = .specialAuthoritySlashes
                    } else if remainingStarts("/") {
                        state = .pathOrAuthority
                        pointer += 1
                    } else {
                        url.path = .opaque("")
                        state = .opaquePath
                    }
                } else if stateOverride == nil {
                    buffer = []
                    state = .noScheme
                    pointer = -1
                } else {
                    return false
                }

            case .noScheme:
                guard let base else { return false }
                if base.hasOpaquePath {
                    guard c == "#" else { return false }
                    url.scheme = base.scheme
                    url.path = base.path
                    url.query = base.query
                    url.fragment = ""
                    state = .fragment
                } else if base.scheme != "file" {
                    state = .relative
                    pointer -= 1
                } else {
                    state = .file
                    pointer -= 1
                }

            case .specialRelativeOrAuthority:
                if c == "/" && remainingStarts("/") {
                    state = .specialAuthorityIgnoreSlashes
                    pointer += 1
                } else {
                    state = .relative
                    pointer -= 1
                }

            case .pathOrAuthority:
                if c == "/" {
                    state = .authority
                } else {
                    state = .path
                    pointer -= 1
                }

            case .relative:
                let base = base!
                url.scheme = base.scheme
                if c == "/" || (url.isSpecial && c == "\\") {
                    state = .relativeSlash
                } else {
                    url.username = base.username
                    url.password = base.password
                    url.host = base.host
                    url.port = base.port
                    url.path = base.path
                    url.query = base.query
                    if c == "?" {
                        url.query = ""
                        state = .query
                    } else if c == "#" {
                        url.fragment = ""
                        state = .fragment
                    } else if c != nil {
                        url.query = nil
                        url.shortenPath()
                        state = .path
                        pointer -= 1
                    }
                }

            case .relativeSlash:
                if url.isSpecial && (c == "/" || c == "\\") {
                    state = .specialAuthorityIgnoreSlashes
                } else if c == "/" {
                    state = .authority
                } else {
                    let base = base!
                    url.username = base.username
                    url.password = base.password
                    url.host = base.host
                    url.port = base.port
                    state = .path
                    pointer -= 1
                }

            case .specialAuthoritySlashes:
                if c == "/" && remainingStarts("/") {
                    state = .specialAuthorityIgnoreSlashes
                    pointer += 1
                } else {
                    state = .specialAuthorityIgnoreSlashes
                    pointer -= 1
                }

            case .specialAuthorityIgnoreSlashes:
                if c != "/" && c != "\\" {
                    state = .authority
                    pointer -= 1
                }

            case .authority:
                if c == "@" {
                    if atSignSeen { buffer.insert(contentsOf: ["%", "4", "0"], at: 0) }
                    atSignSeen = true
                    for cp in buffer {
                        if cp == ":" && !passwordTokenSeen {
                            passwordTokenSeen = true
                            continue
                        }
                        if passwordTokenSeen {
                            percentEncode(cp, .userinfo, into: &url.password)
                        } else {
                            percentEncode(cp, .userinfo, into: &url.username)
                        }
                    }
                    buffer = []
                } else if c == nil || c == "/" || c == "?" || c == "#" || (url.isSpecial && c == "\\") {
                    if atSignSeen && buffer.isEmpty { return false }
                    pointer -= buffer.count + 1
                    buffer = []
                    state = .host
                } else {
                    buffer.append(c!)
                }

            case .host, .hostname:
                if stateOverride != nil && url.scheme == "file" {
                    pointer -= 1
                    state = .fileHost
                } else if c == ":" && !insideBrackets {
                    if buffer.isEmpty { return false }
                    if stateOverride == .hostname { return false }
                    guard let host = Host.parse(buffer[...], isOpaque: !url.isSpecial) else { return false }
                    url.host = host
                    buffer = []
                    state = .port
                } else if c == nil || c == "/" || c == "?" || c == "#" || (url.isSpecial && c == "\\") {
                    pointer -= 1
                    if url.isSpecial && buffer.isEmpty { return false }
                    if stateOverride != nil && buffer.isEmpty && (url.includesCredentials || url.port != nil) {
                        return false
                    }
                    guard let host = Host.parse(buffer[...], isOpaque: !url.isSpecial) else { return false }
                    url.host = host
                    buffer = []
                    state = .pathStart
                    if stateOverride != nil { return true }
                } else {
                    if c == "[" { insideBrackets = true }
                    if c == "]" { insideBrackets = false }
                    buffer.append(c!)
                }

            case .port:
                if let c, isASCIIDigit(c) {
                    buffer.append(c)
                } else if c == nil || c == "/" || c == "?" || c == "#" || (url.isSpecial && c == "\\")
                            || stateOverride != nil {
                    if !buffer.isEmpty {
                        var port = 0
                        for d in buffer {
                            port = port * 10 + Int(d.value - 0x30)
                            if port > 65535 { return false }
                        }
                        url.port = UInt16(port) == WebURL.defaultPort(url.scheme) ? nil : UInt16(port)
                        buffer = []
                    }
                    if stateOverride != nil { return true }
                    state = .pathStart
                    pointer -= 1
                } else {
                    return false
                }

            case .file:
                url.scheme = "file"
                url.host = .empty
                if c == "/" || c == "\\" {
                    state = .fileSlash
                } else if let base, base.scheme == "file" {
                    url.host = base.host
                    url.path = base.path
                    url.query = base.query
                    if c == "?" {
                        url.query = ""
                        state = .query
                    } else if c == "#" {
                        url.fragment = ""
                        state = .fragment
                    } else if c != nil {
                        url.query = nil
                        if !startsWithWindowsDriveLetter(input[pointer...]) {
                            url.shortenPath()
                        } else {
                            url.path = .segments([])
                        }
                        state = .path
                        pointer -= 1
                    }
                } else {
                    state = .path
                    pointer -= 1
                }

            case .fileSlash:
                if c == "/" || c == "\\" {
                    state = .fileHost
                } else {
                    if let base, base.scheme == "file" {
                        url.host = base.host
                        if !startsWithWindowsDriveLetter(input[min(pointer, count)...]),
                           let first = base.pathSegments.first, isNormalizedWindowsDriveLetter(first) {
                            url.appendSegment(first)
                        }
                    }
                    state = .path
                    pointer -= 1
                }

            case .fileHost:
                if c == nil || c == "/" || c == "\\" || c == "?" || c == "#" {
                    pointer -= 1
                    if stateOverride == nil && isWindowsDriveLetter(buffer) {
                        // The Windows drive letter quirk: buffer is kept for the path state.
                        state = .path
                    } else if buffer.isEmpty {
                        url.host = .empty
                        if stateOverride != nil { return true }
                        state = .pathStart
                    } else {
                        guard var host = Host.parse(buffer[...], isOpaque: !url.isSpecial) else { return false }
                        if host == .domain("localhost") { host = .empty }
                        url.host = host
                        if stateOverride != nil { return true }
                        buffer = []
                        state = .pathStart
                    }
                } else {
                    buffer.append(c!)
                }

            case .pathStart:
                if url.isSpecial {
                    state = .path
                    if c != "/" && c != "\\" { pointer -= 1 }
                } else if stateOverride == nil && c == "?" {
                    url.query = ""
                    state = .query
                } else if stateOverride == nil && c == "#" {
                    url.fragment = ""
                    state = .fragment
                } else if c != nil {
                    state = .path
                    if c != "/" { pointer -= 1 }
                } else if stateOverride != nil && url.host == nil {
                    url.appendSegment("")
                }

            case .path:
                if c == nil || c == "/" || (url.isSpecial && c == "\\") || (stateOverride == nil && (c == "?" || c == "#")) {
                    let slash = c == "/" || (url.isSpecial && c == "\\")
                    if isDoubleDot(buffer) {
                        url.shortenPath()
                        if !slash { url.appendSegment("") }
                    } else if isSingleDot(buffer) && !slash {
                        url.appendSegment("")
                    } else if !isSingleDot(buffer) {
                        if url.scheme == "file" && url.pathSegments.isEmpty && isWindowsDriveLetter(buffer) {
                            buffer[1] = ":"
                        }
                        url.appendSegment(bufferString())
                    }
                    buffer = []
                    if c == "?" {
                        url.query = ""
                        state = .query
                    }
                    if c == "#" {
                        url.fragment = ""
                        state = .fragment
                    }
                } else {
                    // UTF-8 percent-encode c using the path percent-encode set.
                    var s = ""
                    percentEncode(c!, .path, into: &s)
                    buffer.append(contentsOf: s.unicodeScalars)
                }

            case .opaquePath:
                if c == "?" {
                    url.query = ""
                    state = .query
                } else if c == "#" {
                    url.fragment = ""
                    state = .fragment
                } else if c == " " {
                    let next: Unicode.Scalar? = pointer + 1 < count ? input[pointer + 1] : nil
                    if case .opaque(var p) = url.path {
                        p += (next == "?" || next == "#") ? "%20" : " "
                        url.path = .opaque(p)
                    }
                } else if let c {
                    if case .opaque(var p) = url.path {
                        url.path = .opaque("")
                        percentEncode(c, .c0Control, into: &p)
                        url.path = .opaque(p)
                    }
                }

            case .query:
                if (stateOverride == nil && c == "#") || c == nil {
                    let set: PercentEncodeSet = url.isSpecial ? .specialQuery : .query
                    var q = url.query ?? ""
                    for b in buffer { percentEncode(b, set, into: &q) }
                    url.query = q
                    buffer = []
                    if c == "#" {
                        url.fragment = ""
                        state = .fragment
                    }
                } else if let c {
                    buffer.append(c)
                }

            case .fragment:
                if let c {
                    var f = url.fragment ?? ""
                    url.fragment = nil
                    percentEncode(c, .fragment, into: &f)
                    url.fragment = f
                }
            }
            if pointer >= count { break }
            pointer += 1
        }
        return true
    }
}
