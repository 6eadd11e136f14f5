#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H
// libcurl (apt: libcurl4-openssl-dev). Swift cannot call the variadic curl_easy_setopt,
// curl_easy_getinfo and curl_share_setopt; these typed wrappers can be.
#include <curl/curl.h>

typedef size_t (*sable_curl_data_callback)(char *ptr, size_t size, size_t nmemb, void *userdata);

static inline CURLcode sable_curl_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode sable_curl_setopt_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode sable_curl_setopt_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode sable_curl_setopt_callback(CURL *h, CURLoption o, sable_curl_data_callback v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode sable_curl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode sable_curl_setopt_share(CURL *h, CURLSH *v) { return curl_easy_setopt(h, CURLOPT_SHARE, v); }
static inline CURLcode sable_curl_setopt_postfields(CURL *h, const void *data, long size) {
    CURLcode rc = curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, size);
    return rc != CURLE_OK ? rc : curl_easy_setopt(h, CURLOPT_COPYPOSTFIELDS, data);
}
static inline CURLcode sable_curl_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode sable_curl_getinfo_string(CURL *h, CURLINFO i, char **v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode sable_curl_getinfo_slist(CURL *h, CURLINFO i, struct curl_slist **v) { return curl_easy_getinfo(h, i, v); }
static inline CURLSHcode sable_curl_share_lock(CURLSH *s, curl_lock_data d) { return curl_share_setopt(s, CURLSHOPT_SHARE, d); }

static inline CURLSHcode sable_curl_share_set_locks(CURLSH *s, curl_lock_function lock, curl_unlock_function unlock) {
    CURLSHcode rc = curl_share_setopt(s, CURLSHOPT_LOCKFUNC, lock);
    return rc != CURLSHE_OK ? rc : curl_share_setopt(s, CURLSHOPT_UNLOCKFUNC, unlock);
}
#endif
