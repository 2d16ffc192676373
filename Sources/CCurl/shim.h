#include <curl/curl.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>

// curl_easy_setopt is variadic, which Swift cannot call: one typed wrapper per kind of value.
static inline CURLcode coldtap_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode coldtap_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode coldtap_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode coldtap_curl_set_opensocket(CURL *handle, curl_opensocket_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, callback);
}
static inline CURLcode coldtap_curl_set_prereq(CURL *handle, curl_prereq_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_PREREQFUNCTION, callback);
}
static inline CURLcode coldtap_curl_set_write(CURL *handle, curl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}
static inline CURLcode coldtap_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

// The address curl is about to connect to, as 4 or 16 bytes (the structure ends in a
// sockaddr that is really as long as its family needs). Returns the byte count, 0 for
// another family.
static inline int coldtap_curl_sockaddr_bytes(const struct curl_sockaddr *address, unsigned char *out16) {
    if (address->family == AF_INET) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)&address->addr;
        memcpy(out16, &v4->sin_addr, 4);
        return 4;
    }
    if (address->family == AF_INET6) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)&address->addr;
        memcpy(out16, &v6->sin6_addr, 16);
        return 16;
    }
    return 0;
}

// The socket type and flag as plain numbers: imported through two modules (this one and
// Glibc) the enum cases are ambiguous to Swift in an optimised build.
static inline int coldtap_sock_stream(void) { return SOCK_STREAM; }
static inline int coldtap_sock_cloexec(void) { return SOCK_CLOEXEC; }
