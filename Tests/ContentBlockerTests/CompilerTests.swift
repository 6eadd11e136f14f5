@testable import ContentBlocker
import Testing

@Suite struct CompilerTests {
    static func compile(_ json: String) throws -> CompiledRuleList {
        switch ContentRuleListCompiler.compile(json: json) {
        case .failure(let e): throw e
        case .success(let bytes): return try CompiledRuleList(bytes: bytes)
        }
    }

    static let sample = #"[{"trigger":{"url-filter":"ads"},"action":{"type":"block"}},{"trigger":{"url-filter":".*","if-domain":["*a.com"]},"action":{"type":"css-display-none","selector":".x"}}]"#

    @Test func compiledListRoundTripsThroughAFile() throws {
        let path = "/tmp/sable-contentblock-test-\(UInt32.random(in: 0...UInt32.max)).bin"
        let source = path + ".json"
        _ = ContentRuleListStore.writeFile(source, Array(Self.sample.utf8))
        guard case .success(let list) = ContentRuleListStore.compile(sourcePath: source, compiledPath: path) else {
            Issue.record("compile failed"); return
        }
        #expect(list.ruleCount == 2)
        let matcher = RuleListMatcher(list)
        let load = ResourceLoad(url: try #require(RequestURL("http://x.com/ads.js")),
                                mainDocumentURL: RequestURL("http://x.com/"), resourceType: ResourceFlags.script)
        matcher.decide(load)
        #expect(matcher.result.map { list.action(atLocation: $0).typeName } == ["block"])
        _ = ContentRuleListStore.writeFile(path + ".x", [])
    }

    @Test func damagedFileIsRefusedAndRecompiled() throws {
        let path = "/tmp/sable-contentblock-test-\(UInt32.random(in: 0...UInt32.max)).bin"
        let source = path + ".json"
        _ = ContentRuleListStore.writeFile(source, Array(Self.sample.utf8))
        guard case .success = ContentRuleListStore.compile(sourcePath: source, compiledPath: path),
              case .success(var bytes) = ContentRuleListStore.readFile(path) else { Issue.record("setup"); return }
        // One flipped byte in the body: the checksum refuses it.
        bytes[bytes.count - 5] ^= 0x40
        _ = ContentRuleListStore.writeFile(path, bytes)
        #expect(throws: CompiledRuleListError.self) { try CompiledRuleList.load(path: path) }
        guard case .success(let r) = ContentRuleListStore.loadOrCompile(compiledPath: path, sourcePath: source) else {
            Issue.record("not recompiled"); return
        }
        #expect(r.recompiled != nil)
        #expect(try CompiledRuleList.load(path: path).ruleCount == 2)
    }

    @Test func outdatedVersionIsRefused() throws {
        guard case .success(var bytes) = ContentRuleListCompiler.compile(json: Self.sample) else { Issue.record("compile"); return }
        bytes[4] = 0x7F  // the format version word
        #expect(throws: CompiledRuleListError.outdatedVersion(found: 0x7F, expected: ContentRuleListCompiler.formatVersion)) {
            try CompiledRuleList(bytes: bytes)
        }
    }

    @Test func truncatedAndGarbageFilesAreRefused() throws {
        guard case .success(let bytes) = ContentRuleListCompiler.compile(json: Self.sample) else { Issue.record("compile"); return }
        #expect(throws: CompiledRuleListError.self) { try CompiledRuleList(bytes: Array(bytes.prefix(bytes.count - 4))) }
        #expect(throws: CompiledRuleListError.self) { try CompiledRuleList(bytes: [UInt8](repeating: 7, count: 4096)) }
        #expect(throws: CompiledRuleListError.self) { try CompiledRuleList(bytes: []) }
    }

    /// Every single-word corruption of a small list is refused or still decides without a
    /// crash (the checksum catches them; the structural checks stand behind it).
    @Test func corruptedWordsNeverCrash() throws {
        guard case .success(let bytes) = ContentRuleListCompiler.compile(json: Self.sample) else { Issue.record("compile"); return }
        for i in stride(from: 0, to: bytes.count, by: 4) {
            var copy = bytes
            copy[i] ^= 0xFF
            if let list = try? CompiledRuleList(bytes: copy) {
                let m = RuleListMatcher(list)
                if let u = RequestURL("http://a.com/ads") {
                    m.decide(ResourceLoad(url: u, mainDocumentURL: u, resourceType: ResourceFlags.image))
                }
            }
        }
    }

    @Test func registrableDomains() {
        let psl = PublicSuffixList.shared
        #expect(psl.registrableDomain(of: "www.example.com") == "example.com")
        #expect(psl.registrableDomain(of: "a.b.example.co.uk") == "example.co.uk")
        #expect(psl.registrableDomain(of: "co.uk") == nil)
        #expect(psl.registrableDomain(of: "foo.github.io") == "foo.github.io")
        #expect(psl.registrableDomain(of: "192.168.0.1") == nil)
        #expect(psl.registrableDomain(of: "localhost") == nil)
        #expect(RegistrableDomain(host: "localhost").matches(host: "localhost"))
        #expect(RegistrableDomain(host: "www.example.com").matches(host: "cdn.example.com"))
        #expect(!RegistrableDomain(host: "www.example.com").matches(host: "example.com.evil.net"))
    }

    @Test func urlSerialization() {
        #expect(RequestURL("HTTP://WebKit.ORG")?.string == "http://webkit.org/")
        #expect(RequestURL("http://a.com:80/x?y#z")?.string == "http://a.com/x?y#z")
        #expect(RequestURL("https://a.com:8443/")?.string == "https://a.com:8443/")
        #expect(RequestURL("http://a.com/a b")?.string == "http://a.com/a%20b")
        #expect(RequestURL("not a url") == nil)
        #expect(RequestURL("http://") == nil)
    }
}

@Suite struct ContentBlockerSetTests {
    static func file(_ json: String) -> (source: String, compiled: String) {
        let path = "/tmp/sable-contentblock-set-\(UInt32.random(in: 0...UInt32.max))"
        _ = ContentRuleListStore.writeFile(path + ".json", Array(json.utf8))
        return (path + ".json", path + ".bin")
    }

    @Test func decidesAcrossListsAsTheNetworkingProcessNeeds() throws {
        let ads = Self.file(#"[{"trigger":{"url-filter":"/ads/"},"action":{"type":"block"}},{"trigger":{"url-filter":"track"},"action":{"type":"block-cookies"}}]"#)
        let upgrade = Self.file(#"[{"trigger":{"url-filter":".*"},"action":{"type":"make-https"}},{"trigger":{"url-filter":"^http://a\\.com/(.*)\\.js$"},"action":{"type":"redirect","redirect":{"regex-substitution":"https://cdn.com/\\1.min.js"}}}]"#)
        for f in [ads, upgrade] {
            guard case .success = ContentRuleListStore.compile(sourcePath: f.source, compiledPath: f.compiled) else { Issue.record("compile"); return }
        }
        let set = ContentBlockerSet()
        guard case .success = set.load(name: "ads", compiledPath: ads.compiled),
              case .success = set.load(name: "upgrade", compiledPath: upgrade.compiled) else { Issue.record("load"); return }
        #expect(set.names == ["ads", "upgrade"])
        let page = "https://site.com/"
        #expect(set.decide(url: "https://x.com/ads/1.png", resourceType: ResourceFlags.image, mainDocumentURL: page).blocked)
        let tracked = set.decide(url: "http://x.com/track", resourceType: ResourceFlags.script, mainDocumentURL: page)
        #expect(!tracked.blocked && tracked.blockCookies && tracked.upgradedURL == "https://x.com/track")
        let redirected = set.decide(url: "http://a.com/lib.js", resourceType: ResourceFlags.script, mainDocumentURL: page)
        #expect(redirected.upgradedURL == "https://a.com/lib.js")
        #expect(redirected.redirectURL == nil)  // the regex runs over the upgraded URL, which no longer matches ^http://
        #expect(set.decide(url: "not a url", resourceType: ResourceFlags.script, mainDocumentURL: page).invalidURL)
        // A list that cannot be loaded leaves the set as it was.
        guard case .failure = set.load(name: "broken", compiledPath: "/nonexistent/list.bin") else { Issue.record("loaded"); return }
        #expect(set.names == ["ads", "upgrade"])
        set.remove(name: "upgrade")
        #expect(set.decide(url: "http://x.com/track", resourceType: ResourceFlags.script, mainDocumentURL: page).upgradedURL == nil)
    }
}
