import Foundation

/// A small HTTP server on 127.0.0.1 for the tests: python3's http.server with a handler for
/// each case (redirects, 404, gzip, cookies, a slow answer). No internet needed.
final class TestServer: @unchecked Sendable {
    let process = Process()
    let port: Int
    let scheme: String
    var base: String { "\(scheme)://127.0.0.1:\(port)" }

    static let script = #"""
import gzip, http.server, socketserver, sys, time

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args): pass

    def send(self, status, body=b"", headers=()):
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_HEAD(self): self.do_GET()

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        data = self.rfile.read(n)
        if self.path == "/post-redirect":
            return self.send(303, headers=[("Location", "/method")])
        self.send(200, b"POST " + data)

    def do_GET(self):
        p = self.path
        if p == "/hello":
            self.send(200, b"hello", [("Content-Type", "text/plain")])
        elif p == "/redirect":
            self.send(302, headers=[("Location", "/hello")])
        elif p == "/redirect-chain":
            self.send(301, headers=[("Location", "redirect")])
        elif p == "/redirect-loop":
            self.send(302, headers=[("Location", "/redirect-loop")])
        elif p == "/missing":
            self.send(404, b"not found")
        elif p == "/gzip":
            accepted = self.headers.get("Accept-Encoding", "")
            if "gzip" in accepted:
                self.send(200, gzip.compress(b"compressed " * 100), [("Content-Encoding", "gzip")])
            else:
                self.send(406, b"no gzip offered")
        elif p == "/set-cookie":
            self.send(200, b"set", [("Set-Cookie", "session=abc123; Path=/")])
        elif p == "/echo-cookie":
            self.send(200, self.headers.get("Cookie", "").encode())
        elif p == "/method":
            self.send(200, self.command.encode())
        elif p == "/echo-header":
            self.send(200, self.headers.get("X-Test", "").encode())
        elif p == "/slow":
            time.sleep(3)
            self.send(200, b"late")
        elif p == "/odd-headers":
            self.send(200, b"odd", [("Bad Name", "x")] + [("X-N", str(i)) for i in range(300)])
        elif p == "/big":
            self.send(200, b"x" * 100000)
        else:
            self.send(404, b"?")

class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True

server = Server(("127.0.0.1", 0), Handler)
if len(sys.argv) > 2:
    import ssl
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[1], sys.argv[2])
    server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
server.serve_forever()
"""#

    /// With a certificate and key (PEM files), the server speaks HTTPS.
    init(certificate: String? = nil, key: String? = nil) throws {
        let path = NSTemporaryDirectory() + "sable-test-server-\(getpid()).py"
        try TestServer.script.write(toFile: path, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", path] + [certificate, key].compactMap { $0 }
        scheme = certificate == nil ? "http" : "https"
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        // The first line is the port it bound.
        var line = Data()
        while true {
            let byte = out.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data([0x0A]) { break }
            line.append(byte)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            kill(process.processIdentifier, SIGKILL)
            throw CocoaError(.fileReadCorruptFile)
        }
        self.port = port
    }

    deinit {
        // SIGKILL: the child inherits the test runner's signal mask, in which SIGTERM may be
        // blocked (Process.terminate() then waits forever).
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// A self-signed certificate for 127.0.0.1 made with openssl(1): (certificate, key) paths.
func makeSelfSignedCertificate() throws -> (String, String) {
    let dir = NSTemporaryDirectory() + "sable-tls-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let openssl = Process()
    openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    openssl.arguments = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                         "-keyout", dir + "/key.pem", "-out", dir + "/cert.pem"]
    openssl.standardError = FileHandle.nullDevice
    try openssl.run()
    openssl.waitUntilExit()
    guard openssl.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
    return (dir + "/cert.pem", dir + "/key.pem")
}

/// A port on 127.0.0.1 that nothing listens on (bound, then closed).
func unusedPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    addr.sin_port = 0
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) }
    }
    _ = withUnsafeMutablePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
    }
    return Int(UInt16(bigEndian: addr.sin_port))
}
