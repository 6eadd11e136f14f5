import Foundation
import Testing
import EngineIPC
import WebURL
@testable import NetworkingCore

/// Fetches against a local server started by each test.
@Suite struct NetworkSessionTests {
    let server: TestServer
    init() throws { server = try TestServer() }

    func get(_ session: NetworkSession, _ path: String, timeout: UInt32 = 10_000) -> Result<FetchResponse, FetchError> {
        var request = FetchRequest(id: 7, url: path.hasPrefix("http") ? path : server.base + path)
        request.timeoutMilliseconds = timeout
        return session.fetch(request)
    }

    @Test func plainGet() throws {
        let response = try get(NetworkSession(), "/hello").get()
        #expect(response.id == 7)
        #expect(response.status == 200)
        #expect(response.statusText == "OK")
        #expect(response.body == Array("hello".utf8))
        #expect(response.header("content-type") == "text/plain")
        #expect(response.url == server.base + "/hello")
        #expect(response.redirectCount == 0)
    }

    @Test func redirectsAreFollowedAndTheFinalURLReported() throws {
        let response = try get(NetworkSession(), "/redirect-chain").get()
        #expect(response.status == 200)
        #expect(response.body == Array("hello".utf8))
        #expect(response.url == server.base + "/hello")
        #expect(response.redirectCount == 2)
    }

    @Test func redirectsNotFollowedOnRequest() throws {
        var request = FetchRequest(id: 1, url: server.base + "/redirect")
        request.followRedirects = false
        let response = try NetworkSession().fetch(request).get()
        #expect(response.status == 302)
        #expect(response.header("Location") == "/hello")
    }

    @Test func redirectLoopIsAnError() {
        guard case .failure(.redirectFailure) = get(NetworkSession(), "/redirect-loop") else {
            Issue.record("expected a redirect failure")
            return
        }
    }

    @Test func postThen303BecomesGet() throws {
        var request = FetchRequest(id: 2, url: server.base + "/post-redirect")
        request.method = "POST"
        request.body = Array("data".utf8)
        let response = try NetworkSession().fetch(request).get()
        #expect(String(decoding: response.body, as: UTF8.self) == "GET")
    }

    @Test func errorStatusIsAResponse() throws {
        let response = try get(NetworkSession(), "/missing").get()
        #expect(response.status == 404)
        #expect(response.statusText == "Not Found")
        #expect(response.body == Array("not found".utf8))
    }

    @Test func gzipIsOfferedAndDecoded() throws {
        let response = try get(NetworkSession(), "/gzip").get()
        #expect(response.status == 200)
        #expect(response.header("Content-Encoding") == "gzip")
        #expect(String(decoding: response.body, as: UTF8.self) == String(repeating: "compressed ", count: 100))
    }

    @Test func cookiesAreKeptInTheProfileJarAndSentBack() throws {
        let profile = NSTemporaryDirectory() + "sable-profile-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: profile) }
        do {
            let session = NetworkSession(configuration: .init(profileDirectory: profile))
            _ = try get(session, "/set-cookie").get()
            #expect(try get(session, "/echo-cookie").get().body == Array("session=abc123".utf8))
            #expect(session.cookies().contains { $0.hasSuffix("session\tabc123") })
        }
        let jar = try String(contentsOfFile: profile + "/cookies.txt", encoding: .utf8)
        #expect(jar.contains("session\tabc123"))
        // A new session (the next run of the networking process) reads the jar.
        let again = NetworkSession(configuration: .init(profileDirectory: profile))
        #expect(try get(again, "/echo-cookie").get().body == Array("session=abc123".utf8))
    }

    @Test func refusedPortIsAnError() {
        let result = get(NetworkSession(), "http://127.0.0.1:\(unusedPort())/")
        guard case .failure(.connectionRefused) = result else {
            Issue.record("expected connectionRefused, got \(result)")
            return
        }
    }

    @Test func timeoutIsAnError() {
        let start = Date()
        let result = get(NetworkSession(), "/slow", timeout: 300)
        guard case .failure(.timedOut) = result else {
            Issue.record("expected timedOut, got \(result)")
            return
        }
        #expect(Date().timeIntervalSince(start) < 2.5)
    }

    @Test func bodyLimit() {
        var configuration = NetworkSession.Configuration()
        configuration.maxBodyBytes = 1000
        guard case .failure(.tooLarge) = get(NetworkSession(configuration: configuration), "/big") else {
            Issue.record("expected tooLarge")
            return
        }
    }

    @Test func invalidURLs() {
        for url in ["not a url", "ftp://127.0.0.1/", "file:///etc/passwd", "data:text/plain", "data:;base64,a"] {
            guard case .failure(.invalidURL) = NetworkSession().fetch(FetchRequest(id: 1, url: url)) else {
                Issue.record("expected invalidURL for \(url)")
                continue
            }
        }
    }

    @Test func dataURLs() throws {
        let response = try NetworkSession().fetch(FetchRequest(id: 4, url: "data:text/javascript;base64,MSsx")).get()
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "text/javascript")
        #expect(response.body == Array("1+1".utf8))
    }

    @Test func dnsFailureIsAnError() {
        // ".invalid" never resolves (RFC 6761); without a resolver this can also time out.
        let result = get(NetworkSession(), "http://sable-test.invalid/", timeout: 5_000)
        switch result {
        case .failure(.dnsFailure), .failure(.timedOut): break
        default: Issue.record("expected dnsFailure, got \(result)")
        }
    }

    @Test func requestHeadersAreSent() throws {
        var request = FetchRequest(id: 3, url: server.base + "/echo-header")
        request.headers = [HTTPHeader("X-Test", "value 1")]
        #expect(try NetworkSession().fetch(request).get().body == Array("value 1".utf8))
    }

    @Test func tls() throws {
        let (certificate, key) = try makeSelfSignedCertificate()
        let tlsServer = try TestServer(certificate: certificate, key: key)
        // Not trusted: a TLS failure value.
        let untrusted = get(NetworkSession(), tlsServer.base + "/hello")
        guard case .failure(.tlsFailure) = untrusted else {
            Issue.record("expected tlsFailure, got \(untrusted)")
            return
        }
        // Trusted through the session's CA bundle: a response, over HTTPS.
        var configuration = NetworkSession.Configuration()
        configuration.caBundle = certificate
        let response = try get(NetworkSession(configuration: configuration), tlsServer.base + "/redirect").get()
        #expect(response.body == Array("hello".utf8))
        #expect(response.url == tlsServer.base + "/hello")
    }

    // MARK: - The request-policy hook (the content blocker's place)

    final class Policy: RequestPolicy, @unchecked Sendable {
        var seen: [String] = []
        let decide: (RequestInfo) -> RequestDecision
        init(_ decide: @escaping (RequestInfo) -> RequestDecision) { self.decide = decide }
        func decide(_ request: RequestInfo) -> RequestDecision {
            seen.append(request.url.pathname)
            return decide(request)
        }
    }

    @Test func policySeesEveryHopAndCanBlock() {
        let policy = Policy { $0.url.pathname == "/hello" ? .block : .allow }
        let result = NetworkSession(policy: policy).fetch(FetchRequest(id: 1, url: server.base + "/redirect"))
        guard case .failure(.blocked(let url)) = result else {
            Issue.record("expected blocked, got \(result)")
            return
        }
        #expect(url == server.base + "/hello")
        #expect(policy.seen == ["/redirect", "/hello"])
    }

    @Test func policyRedirect() throws {
        let policy = Policy { $0.url.pathname == "/missing" ? .redirect(to: "/hello") : .allow }
        let response = try NetworkSession(policy: policy).fetch(FetchRequest(id: 1, url: server.base + "/missing")).get()
        #expect(response.status == 200)
        #expect(response.url == server.base + "/hello")
    }

    @Test func policyUpgradeToHTTPS() {
        // The test server speaks plain HTTP, so the upgraded request fails in the TLS handshake.
        let policy = Policy { _ in .upgradeToHTTPS }
        let result = NetworkSession(policy: policy).fetch(FetchRequest(id: 1, url: server.base + "/hello"))
        guard case .failure(.tlsFailure) = result else {
            Issue.record("expected tlsFailure, got \(result)")
            return
        }
    }

    @Test func policyStripsCookies() throws {
        let policy = Policy { $0.url.pathname == "/echo-cookie" ? .stripCookies : .allow }
        let session = NetworkSession(policy: policy)
        _ = try get(session, "/set-cookie").get()
        var request = FetchRequest(id: 1, url: server.base + "/echo-cookie")
        request.headers = [HTTPHeader("Cookie", "forged=1")]
        #expect(try session.fetch(request).get().body == [])
        policy.seen = []
        let plain = try session.fetch(FetchRequest(id: 2, url: server.base + "/set-cookie")).get()
        #expect(plain.status == 200)
    }
}
