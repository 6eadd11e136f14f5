@testable import ContentBlocker
import Testing

/// The matcher's caches (the page before, the pages seen before and their snapshots, the
/// rules considered) never change a decision: a long mixed sequence of decisions on more
/// pages than the cache holds, each compared with a new matcher's.
@Suite struct MatcherCacheTests {
    static let rules = #"""
    [{"trigger":{"url-filter":"ads"},"action":{"type":"block"}},
     {"trigger":{"url-filter":"^[htpsw]+://([a-z0-9-]+\\.)?tracker\\.com([/:&\\?].*)?$"},"action":{"type":"block"}},
     {"trigger":{"url-filter":"^[htpsw]+://([a-z0-9-]+\\.)?tracker\\.com/deep/"},"action":{"type":"block-cookies"}},
     {"trigger":{"url-filter":".*","if-domain":["*site3.com","site13.com"]},"action":{"type":"ignore-previous-rules"}},
     {"trigger":{"url-filter":"banner","unless-domain":["site5.com"]},"action":{"type":"block"}},
     {"trigger":{"url-filter":"pixel","if-top-url":["site7"]},"action":{"type":"block"}},
     {"trigger":{"url-filter":".*","if-domain":["*site2.com"]},"action":{"type":"css-display-none","selector":".ad"}},
     {"trigger":{"url-filter":"img","resource-type":["image"],"load-type":["third-party"]},"action":{"type":"block-cookies"}},
     {"trigger":{"url-filter":"/track.*\\.gif"},"action":{"type":"block"}},
     {"trigger":{"url-filter":"ads","if-domain":["*site9.com"]},"action":{"type":"ignore-previous-rules"}}
    """#
    static let frameRule = #",{"trigger":{"url-filter":"frame","if-frame-url":["frame1"]},"action":{"type":"block"}}"#

    static func compile(_ json: String) throws -> CompiledRuleList {
        switch ContentRuleListCompiler.compile(json: json) {
        case .failure(let e): throw e
        case .success(let bytes): return try CompiledRuleList(bytes: bytes)
        }
    }

    @Test(arguments: [false, true]) func cachedDecisionsEqualFreshOnes(withFrameRule: Bool) throws {
        let list = try Self.compile(Self.rules + (withFrameRule ? Self.frameRule : "") + "]")
        let matcher = RuleListMatcher(list)
        let requests = ["/ads.js", "https://cdn.tracker.com/x.js", "http://tracker.com/deep/a", "http://other.org/banner.png",
                        "http://x.org/pixel.gif", "http://img.net/img.png", "/frame.html", "http://y.com/clean",
                        "http://z.com/track/1.gif", "HTTP://WWW.Tracker.COM:80/?q", "http://é.com/ads"]
        let types = [ResourceFlags.script, ResourceFlags.image, ResourceFlags.topDocument, ResourceFlags.styleSheet]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        var page = 0
        var decided = 0
        for _ in 0..<4000 {
            // Mostly the page before, sometimes one of 48 (more than the cache holds), written
            // two ways that canonicalize alike.
            if next(4) == 0 { page = next(48) }
            let main = page % 2 == 0 ? "http://site\(page).com/page" : "HTTP://Site\(page).COM/page"
            var url = requests[next(requests.count)]
            if url.hasPrefix("/") { url = "http://site\(page).com" + url }
            let type = types[next(types.count)]
            let frame: String? = next(5) == 0 ? (next(2) == 0 ? "http://frame1.org/" : "http://site\(page).com/other") : nil
            let networkOnly = next(3) != 0
            let valid = matcher.decide(url: url, resourceType: type, mainDocumentURL: main, frameURL: frame,
                                       mainFrameContext: type == ResourceFlags.topDocument, networkOnly: networkOnly)
            let fresh = RuleListMatcher(list)
            let freshValid = fresh.decide(url: url, resourceType: type, mainDocumentURL: main, frameURL: frame,
                                          mainFrameContext: type == ResourceFlags.topDocument, networkOnly: networkOnly)
            #expect(valid == freshValid)
            #expect(matcher.result == fresh.result, "\(url) on \(main), frame \(frame ?? "-"), networkOnly \(networkOnly)")
            #expect(matcher.sawIgnorePreviousRules == fresh.sawIgnorePreviousRules)
            if !matcher.result.isEmpty { decided += 1 }
        }
        #expect(decided > 500)
    }
}
