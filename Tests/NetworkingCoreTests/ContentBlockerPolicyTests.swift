import Foundation
import Testing
import ContentBlocker
import EngineIPC
import WebURL
@testable import NetworkingCore

/// The content blockers as the session's request policy, against a local server: each action
/// the networking process applies before a request is sent.
@Suite struct ContentBlockerPolicyTests {
    let server: TestServer
    init() throws { server = try TestServer() }

    static func policy(_ json: String) throws -> ContentBlockerPolicy {
        let bytes = try ContentRuleListCompiler.compile(json: json).get()
        let set = ContentBlockerSet()
        set.add(name: "test", list: try CompiledRuleList(bytes: bytes))
        return ContentBlockerPolicy(set: set)
    }

    func fetch(_ session: NetworkSession, _ path: String, _ type: ResourceType = .fetch, headers: [HTTPHeader] = []) -> Result<FetchResponse, FetchError> {
        var request = FetchRequest(id: 3, url: server.base + path)
        request.resourceType = type
        request.firstPartyURL = server.base + "/page"
        request.headers = headers
        request.timeoutMilliseconds = 10_000
        return session.fetch(request)
    }

    @Test func blockByResourceType() throws {
        let session = NetworkSession(policy: try Self.policy(#"[{"trigger":{"url-filter":"hello","resource-type":["image"]},"action":{"type":"block"}}]"#))
        guard case .failure(.blocked(let url)) = fetch(session, "/hello", .image) else { Issue.record("not blocked"); return }
        #expect(url == server.base + "/hello")
        #expect(try fetch(session, "/hello", .script).get().body == Array("hello".utf8))
    }

    /// A redirect followed by the server is decided again: the hop to a blocked URL fails.
    @Test func everyRedirectIsDecided() throws {
        let session = NetworkSession(policy: try Self.policy(#"[{"trigger":{"url-filter":"/hello$"},"action":{"type":"block"}}]"#))
        guard case .failure(.blocked) = fetch(session, "/redirect") else { Issue.record("redirect target not blocked"); return }
    }

    @Test func blockCookiesSendsAndStoresNone() throws {
        let session = NetworkSession(policy: try Self.policy(#"[{"trigger":{"url-filter":"cookie"},"action":{"type":"block-cookies"}}]"#))
        _ = try fetch(session, "/set-cookie").get()
        #expect(session.cookies().isEmpty)
        #expect(try fetch(session, "/echo-cookie", headers: [HTTPHeader("Cookie", "forged=1")]).get().body == [])
    }

    @Test func redirectAction() throws {
        let json = #"[{"trigger":{"url-filter":"missing"},"action":{"type":"redirect","redirect":{"transform":{"path":"/hello"}}}}]"#
        let response = try fetch(NetworkSession(policy: try Self.policy(json)), "/missing").get()
        #expect(response.status == 200 && response.url == server.base + "/hello")
    }

    @Test func modifyHeaders() throws {
        let json = #"[{"trigger":{"url-filter":"echo-header"},"action":{"type":"modify-headers","request-headers":[{"operation":"set","header":"X-Test","value":"from the blocker"}]}}]"#
        let body = try fetch(NetworkSession(policy: try Self.policy(json)), "/echo-header", headers: [HTTPHeader("X-Test", "page")]).get().body
        #expect(body == Array("from the blocker".utf8))
    }

    /// make-https applies to http URLs on the default port (WebKit's condition).
    @Test func makeHTTPS() throws {
        let policy = try Self.policy(#"[{"trigger":{"url-filter":"example"},"action":{"type":"make-https"}}]"#)
        let d = policy.decide(RequestInfo(url: WebURL("http://example.com/a")!, method: "GET", resourceType: .image,
                                          firstPartyURL: WebURL("http://site.test/")!, redirectCount: 0))
        #expect(d.redirect == "https://example.com/a")
        let other = policy.decide(RequestInfo(url: WebURL("http://example.com:8080/a")!, method: "GET", resourceType: .image,
                                              firstPartyURL: nil, redirectCount: 0))
        #expect(other.redirect == nil)
    }

    /// A fetched document comes with the css-display-none style sheet for its URL.
    @Test func documentsCarryTheirStyleSheet() throws {
        let json = ##"[{"trigger":{"url-filter":".*"},"action":{"type":"css-display-none","selector":".ad"}},{"trigger":{"url-filter":"hello"},"action":{"type":"css-display-none","selector":"#x"}}]"##
        let session = NetworkSession(policy: try Self.policy(json))
        var request = FetchRequest(id: 1, url: server.base + "/hello")
        request.resourceType = .document
        let response = try session.fetch(request).get()
        #expect(response.contentBlockerStyleSheet.contains(".ad{display:none !important;}"))
        #expect(response.contentBlockerStyleSheet.contains("#x{display:none !important;}"))
        #expect(try fetch(session, "/hello", .image).get().contentBlockerStyleSheet.isEmpty)
    }
}
