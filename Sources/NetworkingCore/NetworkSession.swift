#if canImport(Glibc)
import Glibc
#endif
import CCurl
import EngineIPC
import WebURL

/// The networking process's HTTP(S) client over libcurl (`data:` URLs are decoded here):
/// redirects followed one hop at a time (so the request policy sees each), compression, a
/// cookie jar in the profile directory, time limits, and every failure as a `FetchError`
/// value. HTTP error statuses are responses.
///
/// Fetches may run on several threads at once (one per client connection): the cookie store,
/// DNS cache and connections are libcurl shares with locks; everything else is immutable
/// after `init`. The policy is called on the fetching thread.
public final class NetworkSession: @unchecked Sendable {
    public struct Configuration: Sendable {
        /// Where `cookies.txt` lives (Netscape format, libcurl's); nil: cookies kept in memory.
        public var profileDirectory: String?
        /// The time limit for a fetch whose request gives none, redirects included.
        public var timeoutMilliseconds: UInt32 = 30_000
        /// The time limit for establishing each connection (within the fetch's limit).
        public var connectTimeoutMilliseconds: UInt32 = 10_000
        public var maxRedirects = 20
        /// The largest body accepted (decompressed), in bytes.
        public var maxBodyBytes = 50 << 20
        public var userAgent = "Sable/0.1 (Linux) SableBrowser"
        /// PEM bundle for TLS verification (nil: libcurl's default, the system's store).
        public var caBundle: String?

        public init(profileDirectory: String? = nil) { self.profileDirectory = profileDirectory }
    }

    public let configuration: Configuration
    /// Decides each request before it is sent (the content blocker). Set before fetching.
    public let policy: RequestPolicy?
    let cookieShare = CurlShare(cookies: true)
    let plainShare = CurlShare(cookies: false)
    let cookieJarPath: String?

    public init(configuration: Configuration = Configuration(), policy: RequestPolicy? = nil) {
        self.configuration = configuration
        self.policy = policy
        cookieJarPath = configuration.profileDirectory.map { $0 + "/cookies.txt" }
        loadCookies()
    }

    /// Reads the jar into the session's shared cookie store.
    func loadCookies() {
        guard let jar = cookieJarPath, access(jar, R_OK) == 0, let h = curl_easy_init() else { return }
        defer { curl_easy_cleanup(h) }
        _ = sable_curl_setopt_share(h, cookieShare.handle)
        _ = sable_curl_setopt_string(h, CURLOPT_COOKIEFILE, jar)
        _ = sable_curl_setopt_string(h, CURLOPT_COOKIELIST, "RELOAD")
    }

    /// The cookies of the session, in libcurl's Netscape lines (for tests and the host's UI).
    public func cookies() -> [String] {
        guard let h = curl_easy_init() else { return [] }
        defer { curl_easy_cleanup(h) }
        _ = sable_curl_setopt_share(h, cookieShare.handle)
        _ = sable_curl_setopt_string(h, CURLOPT_COOKIEFILE, "")
        var list: UnsafeMutablePointer<curl_slist>? = nil
        var out: [String] = []
        _ = sable_curl_getinfo_slist(h, CURLINFO_COOKIELIST, &list)
        var node = list
        let head = node
        while let n = node {
            out.append(String(cString: n.pointee.data))
            node = n.pointee.next
        }
        curl_slist_free_all(head)
        return out
    }

    // MARK: - Fetch

    /// Fetches a request: the final response after redirects, or why there is none.
    public func fetch(_ request: FetchRequest) -> Result<FetchResponse, FetchError> {
        // data: URLs need no network (Fetch Standard, scheme fetch: 200 with the MIME type).
        if let url = WebURL(request.url), url.scheme == "data" {
            guard let data = DataURL(url) else { return .failure(.invalidURL(request.url)) }
            return .success(FetchResponse(id: request.id, url: url.href, status: 200, statusText: "OK",
                                          headers: [HTTPHeader("Content-Type", data.mimeType)], body: data.body))
        }
        guard var url = WebURL(request.url), url.scheme == "http" || url.scheme == "https" else {
            return .failure(.invalidURL(request.url))
        }
        let firstParty = request.firstPartyURL.flatMap { WebURL($0) }
        let limit = UInt64(request.timeoutMilliseconds != 0 ? request.timeoutMilliseconds : configuration.timeoutMilliseconds)
        let deadline = Clock.monotonicNanoseconds() + limit * 1_000_000
        var method = request.method
        var body = request.body
        var headers = request.headers
        var redirects = 0
        while true {
            // The content blocker decides before anything is sent.
            let decision = policy?.decide(RequestInfo(url: url, method: method, resourceType: request.resourceType,
                                                      firstPartyURL: firstParty, redirectCount: redirects, headers: headers)) ?? .allow
            if decision.block { return .failure(.blocked(url.href)) }
            if let changed = decision.headers { headers = changed.filter(\.isValid) }
            if let target = decision.redirect {
                guard let next = WebURL(target, base: url), next.scheme == "http" || next.scheme == "https" else {
                    return .failure(.redirectFailure("policy redirect to \(target)"))
                }
                url = next
            }
            if decision.upgradeToHTTPS && url.scheme == "http" {
                url.setProtocol("https")
            }
            let now = Clock.monotonicNanoseconds()
            guard now < deadline else { return .failure(.timedOut(url.href)) }
            let result = transfer(url: url, method: method, headers: headers, body: body,
                                  remainingMilliseconds: max(1, (deadline - now) / 1_000_000),
                                  cookies: !decision.stripCookies)
            guard case .success(var response) = result else { return result }
            response.id = request.id
            response.redirectCount = UInt16(redirects)
            let status = response.status
            guard request.followRedirects, [301, 302, 303, 307, 308].contains(status),
                  let location = response.header("Location") else {
                // A document: the content blockers' style sheet for it goes with it.
                if request.resourceType == .document, let policy {
                    response.contentBlockerStyleSheet = policy.styleSheet(forDocument: url, firstPartyURL: firstParty) ?? ""
                }
                return .success(response)
            }
            redirects += 1
            if redirects > configuration.maxRedirects {
                return .failure(.redirectFailure("more than \(configuration.maxRedirects) redirects"))
            }
            guard let next = WebURL(location, base: url), next.scheme == "http" || next.scheme == "https" else {
                return .failure(.redirectFailure("redirect to \(location)"))
            }
            // Fetch Standard, HTTP-redirect fetch step 12: 301/302 after POST and 303 after
            // anything but HEAD become GET without a body.
            if ((status == 301 || status == 302) && method == "POST") || (status == 303 && method != "HEAD") {
                method = "GET"
                body = []
                headers.removeAll { ["content-type", "content-length", "content-encoding", "content-language", "content-location"]
                    .contains($0.name.lowercased()) }
            }
            url = next
        }
    }

    /// What libcurl's callbacks fill in during one transfer.
    final class Transfer {
        var statusText = ""
        var headers: [HTTPHeader] = []
        var body: [UInt8] = []
        var maxBody: Int
        var tooLarge = false
        init(maxBody: Int) { self.maxBody = maxBody }
    }

    /// One request and its response, redirects not followed.
    func transfer(url: WebURL, method: String, headers: [HTTPHeader], body: [UInt8], remainingMilliseconds: UInt64,
                  cookies: Bool) -> Result<FetchResponse, FetchError> {
        guard Curl.initialized, let h = curl_easy_init() else { return .failure(.other("libcurl did not initialize")) }
        let href = url.serialized(excludeFragment: true)
        let state = Transfer(maxBody: configuration.maxBodyBytes)
        let context = Unmanaged.passUnretained(state).toOpaque()
        // libcurl writes its message here during perform: memory that outlives the setopt call.
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        var list: UnsafeMutablePointer<curl_slist>? = nil
        defer {
            curl_easy_cleanup(h)  // first: it writes the cookie jar when one is set
            curl_slist_free_all(list)
            errorBuffer.deallocate()
        }

        _ = sable_curl_setopt_string(h, CURLOPT_URL, href)
        _ = sable_curl_setopt_long(h, CURLOPT_NOSIGNAL, 1)
        _ = sable_curl_setopt_string(h, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = sable_curl_setopt_string(h, CURLOPT_ACCEPT_ENCODING, "")  // every encoding libcurl decodes
        _ = sable_curl_setopt_long(h, CURLOPT_TIMEOUT_MS, Int(min(remainingMilliseconds, UInt64(Int32.max))))
        _ = sable_curl_setopt_long(h, CURLOPT_CONNECTTIMEOUT_MS,
                                   Int(min(remainingMilliseconds, UInt64(configuration.connectTimeoutMilliseconds))))
        _ = sable_curl_setopt_string(h, CURLOPT_USERAGENT, configuration.userAgent)
        if let ca = configuration.caBundle { _ = sable_curl_setopt_string(h, CURLOPT_CAINFO, ca) }
        if cookies {
            _ = sable_curl_setopt_share(h, cookieShare.handle)
            _ = sable_curl_setopt_string(h, CURLOPT_COOKIEFILE, "")  // turns the cookie engine on
            if let jar = cookieJarPath { _ = sable_curl_setopt_string(h, CURLOPT_COOKIEJAR, jar) }
        } else {
            _ = sable_curl_setopt_share(h, plainShare.handle)
        }
        for header in headers where header.isValid {
            // With cookies stripped, a Cookie header from the client is dropped too.
            if !cookies && header.name.lowercased() == "cookie" { continue }
            list = curl_slist_append(list, header.name + ": " + header.value)
        }
        if list != nil { _ = sable_curl_setopt_slist(h, CURLOPT_HTTPHEADER, list) }
        switch method {
        case "GET": _ = sable_curl_setopt_long(h, CURLOPT_HTTPGET, 1)
        case "HEAD": _ = sable_curl_setopt_long(h, CURLOPT_NOBODY, 1)
        default:
            if method != "POST" { _ = sable_curl_setopt_string(h, CURLOPT_CUSTOMREQUEST, method) }
            if method == "POST" || !body.isEmpty {
                body.withUnsafeBytes { _ = sable_curl_setopt_postfields(h, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, $0.count) }
            }
        }
        _ = sable_curl_setopt_pointer(h, CURLOPT_ERRORBUFFER, errorBuffer)
        _ = sable_curl_setopt_callback(h, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            let state = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
            let n = size * count
            if state.body.count + n > state.maxBody {
                state.tooLarge = true
                return 0  // aborts the transfer with CURLE_WRITE_ERROR
            }
            data!.withMemoryRebound(to: UInt8.self, capacity: n) { state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: n)) }
            return n
        }
        _ = sable_curl_setopt_pointer(h, CURLOPT_WRITEDATA, context)
        _ = sable_curl_setopt_callback(h, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            let state = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
            let n = size * count
            // The line without its CR LF (bytes: "\r\n" is one Character in Swift).
            let trimmed = data!.withMemoryRebound(to: UInt8.self, capacity: n) { p -> String in
                var end = n
                while end > 0 && (p[end - 1] == 0x0A || p[end - 1] == 0x0D) { end -= 1 }
                return String(decoding: UnsafeBufferPointer(start: p, count: end), as: UTF8.self)
            }
            if trimmed.hasPrefix("HTTP/") {
                // A status line starts a new response (after 100 Continue, say).
                state.headers = []
                let parts = trimmed.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
                state.statusText = parts.count > 2 ? String(parts[2]) : ""
            } else if let colon = trimmed.firstIndex(of: ":") {
                let name = String(trimmed[..<colon])
                let value = String(trimmed[trimmed.index(after: colon)...].drop { $0 == " " || $0 == "\t" })
                // Only what the message set carries: a server's odd header is dropped here
                // rather than making the client refuse the whole response.
                let header = HTTPHeader(name, value)
                if header.isValid && state.headers.count < NetworkingMessage.maxHeaders { state.headers.append(header) }
            }
            return n
        }
        _ = sable_curl_setopt_pointer(h, CURLOPT_HEADERDATA, context)

        let code = curl_easy_perform(h)
        if code != CURLE_OK {
            if state.tooLarge { return .failure(.tooLarge("body over \(configuration.maxBodyBytes) bytes from \(href)")) }
            var osErrno = 0
            _ = sable_curl_getinfo_long(h, CURLINFO_OS_ERRNO, &osErrno)
            return .failure(NetworkSession.error(code, osErrno: Int32(osErrno), message: Curl.message(code, errorBuffer)))
        }
        var status = 0
        _ = sable_curl_getinfo_long(h, CURLINFO_RESPONSE_CODE, &status)
        return .success(FetchResponse(id: 0, url: url.href, status: UInt16(clamping: status), statusText: state.statusText,
                                      headers: state.headers, body: state.body))
    }

    /// libcurl's result codes as fetch errors.
    static func error(_ code: CURLcode, osErrno: Int32, message: String) -> FetchError {
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .dnsFailure(message)
        case CURLE_COULDNT_CONNECT:
            return osErrno == ECONNREFUSED ? .connectionRefused(message) : .connectionFailed(message)
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut(message)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
             CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE, CURLE_USE_SSL_FAILED,
             CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED:
            return .tlsFailure(message)
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE:
            return .connectionFailed(message)
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return .invalidURL(message)
        default:
            return .other(message)
        }
    }
}
