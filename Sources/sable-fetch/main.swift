// sable-fetch: one fetch through NetworkingCore, as the networking process would do it.
//
// Usage: sable-fetch URL [--profile DIR] [--timeout MS] [--method M] [--header 'Name: value']...
//                        [--no-redirects] [--include]
// Prints the body (with --include: the status line, final URL and headers first); on failure
// prints the error value and exits 1. HTTP error statuses are responses: exit 0.

#if canImport(Glibc)
import Glibc
#endif
import EngineIPC
import NetworkingCore

func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
        if n <= 0 { return }
        offset += n
    }
}

func fail(_ message: String, status: Int32 = 2) -> Never {
    writeAll(2, Array((message + "\n").utf8))
    exit(status)
}

var args = CommandLine.arguments.dropFirst()
var url: String?
var configuration = NetworkSession.Configuration()
var request = FetchRequest(id: 1, url: "")
var include = false
while let a = args.popFirst() {
    switch a {
    case "--profile":
        guard let dir = args.popFirst() else { fail("--profile needs a directory") }
        configuration.profileDirectory = dir
    case "--timeout":
        guard let ms = args.popFirst().flatMap({ UInt32($0) }) else { fail("--timeout needs milliseconds") }
        request.timeoutMilliseconds = ms
    case "--method":
        guard let method = args.popFirst() else { fail("--method needs a method") }
        request.method = method
    case "--header":
        guard let h = args.popFirst(), let colon = h.firstIndex(of: ":") else { fail("--header needs 'Name: value'") }
        request.headers.append(HTTPHeader(String(h[..<colon]), String(h[h.index(after: colon)...].drop { $0 == " " })))
    case "--no-redirects": request.followRedirects = false
    case "--include", "-i": include = true
    default:
        if a.hasPrefix("-") || url != nil { fail("usage: sable-fetch URL [--profile DIR] [--timeout MS] [--method M] [--header 'N: v'] [--no-redirects] [--include]") }
        url = a
    }
}
guard let url else { fail("usage: sable-fetch URL [options]") }
request.url = url
switch NetworkSession(configuration: configuration).fetch(request) {
case .success(let response):
    if include {
        var head = "\(response.status) \(response.statusText)\nURL: \(response.url) (\(response.redirectCount) redirects)\n"
        for h in response.headers { head += "\(h.name): \(h.value)\n" }
        writeAll(1, Array((head + "\n").utf8))
    }
    writeAll(1, response.body)
    exit(0)
case .failure(let error):
    fail("sable-fetch: \(error)", status: 1)
}
