#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decides loads against one compiled rule list (WebKit's `ContentExtensionsBackend::
/// actionsForResourceLoad` for one list). Keeps per-page caches (the top and frame URL
/// conditions, as WebKit's `ContentExtension` caches its top-URL actions; the page's
/// registrable domain) and scratch buffers allocated once, so a decision allocates nothing:
/// use one matcher per thread.
///
/// Two ways in: `decide(_ load:)` with a `ResourceLoad` (every field WebKit has), and
/// `decide(url:resourceType:mainDocumentURL:…)`, the networking process's path, which takes
/// the URLs as text and canonicalizes the request URL into a buffer of its own
/// (`RequestURL.canonicalize`) without making a `String`.
public final class RuleListMatcher {
    public let list: CompiledRuleList
    let ruleCount: Int
    /// A bit per rule: the rules this decision has considered (each rule is considered
    /// once); they are listed in `pending` and their bits cleared when the next decision
    /// begins. A few KB that stay in the first-level cache, where a stamp per rule (120 KB
    /// for easybase) cost a miss per candidate.
    let seen: UnsafeMutablePointer<UInt64>
    /// How many rules of `pending` are marked in `seen`.
    var pendingCount = 0
    /// The action locations of the rules that matched (at most one per rule).
    let locations: UnsafeMutablePointer<UInt32>
    var locationCount = 0
    public private(set) var result: [UInt32] = []
    public private(set) var sawIgnorePreviousRules = false
    /// How many confirmation DFAs have run (a statistic for tools).
    public private(set) var confirmations = 0
    /// How many candidate rules the URL DFAs have produced (a statistic for tools).
    public private(set) var candidateCount = 0

    // Condition caches: bit sets over rules, and the rules set in each.
    let words: Int
    let frameBits: UnsafeMutablePointer<UInt64>
    let ancestorBits: UnsafeMutablePointer<UInt64>
    var frameSet: [UInt32] = []
    var ancestorSet: [UInt32] = []
    var frameURL: String? = nil
    /// The pages seen last (a networking process serves several at once), the current one
    /// first: their canonical URL, registrable domain, top-URL conditions and universal rules.
    var pages: [PageState] = []
    var page: PageState
    /// `pages[i].textHash`, contiguous: a page is found without touching the others.
    var pageHashes: [UInt64] = [0]
    var pageIndex = 0
    var clock: UInt64 = 0
    static let pageCacheSize = 32
    var scratch: [UInt8] = []
    var keyScratch: [UInt8] = []
    var tailHits: [UInt32] = []
    /// Registrable domains of the hosts of pages seen (the Public Suffix List's answer).
    var domains: [String: [UInt8]] = [:]

    // The text path: the request URL's canonical bytes, and the page last seen.
    var urlBuffer: UnsafeMutablePointer<UInt8>
    var urlCapacity: Int

    /// The DFAs walked for every decision, as pointers (no array or list reference counted
    /// per decision): the url DFAs, the host-prefix DFAs, the tail DFAs.
    let urlCodes: UnsafeMutableBufferPointer<UnsafePointer<UInt32>>
    let hostCodes: UnsafeMutableBufferPointer<UnsafePointer<UInt32>>
    let tailCodes: UnsafeMutableBufferPointer<UnsafePointer<UInt32>>

    /// The candidates of one decision that passed the checks made from the flags stored in
    /// the DFAs, each rule once (`seen`): the DFA walks only append to this buffer (no
    /// closure capturing the matcher, no reference counting in the walks); `consider` runs
    /// after them.
    let pending: UnsafeMutablePointer<UInt32>
    /// The tails found by one host lookup's walk (`tailStamp`), each tail once.
    let tailSeen: UnsafeMutablePointer<UInt32>
    var tailStamp: UInt32 = 0
    /// The current page's top-URL condition bits (`page.topBits`).
    var topBits: UnsafeMutablePointer<UInt64>
    /// Whether the text path last prepared the current page's conditions and universal rules
    /// with its own URL as the frame URL (then they need no check): `decide(url:…)` with no
    /// frame URL skips them. Cleared by anything that changes them.
    var hotReady = false
    var preparedNetworkOnly = false
    /// The current page's text (as the text path was given it) and registrable domain, as
    /// bytes of the matcher's own (valid when `hotValid`): a request of the same page is
    /// recognized and its party decided without touching the page's strings.
    var hotText: UnsafeMutablePointer<UInt8>
    var hotTextCount = 0, hotTextCapacity = 256
    var hotDomain: UnsafeMutablePointer<UInt8>
    var hotDomainCount = 0, hotDomainCapacity = 256
    var hotValid = false
    /// The universal network rules that apply to the current page and frame
    /// (`page.applicableNetwork`, copied by `prepareUniversal`).
    let universal: UnsafeMutablePointer<UInt32>
    var universalCount = 0
    /// Whether the URL being decided has only bytes 1...127 (`urlKnownClean`: the text path's
    /// fast canonicalization guarantees it), so that the separator tail is decided from the
    /// byte after the literal alone.
    var urlClean = false
    var urlKnownClean = false

    static func codes(_ list: CompiledRuleList, _ offsets: [UInt32]) -> UnsafeMutableBufferPointer<UnsafePointer<UInt32>> {
        let b = UnsafeMutablePointer<UnsafePointer<UInt32>>.allocate(capacity: max(offsets.count, 1))
        for (k, o) in offsets.enumerated() { b[k] = list.dfa(o) }
        return UnsafeMutableBufferPointer(start: b, count: offsets.count)
    }

    public init(_ list: CompiledRuleList) {
        self.list = list
        urlCodes = RuleListMatcher.codes(list, list.urlDFAs)
        hostCodes = RuleListMatcher.codes(list, list.hostDFAs)
        tailCodes = RuleListMatcher.codes(list, list.tailDFAs)
        ruleCount = list.ruleCount
        seen = .allocate(capacity: ruleCount / 64 + 1)
        seen.initialize(repeating: 0, count: ruleCount / 64 + 1)
        locations = .allocate(capacity: max(ruleCount, 1))
        words = (ruleCount + 63) / 64 + 1
        page = PageState(words: words)
        pages = [page]
        frameBits = .allocate(capacity: words)
        frameBits.initialize(repeating: 0, count: words)
        ancestorBits = .allocate(capacity: words)
        ancestorBits.initialize(repeating: 0, count: words)
        urlCapacity = 2048
        urlBuffer = .allocate(capacity: urlCapacity)
        result.reserveCapacity(64)
        pending = .allocate(capacity: max(ruleCount, 1))
        tailSeen = .allocate(capacity: max(list.tailCount, 1) + 1)
        tailSeen.initialize(repeating: 0, count: max(list.tailCount, 1) + 1)
        topBits = page.topBits
        hotText = .allocate(capacity: hotTextCapacity)
        hotDomain = .allocate(capacity: hotDomainCapacity)
        universal = .allocate(capacity: max(list.universalNetwork.count, 1))
    }

    deinit {
        urlCodes.baseAddress?.deallocate()
        hostCodes.baseAddress?.deallocate()
        tailCodes.baseAddress?.deallocate()
        seen.deallocate()
        locations.deallocate()
        frameBits.deallocate()
        ancestorBits.deallocate()
        urlBuffer.deallocate()
        pending.deallocate()
        tailSeen.deallocate()
        hotText.deallocate()
        hotDomain.deallocate()
        universal.deallocate()
    }

    @inline(__always) static func test(_ bits: UnsafeMutablePointer<UInt64>, _ r: UInt32) -> Bool {
        bits[Int(r >> 6)] & (1 << UInt64(r & 63)) != 0
    }

    @inline(__always) static func insert(_ bits: UnsafeMutablePointer<UInt64>, _ set: inout [UInt32], _ r: UInt32) {
        if bits[Int(r >> 6)] & (1 << UInt64(r & 63)) == 0 {
            bits[Int(r >> 6)] |= 1 << UInt64(r & 63)
            set.append(r)
        }
    }

    static func clear(_ bits: UnsafeMutablePointer<UInt64>, _ set: inout [UInt32]) {
        for r in set { bits[Int(r >> 6)] &= ~(1 << UInt64(r & 63)) }
        set.removeAll(keepingCapacity: true)
    }

    static func fill(_ bits: UnsafeMutablePointer<UInt64>, _ set: inout [UInt32], dfas: [UInt32], list: CompiledRuleList, urls: [String]) {
        for url in urls {
            var copy = url
            copy.withUTF8 { bytes in
                for d in dfas {
                    DFABytecode.runAnywhere(list.dfa(d), bytes) { r, _ in insert(bits, &set, r) }
                }
            }
        }
    }

    func prepareConditions(top: String, frame: String) {
        selectPage(url: top)
        if !page.conditionsReady {
            let bits = page.topBits
            var set = page.topSet
            page.topSet = []  // the set's buffer unshared, so it is reused in place
            RuleListMatcher.clear(bits, &set)
            RuleListMatcher.fill(bits, &set, dfas: list.topDFAs, list: list, urls: [top])
            if list.domainTable != 0 {
                var url = top
                url.withUTF8 { bytes in
                    DomainConditionTable.match(list.words, table: list.domainTable, url: bytes, scratch: &scratch,
                                               key: &keyScratch) { r in RuleListMatcher.insert(bits, &set, r) }
                }
            }
            page.topSet = set
            page.conditionsReady = true
        }
        if frameURL != frame {
            RuleListMatcher.clear(frameBits, &frameSet)
            if !list.frameDFAs.isEmpty {
                RuleListMatcher.fill(frameBits, &frameSet, dfas: list.frameDFAs, list: list, urls: [frame])
            }
            frameURL = frame
        }
    }

    /// Makes the page of this top URL the current one: from the cache, or in place of the
    /// page used least recently.
    func selectPage(url top: String) {
        clock &+= 1
        if page.url != top {
            hotValid = false
            hotReady = false
            if let i = pages.firstIndex(where: { $0.url == top }) { page = pages[i]; pageIndex = i } else {
                if pages.count < RuleListMatcher.pageCacheSize {
                    page = PageState(words: words)
                    pages.append(page)
                    pageHashes.append(0)
                    pageIndex = pages.count - 1
                } else {
                    pageIndex = pages.indices.min { pages[$0].lastUse < pages[$1].lastUse }!
                    page = pages[pageIndex]
                }
                page.reset(url: top)
                pageHashes[pageIndex] = 0
            }
        }
        page.lastUse = clock
        topBits = page.topBits
    }

    /// Whether a rule's condition holds for the load (top and frame URLs prepared).
    @inline(__always) func conditionHolds(_ r: UInt32, _ condition: UInt32, ancestors: [String]) -> Bool {
        let everything = list.info(ofRule: Int(r)) & ContentRuleListCompiler.infoConditionMatchesEverything != 0
        switch condition {
        case ResourceFlags.ifTopURL: return everything || RuleListMatcher.test(page.topBits, r)
        case ResourceFlags.unlessTopURL: return !(everything || RuleListMatcher.test(page.topBits, r))
        case ResourceFlags.ifFrameURL: return everything || RuleListMatcher.test(frameBits, r)
        case ResourceFlags.unlessFrameURL: return !(everything || RuleListMatcher.test(frameBits, r))
        case ResourceFlags.ifAncestorSubframeURL:
            if everything { return !ancestors.isEmpty }
            if ancestorSet.isEmpty && !ancestors.isEmpty {
                RuleListMatcher.fill(ancestorBits, &ancestorSet, dfas: list.frameDFAs, list: list, urls: ancestors)
            }
            return RuleListMatcher.test(ancestorBits, r)
        default: return true
        }
    }

    /// The universal rules whose condition (top or frame URL) holds for this page and frame.
    func prepareUniversal(top: String, frame: String, css: Bool) {
        if page.universalFrame != frame {
            page.universalFrame = frame
            page.applicableCSS = nil
            page.applicableNetwork = select(list.universalNetwork)
        }
        if css && page.applicableCSS == nil { page.applicableCSS = select(list.universalCSS) }
        universalCount = 0
        for r in page.applicableNetwork { universal[universalCount] = r; universalCount += 1 }
    }

    func select(_ rules: [UInt32]) -> [UInt32] {
        var out: [UInt32] = []
        for r in rules {
            let c = list.flags(ofRule: Int(r)) & ResourceFlags.actionConditionMask
            // Ancestor conditions depend on the request: kept, checked per load.
            if c == 0 || c == ResourceFlags.ifAncestorSubframeURL || conditionHolds(r, c, ancestors: []) { out.append(r) }
        }
        return out
    }

    /// A rule that passed the checks made from the flags stored in the DFA (or a universal
    /// rule): the rest of its trigger, then its confirmation DFA.
    func consider(_ r: UInt32, _ flags: UInt32, networkOnly: Bool, ancestors: [String], url: UnsafeBufferPointer<UInt8>) {
        let bit: UInt64 = 1 << UInt64(r & 63)
        if seen[Int(r >> 6)] & bit != 0 { return }
        seen[Int(r >> 6)] |= bit
        pending[pendingCount] = r
        pendingCount &+= 1
        considerOnce(r, flags, networkOnly: networkOnly, ancestors: ancestors, url: url)
    }

    /// `consider` for a rule already marked in `seen`.
    func considerOnce(_ r: UInt32, _ flags: UInt32, networkOnly: Bool, ancestors: [String], url: UnsafeBufferPointer<UInt8>) {
        let ruleIndex = Int(r)
        if networkOnly && list.info(ofRule: ruleIndex) & ContentRuleListCompiler.infoCSS != 0 { return }
        let f = list.flags(ofRule: ruleIndex)
        guard ResourceFlags.ruleFlags(f, admit: flags) else { return }
        let c = f & ResourceFlags.actionConditionMask
        if c != 0 && !conditionHolds(r, c, ancestors: ancestors) { return }
        let v = list.verifier(ofRule: ruleIndex)
        if v != 0 {
            confirmations &+= 1
            var confirmed = false
            DFABytecode.runFromStart(list.dfa(v), url) { _, _ in confirmed = true }
            if !confirmed { return }
        }
        locations[locationCount] = list.location(ofRule: ruleIndex)
        locationCount += 1
    }

    /// Where the DFA walks put their candidates: the checks made from the flags stored next
    /// to each rule id in the DFA (most candidates are refused there, without a look at the
    /// rule table), then each rule once into `pending`. Only plain values and pointers: the
    /// walks' closures capture no reference.
    struct Candidates {
        let top: UnsafeMutablePointer<UInt64>
        let seen: UnsafeMutablePointer<UInt64>
        let requestFlags: UInt32
        let networkOnly: Bool
        let pending: UnsafeMutablePointer<UInt32>
        var count = 0
        /// Candidates that passed the flags (a statistic).
        var offered = 0

        @inline(__always) mutating func offer(_ r: UInt32, _ f: UInt32) {
            if networkOnly && f & ContentRuleListCompiler.dfaFlagCSS != 0 { return }
            guard ResourceFlags.ruleFlags(f, admit: requestFlags) else { return }
            let c = f & ResourceFlags.actionConditionMask
            if c == ResourceFlags.ifTopURL || c == ResourceFlags.unlessTopURL {
                let matched = f & ContentRuleListCompiler.dfaFlagConditionEverything != 0 || RuleListMatcher.test(top, r)
                if matched != (c == ResourceFlags.ifTopURL) { return }
            }
            offered &+= 1
            let bit: UInt64 = 1 << UInt64(r & 63)
            if seen[Int(r >> 6)] & bit != 0 { return }
            seen[Int(r >> 6)] |= bit
            pending[count] = r
            count &+= 1
        }
    }

    /// Runs the URL DFAs and checks the candidates and the universal rules.
    func collect(_ url: UnsafeBufferPointer<UInt8>, flags requestFlags: UInt32, ancestors: [String], networkOnly: Bool) {
        urlClean = urlKnownClean || RuleListMatcher.isClean(url)
        urlKnownClean = false
        var found = Candidates(top: topBits, seen: seen, requestFlags: requestFlags,
                               networkOnly: networkOnly, pending: pending, count: pendingCount)
        for code in urlCodes { DFABytecode.runAnywhere(code, url) { r, f in found.offer(r, f) } }
        let places = RuleListMatcher.hostPlaces(url)
        if hostCodes.count != 0, let places { matchHostDFAs(url, places, &found) }
        candidateCount &+= found.offered
        let first = pendingCount
        pendingCount = found.count
        for k in first..<found.count {
            considerOnce(pending[k], requestFlags, networkOnly: networkOnly, ancestors: ancestors, url: url)
        }
        if list.hostTable != 0, let places { matchHostTable(url, places, flags: requestFlags, ancestors: ancestors, networkOnly: networkOnly) }
        for k in 0..<universalCount { consider(universal[k], requestFlags, networkOnly: networkOnly, ancestors: ancestors, url: url) }
        if !networkOnly, let css = page.applicableCSS {
            for r in css { consider(r, requestFlags, networkOnly: false, ancestors: ancestors, url: url) }
        }
    }

    /// Whether every byte of `url` is in 1...127.
    static func isClean(_ url: UnsafeBufferPointer<UInt8>) -> Bool {
        var clean = true
        for b in url where b == 0 || b >= 128 { clean = false; break }
        return clean
    }

    /// Where the text after `[htpsw]+://` begins (p0), and after its first label and dot
    /// (p1, -1 when none); nil when the URL does not begin so.
    @inline(__always) static func hostPlaces(_ url: UnsafeBufferPointer<UInt8>) -> (Int, Int)? {
        let n = url.count
        var i = 0
        while i < n && HostIndex.isSchemeCharacter(url[i]) { i += 1 }
        guard i > 0, i + 2 < n, url[i] == 0x3A, url[i + 1] == 0x2F, url[i + 2] == 0x2F else { return nil }
        let p0 = i + 3
        var j = p0
        while j < n && HostIndex.isLabelCharacter(url[j]) { j += 1 }
        let p1 = j > p0 && j < n && url[j] == 0x2E ? j + 1 : -1
        return (p0, p1)
    }

    /// The DFAs of the anchored filters after `[htpsw]+://([a-z0-9-]+\.)?`, walked from p0
    /// and p1.
    func matchHostDFAs(_ url: UnsafeBufferPointer<UInt8>, _ places: (Int, Int), _ found: inout Candidates) {
        let (p0, p1) = places
        for code in hostCodes {
            DFABytecode.runGated(code, url, from: p0) { r, f in found.offer(r, f) }
            if p1 >= 0 { DFABytecode.runGated(code, url, from: p1) { r, f in found.offer(r, f) } }
        }
    }

    /// The host filters (`HostIndex`): the literal after `[htpsw]+://`, and after the first
    /// label, looked up; the tails walked from where the literal ends.
    func matchHostTable(_ url: UnsafeBufferPointer<UInt8>, _ places: (Int, Int), flags: UInt32, ancestors: [String], networkOnly: Bool) {
        let (p0, p1) = places
        // The literal from p0 ends where the one from p1 does (p1 is after a label and a dot,
        // inside the same run of literal characters).
        let n = url.count
        var q = p0
        while q < n && HostIndex.isLiteral(url[q]) { q += 1 }
        guard q > p0 else { return }
        let words = list.words
        let (l0, l1) = DomainConditionTable.findFiltered(words, table: list.hostTable,
                                                         lowercasing: UnsafeBufferPointer(rebasing: url[p0..<q]),
                                                         and: p1 >= 0 && p1 < q ? UnsafeBufferPointer(rebasing: url[p1..<q]) : nil)
        // The tails that match from q (a few: the URL's rest decides them), marked with this
        // decision's stamp; the tail DFAs are walked at the first rule that needs them (the
        // separator tail, most rules', is decided from the byte at q).
        var walked = false
        if l0 != 0 { rulesOfLiteral(url, list: l0, end: q, walked: &walked, flags: flags, ancestors: ancestors, networkOnly: networkOnly) }
        if l1 != 0 { rulesOfLiteral(url, list: l1, end: q, walked: &walked, flags: flags, ancestors: ancestors, networkOnly: networkOnly) }
    }

    /// The rules of a literal found in the host table whose tails match from `q`.
    func rulesOfLiteral(_ url: UnsafeBufferPointer<UInt8>, list l: Int, end q: Int, walked: inout Bool, flags: UInt32,
                        ancestors: [String], networkOnly: Bool) {
        let words = list.words
        let tails = tailSeen
        var lastTail = UInt32.max
        var hit = false
        // The list is (tail, rule) pairs sorted by tail: each tail is decided once.
        for j in stride(from: 1, to: Int(words[l]), by: 2) {
            let t = words[l &+ j]
            let r = words[l &+ j &+ 1]
            if t != lastTail {
                lastTail = t
                if t & HostIndex.separatorTailBit != 0 {
                    hit = urlClean ? HostIndex.separatorTailMatchesClean(url, from: q) : HostIndex.separatorTailMatches(url, from: q)
                } else {
                    if !walked {
                        walked = true
                        tailStamp &+= 1
                        if tailStamp == 0 { tailSeen.update(repeating: 0, count: max(list.tailCount, 1) + 1); tailStamp = 1 }
                        let mark = tailStamp
                        for code in tailCodes { DFABytecode.run(code, url, from: q) { t, _ in tails[Int(t) + 1] = mark } }
                    }
                    hit = tails[Int(t)] == tailStamp
                }
            }
            guard hit else { continue }
            candidateCount &+= 1
            consider(r, flags, networkOnly: networkOnly, ancestors: ancestors, url: url)
        }
    }

    /// Decides a load: afterwards `result` holds the action locations in WebKit's order (the
    /// last matching rule first, stopping at an ignore-previous-rules), and
    /// `sawIgnorePreviousRules` whether one stopped it. With `networkOnly`, css-display-none
    /// rules are left out (they cannot change which other actions apply), as the networking
    /// process needs.
    public func decide(_ load: ResourceLoad, networkOnly: Bool = false) {
        result.removeAll(keepingCapacity: true)
        sawIgnorePreviousRules = false
        if load.isExempt { return }
        var url = load.urlString
        url.withUTF8 { bytes in
            decide(url: bytes, flags: load.flags, top: load.mainDocumentURLString, frame: load.frameURLString,
                   ancestors: load.ancestorFrameURLStrings, networkOnly: networkOnly)
        }
    }

    /// Decides a load given as text, as the networking process has it: the request URL, its
    /// resource type (a `ResourceFlags` resource-type bit), the page's main document URL and
    /// the frame's URL (the main document's when nil). The URL is canonicalized (scheme and
    /// host lowercased, …; `RequestURL`) into the matcher's own buffer; the page's canonical
    /// URL and registrable domain are kept until the page changes. Returns false, deciding
    /// nothing, for a URL that does not parse.
    @discardableResult
    public func decide(url text: String, resourceType: UInt32, mainDocumentURL: String, frameURL: String? = nil,
                       mainFrameContext: Bool = false, requestMethod: UInt32 = 0, networkOnly: Bool = false) -> Bool {
        result.removeAll(keepingCapacity: true)
        sawIgnorePreviousRules = false
        let samePage = hotValid && (mainDocumentURL.utf8.withContiguousStorageIfAvailable { b in
            b.count == hotTextCount && (b.count == 0 || memcmp(b.baseAddress!, hotText, b.count) == 0)
        } ?? (String(decoding: UnsafeBufferPointer(start: hotText, count: hotTextCount), as: UTF8.self) == mainDocumentURL))
        let snapshotSwitch = !samePage && networkOnly && frameURL == nil && list.frameDFAs.isEmpty
            && (mainDocumentURL.utf8.withContiguousStorageIfAvailable { switchToSnapshot($0) } ?? false)
        if !samePage && !snapshotSwitch {
            preparePage(mainDocumentURL)
            setHot(text: mainDocumentURL, domain: page.domain)
            if frameURL == nil && list.frameDFAs.isEmpty && page.conditionsReady && page.universalFrame == page.url
                && (networkOnly || page.applicableCSS != nil) {
                // A page seen before whose conditions and universal rules were prepared with
                // its own URL as the frame URL (no frame-URL DFAs: the frame's bits are empty
                // whatever the frame): it becomes the current page as it was left.
                clock &+= 1
                page.lastUse = clock
                universalCount = 0
                for r in page.applicableNetwork { universal[universalCount] = r; universalCount += 1 }
                hotReady = true
                preparedNetworkOnly = networkOnly
                if networkOnly { takeSnapshot() }
            }
        }
        if text.utf8.count + 8 > urlCapacity {
            urlBuffer.deallocate()
            urlCapacity = text.utf8.count * 2 + 8
            urlBuffer = .allocate(capacity: urlCapacity)
        }
        let buffer = UnsafeMutableBufferPointer(start: urlBuffer, count: urlCapacity)
        var canonical = text.utf8.withContiguousStorageIfAvailable { RequestURL.canonicalize($0, into: buffer) }
            ?? { var copy = text; return copy.withUTF8 { RequestURL.canonicalize($0, into: buffer) } }()
        let fastCanonical = canonical != nil
        if canonical == nil {
            guard let (string, c) = RequestURL.canonicalizeSlowly(text) else { return false }
            if c.length > urlCapacity {
                urlBuffer.deallocate()
                urlCapacity = c.length * 2
                urlBuffer = .allocate(capacity: urlCapacity)
            }
            var s = string
            s.withUTF8 { UnsafeMutableRawPointer(urlBuffer).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            canonical = c
        }
        guard let c = canonical else { return false }
        if c.isData { return true }
        let url = UnsafeBufferPointer(start: urlBuffer, count: c.length)
        let host = UnsafeBufferPointer(rebasing: url[c.hostStart..<c.hostEnd])
        let thirdParty = !RegistrableDomain.matches(domain: UnsafeBufferPointer(start: hotDomain, count: hotDomainCount), host: host)
        let flags = resourceType
            | (thirdParty ? ResourceFlags.thirdParty : ResourceFlags.firstParty)
            | (mainFrameContext ? ResourceFlags.topFrame : ResourceFlags.childFrame)
            | requestMethod
        if frameURL == nil && hotReady && preparedNetworkOnly == networkOnly {
            // The page's conditions and universal rules are as the last decision left them
            // (its place in the page cache too: only the current page is used until another
            // is selected).
            begin()
            urlKnownClean = fastCanonical
            collectAndOrder(url, flags: flags, ancestors: [], networkOnly: networkOnly)
            return true
        }
        let top = page.url
        let frame = frameURL.map { RequestURL($0)?.string ?? "" } ?? top
        urlKnownClean = fastCanonical
        decide(url: url, flags: flags, top: top, frame: frame, ancestors: [], networkOnly: networkOnly)
        if frameURL == nil {
            hotReady = true
            preparedNetworkOnly = networkOnly
            if networkOnly && list.frameDFAs.isEmpty { takeSnapshot() }
        }
        return true
    }

    /// Keeps the current page as the text path has just prepared it for network decisions
    /// with its own URL as the frame URL (`hotReady`, no frame-URL DFAs): its text,
    /// registrable domain and universal rules, in one buffer of the page's.
    func takeSnapshot() {
        let p = page
        let need = 3 + (hotTextCount + 3) / 4 + (hotDomainCount + 3) / 4 + universalCount
        if need > p.snapshotCapacity {
            p.snapshot?.deallocate()
            p.snapshotCapacity = need * 2
            p.snapshot = .allocate(capacity: p.snapshotCapacity)
        }
        guard let w = p.snapshot else { return }
        w[0] = UInt32(hotTextCount); w[1] = UInt32(hotDomainCount); w[2] = UInt32(universalCount)
        let text = UnsafeMutableRawPointer(w + 3)
        text.copyMemory(from: hotText, byteCount: hotTextCount)
        let domainWords = 3 + (hotTextCount + 3) / 4
        UnsafeMutableRawPointer(w + domainWords).copyMemory(from: hotDomain, byteCount: hotDomainCount)
        let rules = domainWords + (hotDomainCount + 3) / 4
        for k in 0..<universalCount { w[rules + k] = universal[k] }
        p.snapshotValid = true
    }

    /// Makes the page of this text (the main document URL as given) current from its
    /// snapshot, touching one buffer of it: false when it has none.
    func switchToSnapshot(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for x in b { h = (h ^ UInt64(x)) &* 0x0000_0100_0000_01B3 }
        for i in 0..<pageHashes.count where pageHashes[i] == h {
            let p = pages[i]
            guard p.snapshotValid, let w = p.snapshot, Int(w[0]) == b.count else { continue }
            let n = b.count
            let text = UnsafeRawPointer(w + 3)
            if n > 0 && memcmp(text, b.baseAddress!, n) != 0 { continue }
            let dn = Int(w[1]), un = Int(w[2])
            let domainWords = 3 + (n + 3) / 4
            if n > hotTextCapacity { hotText.deallocate(); hotTextCapacity = n * 2; hotText = .allocate(capacity: hotTextCapacity) }
            if dn > hotDomainCapacity {
                hotDomain.deallocate(); hotDomainCapacity = dn * 2; hotDomain = .allocate(capacity: hotDomainCapacity)
            }
            UnsafeMutableRawPointer(hotText).copyMemory(from: text, byteCount: n)
            hotTextCount = n
            UnsafeMutableRawPointer(hotDomain).copyMemory(from: w + domainWords, byteCount: dn)
            hotDomainCount = dn
            let rules = domainWords + (dn + 3) / 4
            for k in 0..<un { universal[k] = w[rules + k] }
            universalCount = un
            page = p
            pageIndex = i
            topBits = p.topBits
            clock &+= 1
            p.lastUse = clock
            hotValid = true
            hotReady = true
            preparedNetworkOnly = true
            return true
        }
        return false
    }

    static func textHash(_ text: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return h
    }

    /// Copies the current page's text and registrable domain into the matcher's buffers.
    func setHot(text: String, domain: [UInt8]) {
        let n = text.utf8.count
        if n > hotTextCapacity { hotText.deallocate(); hotTextCapacity = n * 2; hotText = .allocate(capacity: hotTextCapacity) }
        var k = 0
        for b in text.utf8 { hotText[k] = b; k += 1 }
        hotTextCount = n
        if domain.count > hotDomainCapacity {
            hotDomain.deallocate(); hotDomainCapacity = domain.count * 2; hotDomain = .allocate(capacity: hotDomainCapacity)
        }
        for (i, b) in domain.enumerated() { hotDomain[i] = b }
        hotDomainCount = domain.count
        hotValid = true
    }

    func preparePage(_ text: String) {
        hotValid = false
        hotReady = false
        let h = RuleListMatcher.textHash(text)
        for i in 0..<pageHashes.count where pageHashes[i] == h && pages[i].text == text {
            page = pages[i]; pageIndex = i; topBits = page.topBits; return
        }
        // The canonical URL and host: by the fast path when it applies.
        var url = "", host = ""
        var copy = text
        let fast: Bool = copy.withUTF8 { bytes in
            let n = bytes.count + 1
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: n) { out in
                guard let c = RequestURL.canonicalize(bytes, into: out) else { return false }
                url = String(decoding: UnsafeBufferPointer(rebasing: out[..<c.length]), as: UTF8.self)
                host = String(decoding: UnsafeBufferPointer(rebasing: out[c.hostStart..<c.hostEnd]), as: UTF8.self)
                return true
            }
        }
        if !fast, let parsed = RequestURL(text) { url = parsed.string; host = parsed.host }
        selectPage(url: url)
        page.text = text
        page.snapshotValid = false
        pageHashes[pageIndex] = h
        if !page.hasDomain {
            if let d = domains[host] { page.domain = d } else {
                let d = Array(RegistrableDomain(host: host).string.utf8)
                if domains.count >= 1024 { domains.removeAll(keepingCapacity: true) }
                domains[host] = d
                page.domain = d
            }
            page.hasDomain = true
        }
    }

    @inline(__always) func begin() {
        for k in 0..<pendingCount { let r = pending[k]; seen[Int(r >> 6)] &= ~(1 << UInt64(r & 63)) }
        pendingCount = 0
        locationCount = 0
        if !ancestorSet.isEmpty { RuleListMatcher.clear(ancestorBits, &ancestorSet) }
    }

    func decide(url: UnsafeBufferPointer<UInt8>, flags: UInt32, top: String, frame: String, ancestors: [String], networkOnly: Bool) {
        hotReady = false
        begin()
        prepareConditions(top: top, frame: frame)
        prepareUniversal(top: top, frame: frame, css: !networkOnly)
        collectAndOrder(url, flags: flags, ancestors: ancestors, networkOnly: networkOnly)
    }

    /// The rules' actions of this load, in WebKit's order, into `result`.
    func collectAndOrder(_ url: UnsafeBufferPointer<UInt8>, flags: UInt32, ancestors: [String], networkOnly: Bool) {
        collect(url, flags: flags, ancestors: ancestors, networkOnly: networkOnly)
        if locationCount == 0 { return }
        var found = UnsafeMutableBufferPointer(start: locations, count: locationCount)
        found.sort()
        // Add actions in reverse order to properly deal with IgnorePreviousRules.
        var previous = UInt32.max
        for l in found.reversed() where l != previous {
            previous = l
            let kind = list.kind(atLocation: l)
            if kind == RuleAction.ignorePreviousRules.kind { sawIgnorePreviousRules = true; break }
            if kind == RuleAction.ignoreFollowingRules.kind { result.removeAll(keepingCapacity: true); continue }
            result.append(l)
        }
    }

    /// The kinds of the decided actions as a bit set (bit `RuleAction.kind`).
    public var resultKinds: UInt32 {
        var k: UInt32 = 0
        for l in result { k |= 1 << UInt32(list.kind(atLocation: l)) }
        return k
    }
}

/// What a matcher keeps for one page (one top URL).
final class PageState {
    /// The main document URL as the text path was given it, and canonical.
    var text: String? = nil
    var url = ""
    var domain: [UInt8] = []
    var hasDomain = false
    /// The rules whose top-URL condition matches this page's URL.
    var conditionsReady = false
    let topBits: UnsafeMutablePointer<UInt64>
    var topSet: [UInt32] = []
    /// The universal rules that apply, for a frame URL.
    var universalFrame: String? = nil
    var applicableNetwork: [UInt32] = []
    var applicableCSS: [UInt32]? = nil
    var lastUse: UInt64 = 0
    /// `RuleListMatcher.takeSnapshot`: text count, domain count, rule count (words), then the
    /// text's bytes, the domain's bytes (each from a word boundary) and the universal rules.
    var snapshot: UnsafeMutablePointer<UInt32>? = nil
    var snapshotCapacity = 0
    var snapshotValid = false

    init(words: Int) {
        topBits = .allocate(capacity: words)
        topBits.initialize(repeating: 0, count: words)
    }

    deinit { topBits.deallocate(); snapshot?.deallocate() }

    func reset(url: String) {
        RuleListMatcher.clear(topBits, &topSet)
        text = nil
        snapshotValid = false
        self.url = url
        domain = []
        hasDomain = false
        conditionsReady = false
        universalFrame = nil
        applicableNetwork = []
        applicableCSS = nil
    }
}
