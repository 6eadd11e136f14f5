#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a compiled rule list was refused.
public enum CompiledRuleListError: Error, Equatable, Sendable {
    case cannotOpen(String)
    case notACompiledRuleList
    case outdatedVersion(found: UInt32, expected: UInt32)
    case damaged(String)

    public var message: String {
        switch self {
        case .cannotOpen(let why): return "cannot open the compiled rule list: \(why)"
        case .notACompiledRuleList: return "not a compiled content-blocker rule list"
        case .outdatedVersion(let found, let expected): return "compiled with format version \(found), this build reads \(expected)"
        case .damaged(let what): return "damaged compiled rule list: \(what)"
        }
    }
}

/// A compiled rule list, read in place from its bytes: a mapped file (`load(path:)`) or the
/// compiler's output. Checked once when loaded (magic, version, length, checksum, every DFA's
/// targets), then used without copying. Immutable: share it between threads; each thread
/// decides loads through its own `RuleListMatcher`.
public final class CompiledRuleList: @unchecked Sendable {
    enum Storage { case mapped(UnsafeMutableRawPointer, Int); case owned(UnsafeMutablePointer<UInt32>, Int) }
    let storage: Storage
    let words: UnsafeBufferPointer<UInt32>
    public let ruleCount: Int
    let locationCount: Int
    let rules: UnsafePointer<UInt32>    // 4 words per rule
    let actions: UnsafePointer<UInt32>  // 2 words per location
    let urlDFAs: [UInt32]
    let topDFAs: [UInt32]
    let frameDFAs: [UInt32]
    /// The if-domain / unless-domain table (word offset, 0 when none).
    let domainTable: Int
    /// The host index (`HostIndex`): the literal table (0 when none), the DFAs of the tails,
    /// each rule's tail (tail id + 1, 0 for none).
    let hostTable: Int
    let tailDFAs: [UInt32]
    /// Anchored filters after `^[htpsw]+://([a-z0-9-]+\.)?`, walked from where that ends.
    let hostDFAs: [UInt32]
    let ruleTails: UnsafePointer<UInt32>?
    let tailCount: Int
    /// Rules that match every URL, by what they matter to.
    let universalNetwork: [UInt32]
    let universalCSS: [UInt32]
    /// Universal network rules with a top-URL condition that holds for every top URL unless
    /// excluded, and those that need a top-URL match.
    let firstIgnorePreviousLocation: UInt32
    public let globalStyleSheet: String?

    /// The size of the compiled list in bytes.
    public var byteCount: Int { words.count * 4 }

    deinit {
        switch storage {
        case .mapped(let p, let n): munmap(p, n)
        case .owned(let p, _): p.deallocate()
        }
    }

    /// Reads compiled bytes (copied once into aligned storage).
    public convenience init(bytes: [UInt8]) throws(CompiledRuleListError) {
        guard bytes.count % 4 == 0 else { throw .damaged("length is not a multiple of 4") }
        let count = bytes.count / 4
        let p = UnsafeMutablePointer<UInt32>.allocate(capacity: max(count, 1))
        bytes.withUnsafeBytes { if let b = $0.baseAddress { UnsafeMutableRawPointer(p).copyMemory(from: b, byteCount: bytes.count) } }
        do { try self.init(storage: .owned(p, count)) } catch { p.deallocate(); throw error }
    }

    /// Maps a compiled rule list file read-only.
    public static func load(path: String) throws(CompiledRuleListError) -> CompiledRuleList {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .cannotOpen(String(cString: strerror(errno))) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .cannotOpen(String(cString: strerror(errno))) }
        let size = Int(st.st_size)
        guard size >= ContentRuleListCompiler.headerWords * 4, size % 4 == 0 else { throw .notACompiledRuleList }
        guard let p = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED else {
            throw .cannotOpen(String(cString: strerror(errno)))
        }
        do { return try CompiledRuleList(storage: .mapped(p, size)) } catch { munmap(p, size); throw error }
    }

    init(storage: Storage) throws(CompiledRuleListError) {
        self.storage = storage
        switch storage {
        case .mapped(let p, let n):
            words = UnsafeBufferPointer(start: p.assumingMemoryBound(to: UInt32.self), count: n / 4)
        case .owned(let p, let n):
            words = UnsafeBufferPointer(start: p, count: n)
        }
        let w = words
        guard w.count >= ContentRuleListCompiler.headerWords, w[0] == ContentRuleListCompiler.magic else {
            throw .notACompiledRuleList
        }
        guard w[1] == ContentRuleListCompiler.formatVersion else {
            throw .outdatedVersion(found: w[1], expected: ContentRuleListCompiler.formatVersion)
        }
        guard Int(w[2]) == w.count else { throw .damaged("length \(w.count * 4) bytes, header says \(Int(w[2]) * 4)") }
        guard ContentRuleListCompiler.checksum(w) == w[3] else { throw .damaged("checksum mismatch") }
        let ruleCount = Int(w[4])
        let locationCount = Int(w[5])
        self.ruleCount = ruleCount
        self.locationCount = locationCount
        let rulesOffset = Int(w[6]), actionsOffset = Int(w[7]), directoryOffset = Int(w[8])
        guard rulesOffset + 4 * ruleCount <= w.count, actionsOffset + 2 * locationCount <= w.count,
              directoryOffset < w.count, let base = w.baseAddress else { throw .damaged("section out of range") }
        let rules = base + rulesOffset
        let actions = base + actionsOffset
        self.rules = rules
        self.actions = actions
        func string(at offset: UInt32) throws(CompiledRuleListError) -> String {
            let o = Int(offset)
            guard o > 0, o < w.count else { throw .damaged("string out of range") }
            let length = Int(w[o])
            guard o + 1 + (length + 3) / 4 <= w.count else { throw .damaged("string out of range") }
            let raw = UnsafeRawPointer(base + o + 1).assumingMemoryBound(to: UInt8.self)
            return String(decoding: UnsafeBufferPointer(start: raw, count: length), as: UTF8.self)
        }
        func dfa(at offset: UInt32) throws(CompiledRuleListError) {
            let o = Int(offset)
            guard o >= ContentRuleListCompiler.headerWords, o + 2 <= w.count else { throw .damaged("DFA out of range") }
            let length = Int(w[o + 1])
            guard o + length <= w.count,
                  DFABytecode.validate(UnsafeBufferPointer(start: base + o, count: length), ruleCount: ruleCount) else {
                throw .damaged("malformed DFA")
            }
        }
        var p = directoryOffset
        var lists: [[UInt32]] = []
        for _ in 0..<3 {
            guard p < w.count else { throw .damaged("directory out of range") }
            let n = Int(w[p]); p += 1
            guard p + n <= w.count else { throw .damaged("directory out of range") }
            var list: [UInt32] = []
            for i in 0..<n { try dfa(at: w[p + i]); list.append(w[p + i]) }
            p += n
            lists.append(list)
        }
        let urlList = lists[0], topList = lists[1], frameList = lists[2]
        guard p < w.count else { throw .damaged("directory out of range") }
        let domains = Int(w[p])
        if domains != 0 {
            guard DomainConditionTable.validate(w, at: domains, ruleCount: ruleCount) else { throw .damaged("malformed domain table") }
        }
        p += 1
        // The host index: its tails' DFAs (their ids are tail ids), the table, each rule's tail.
        let tailCount = Int(w[12])
        guard p < w.count, p + 1 + Int(w[p]) <= w.count else { throw .damaged("directory out of range") }
        var tails: [UInt32] = []
        for i in 0..<Int(w[p]) {
            let o = Int(w[p + 1 + i])
            guard o >= ContentRuleListCompiler.headerWords, o + 2 <= w.count, o + Int(w[o + 1]) <= w.count,
                  DFABytecode.validate(UnsafeBufferPointer(start: base + o, count: Int(w[o + 1])), ruleCount: tailCount) else {
                throw .damaged("malformed DFA")
            }
            tails.append(UInt32(o))
        }
        p += 1 + Int(w[p])
        // DFAs of the anchored filters after the host prefix (ids are rule ids).
        guard p < w.count, p + 1 + Int(w[p]) <= w.count else { throw .damaged("directory out of range") }
        var hostDFAs: [UInt32] = []
        for i in 0..<Int(w[p]) { try dfa(at: w[p + 1 + i]); hostDFAs.append(w[p + 1 + i]) }
        let hosts = Int(w[10])
        var ruleTails: UnsafePointer<UInt32>? = nil
        if hosts != 0 {
            guard DomainConditionTable.validate(w, at: hosts, ruleCount: ruleCount, tailCount: tailCount),
                  DomainConditionTable.validateFilter(w, table: hosts) else { throw .damaged("malformed host table") }
            let o = Int(w[11])
            guard o >= ContentRuleListCompiler.headerWords, o + ruleCount <= w.count else { throw .damaged("section out of range") }
            for r in 0..<ruleCount where Int(w[o + r] & ~HostIndex.separatorTailBit) > tailCount { throw .damaged("tail out of range") }
            ruleTails = base + o
        }
        var network: [UInt32] = [], css: [UInt32] = []
        var firstIgnore = UInt32.max
        for l in 0..<locationCount {
            guard actions[2 * l] <= 8 else { throw .damaged("unknown action") }
            if actions[2 * l + 1] != 0 { _ = try string(at: actions[2 * l + 1]) }
            if actions[2 * l] == UInt32(RuleAction.ignorePreviousRules.kind) && firstIgnore == .max { firstIgnore = UInt32(l) }
        }
        for r in 0..<ruleCount {
            let info = rules[4 * r + 3]
            guard Int(rules[4 * r]) < locationCount else { throw .damaged("rule action out of range") }
            if rules[4 * r + 2] != 0 { try dfa(at: rules[4 * r + 2]) }
            guard info & ContentRuleListCompiler.infoUniversal != 0 else { continue }
            if info & ContentRuleListCompiler.infoGlobalStyleSheet != 0 { continue }
            if info & ContentRuleListCompiler.infoCSS != 0 { css.append(UInt32(r)) } else { network.append(UInt32(r)) }
        }
        let sheet = w[9] != 0 ? try string(at: w[9]) : nil
        urlDFAs = urlList; topDFAs = topList; frameDFAs = frameList
        domainTable = domains
        tailDFAs = tails
        self.hostDFAs = hostDFAs
        hostTable = hosts
        self.ruleTails = ruleTails
        self.tailCount = tailCount
        firstIgnorePreviousLocation = firstIgnore
        universalNetwork = network
        universalCSS = css
        globalStyleSheet = sheet
    }

    // MARK: - Accessors

    @inline(__always) func location(ofRule r: Int) -> UInt32 { rules[4 * r] }
    @inline(__always) func flags(ofRule r: Int) -> UInt32 { rules[4 * r + 1] }
    @inline(__always) func verifier(ofRule r: Int) -> UInt32 { rules[4 * r + 2] }
    @inline(__always) func info(ofRule r: Int) -> UInt32 { rules[4 * r + 3] }
    @inline(__always) func tail(ofRule r: Int) -> UInt32 { ruleTails?[r] ?? 0 }
    @inline(__always) func kind(atLocation l: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: actions[2 * Int(l)]) }

    func payload(atLocation l: UInt32) -> String {
        let o = Int(actions[2 * Int(l) + 1])
        guard o != 0, let base = words.baseAddress else { return "" }
        let length = Int(words[o])
        let raw = UnsafeRawPointer(base + o + 1).assumingMemoryBound(to: UInt8.self)
        return String(decoding: UnsafeBufferPointer(start: raw, count: length), as: UTF8.self)
    }

    /// The action at a location, as a value.
    public func action(atLocation l: UInt32) -> RuleAction {
        switch kind(atLocation: l) {
        case 0: return .block
        case 1: return .blockCookies
        case 2: return .cssDisplayNone(selector: payload(atLocation: l))
        case 3: return .ignorePreviousRules
        case 4: return .ignoreFollowingRules
        case 5: return .makeHTTPS
        case 6: return .notify(payload(atLocation: l))
        case 7: return ActionCoding.decodeRedirect(payload(atLocation: l)).map(RuleAction.redirect) ?? .block
        default: return ActionCoding.decodeModifyHeaders(payload(atLocation: l)).map(RuleAction.modifyHeaders) ?? .block
        }
    }

    @inline(__always) func dfa(_ offset: UInt32) -> UnsafePointer<UInt32> {
        // Validated when loaded.
        words.baseAddress.unsafelyUnwrapped + Int(offset)
    }

    /// Number of DFAs (url, top URL, frame URL) and of per-rule confirmation DFAs.
    public var dfaCounts: (url: Int, topURL: Int, frameURL: Int, confirmations: Int) {
        var c = 0
        for r in 0..<ruleCount where verifier(ofRule: r) != 0 { c += 1 }
        return (urlDFAs.count, topDFAs.count, frameDFAs.count, c)
    }
}
