#if canImport(Glibc)
import Glibc
#endif
import CCurl

/// libcurl's global state, initialized once before the first handle.
enum Curl {
    static let initialized: Bool = curl_global_init(3 /* CURL_GLOBAL_ALL */) == CURLE_OK

    static func message(_ code: CURLcode, _ buffer: UnsafePointer<CChar>) -> String {
        let detail = String(cString: buffer)
        return detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
    }
}

/// A libcurl share: cookies, DNS cache and connections for the handles of one session, used
/// from any thread (the shim's lock callbacks serialize access to each kind of data).
final class CurlShare: @unchecked Sendable {
    let handle: UnsafeMutableRawPointer

    init(cookies: Bool) {
        _ = Curl.initialized
        handle = curl_share_init()!
        _ = sable_curl_share_set_locks(handle, { _, data, _, _ in
            pthread_mutex_lock(CurlShare.mutexes + Int(data.rawValue))
        }, { _, data, _ in
            pthread_mutex_unlock(CurlShare.mutexes + Int(data.rawValue))
        })
        _ = sable_curl_share_lock(handle, CURL_LOCK_DATA_DNS)
        _ = sable_curl_share_lock(handle, CURL_LOCK_DATA_CONNECT)
        if cookies { _ = sable_curl_share_lock(handle, CURL_LOCK_DATA_COOKIE) }
    }

    deinit { curl_share_cleanup(handle) }

    /// One mutex per kind of shared data (cookies, DNS, connections), for all shares.
    nonisolated(unsafe) static let mutexes: UnsafeMutablePointer<pthread_mutex_t> = {
        let count = Int(CURL_LOCK_DATA_LAST.rawValue)
        let m = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: count)
        for i in 0..<count { pthread_mutex_init(m + i, nil) }
        return m
    }()
}
