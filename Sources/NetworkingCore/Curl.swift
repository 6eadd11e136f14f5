import CCurl

/// libcurl's global state, initialized once before the first handle.
enum Curl {
    static let initialized: Bool = curl_global_init(3 /* CURL_GLOBAL_ALL */) == CURLE_OK

    static func message(_ code: CURLcode, _ buffer: UnsafePointer<CChar>) -> String {
        let detail = String(cString: buffer)
        return detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
    }
}

/// A libcurl share: cookies, DNS cache and connections for the handles of one session.
/// Used from one thread at a time (no lock callbacks).
final class CurlShare {
    let handle: UnsafeMutableRawPointer

    init(cookies: Bool) {
        _ = Curl.initialized
        handle = curl_share_init()!
        _ = sable_curl_share_lock(handle, CURL_LOCK_DATA_DNS)
        _ = sable_curl_share_lock(handle, CURL_LOCK_DATA_CONNECT)
        if cookies { _ = sable_curl_share_lock(handle, CURL_LOCK_DATA_COOKIE) }
    }

    deinit { curl_share_cleanup(handle) }
}
