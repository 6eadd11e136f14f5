import ContentBlocker
#if canImport(Glibc)
import Glibc
#endif

enum Command {
    static let usage = """
    usage: sable-contentblock eval                       < cases.jsonl   (one JSON case a line)
           sable-contentblock compile LIST.json -o LIST.bin
           sable-contentblock match LIST.bin [--source LIST.json] [--print] [--check] [--twice] [--repeat N] < requests.tsv
    """

    static func run(_ args: [String]) -> Int32 {
        guard args.count >= 2 else { printError(usage); return 2 }
        switch args[1] {
        case "eval": return eval()
        case "compile": return compile(Array(args.dropFirst(2)))
        case "match": return match(Array(args.dropFirst(2)))
        case "-h", "--help", "help": print(usage); return 0
        default: printError(usage); return 2
        }
    }

    static func printError(_ s: String) {
        var line = s + "\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }

    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }

    @inline(__always) static func nanoseconds() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
    }

    /// Resident set size (kB) from /proc/self/status.
    static func rssKB() -> Int {
        guard case .success(let bytes) = ContentRuleListStore.readFile("/proc/self/status") else { return 0 }
        let text = String(decoding: bytes, as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        }
        return 0
    }

    static func eval() -> Int32 {
        while let line = readLine(strippingNewline: true) {
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            print(ContentBlockerEval.evaluate(line: line))
        }
        return 0
    }

    static func compile(_ args: [String]) -> Int32 {
        var input: String?
        var output: String?
        var i = 0
        while i < args.count {
            if args[i] == "-o", i + 1 < args.count { output = args[i + 1]; i += 2; continue }
            input = args[i]; i += 1
        }
        guard let input, let output else { printError(usage); return 2 }
        let start = now()
        let source: [UInt8]
        switch ContentRuleListStore.readFile(input) {
        case .failure(let f): printError("error: \(f.message)"); return 1
        case .success(let b): source = b
        }
        let parseStart = now()
        let parsed = source.withUnsafeBufferPointer { RuleListParser.parse(bytes: $0) }
        let rules: [ContentRule]
        switch parsed {
        case .failure(let e):
            printError("error: \(e.name): \(e.message)")
            return 1
        case .success(let r): rules = r
        }
        let compileStart = now()
        switch ContentRuleListCompiler.compile(rules: rules) {
        case .failure(let e):
            printError("error: \(e.name): \(e.message)")
            return 1
        case .success(let bytes):
            let compileEnd = now()
            if case .failure(let f) = ContentRuleListStore.writeFile(output, bytes) { printError("error: \(f.message)"); return 1 }
            var counts = ""
            if let list = try? CompiledRuleList(bytes: bytes) {
                let c = list.dfaCounts
                counts = ", DFAs: \(c.url) url + \(c.topURL) top-URL + \(c.frameURL) frame-URL, \(c.confirmations) confirmation DFAs"
            }
            print("compiled \(rules.count) rules into \(output): \(bytes.count) bytes\(counts)")
            print(String(format3("parse %.3f s, compile %.3f s, total %.3f s", parseStart - start + (compileStart - parseStart), compileEnd - compileStart, now() - start)))
            return 0
        }
    }

    static func format3(_ f: String, _ a: Double, _ b: Double, _ c: Double) -> String {
        var parts = f.split(separator: "%", omittingEmptySubsequences: false).map(String.init)
        let values = [a, b, c]
        var out = parts.removeFirst()
        for (i, p) in parts.enumerated() {
            out += fixed(values[min(i, 2)], 3) + p.dropFirst(4)
        }
        return out
    }

    static func fixed(_ v: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let r = (v * scale).rounded() / scale
        var s = String(r)
        if let dot = s.firstIndex(of: ".") {
            let decimals = s.distance(from: dot, to: s.endIndex) - 1
            if decimals < digits { s += String(repeating: "0", count: digits - decimals) }
        } else { s += "." + String(repeating: "0", count: digits) }
        return s
    }

    static func match(_ args: [String]) -> Int32 {
        var path: String?
        var source: String?
        var printEach = false
        var repeatCount = 1
        var check = false
        var twice = false
        var i = 0
        while i < args.count {
            switch args[i] {
            case "--source" where i + 1 < args.count: source = args[i + 1]; i += 2
            case "--print": printEach = true; i += 1
            case "--check": check = true; i += 1
            case "--twice": twice = true; i += 1
            case "--repeat" where i + 1 < args.count: repeatCount = max(1, Int(args[i + 1]) ?? 1); i += 2
            default: path = args[i]; i += 1
            }
        }
        guard let path else { printError(usage); return 2 }
        let rssBefore = rssKB()
        let loadStart = now()
        let list: CompiledRuleList
        switch ContentRuleListStore.loadOrCompile(compiledPath: path, sourcePath: source) {
        case .failure(let f): printError("error: \(f.message)"); return 1
        case .success(let r):
            if let why = r.recompiled { printError("note: \(path) refused (\(why.message)); recompiled from \(source ?? "")") }
            list = r.list
        }
        let loadTime = now() - loadStart
        // Read the requests (url, resourceType, mainDocumentURL), header line skipped.
        var rows: [(String, String, String)] = []
        var first = true
        while let line = readLine(strippingNewline: true) {
            if first { first = false; if line.hasPrefix("url\t") { continue } }
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard f.count >= 3 else { continue }
            rows.append((String(f[0]), String(f[1]), String(f[2])))
        }
        let matcher = RuleListMatcher(list)
        var requests: [(url: String, type: UInt32, main: String)] = []
        requests.reserveCapacity(rows.count)
        for row in rows {
            let type = ResourceFlags.requestResourceType(named: row.1) ?? ResourceFlags.other
            requests.append((row.0, type, row.2))
        }
        // Each decision starts from text (the URL, its type, the page's URL), as the
        // networking process has it: the time includes canonicalizing the URL and the
        // first/third-party test. Warm-up passes, then the timed pass; css-display-none is
        // left to the content process.
        for _ in 0..<repeatCount {
            for r in requests {
                matcher.decide(url: r.url, resourceType: r.type, mainDocumentURL: r.main,
                               mainFrameContext: r.type == ResourceFlags.topDocument, networkOnly: true)
            }
        }
        if check {
            // The text path against the ResourceLoad path (RequestURL for every URL).
            let other = RuleListMatcher(list)
            var differ = 0
            for r in requests {
                let valid = matcher.decide(url: r.url, resourceType: r.type, mainDocumentURL: r.main,
                                           mainFrameContext: r.type == ResourceFlags.topDocument, networkOnly: true)
                guard let url = RequestURL(r.url) else { if valid { differ += 1 }; continue }
                other.decide(ResourceLoad(url: url, mainDocumentURL: RequestURL(r.main), resourceType: r.type,
                                          mainFrameContext: r.type == ResourceFlags.topDocument), networkOnly: true)
                if other.result != matcher.result { differ += 1; printError("differs: \(r.url)") }
            }
            print("check: \(differ) of \(requests.count) decisions differ between the text and ResourceLoad paths")
        }
        var times: [UInt64] = []
        times.reserveCapacity(requests.count)
        let candidatesBefore = matcher.candidateCount, confirmationsBefore = matcher.confirmations
        var blocked = 0, cookies = 0, https = 0, other = 0, ignored = 0, invalid = 0
        var samePage: [UInt64] = [], otherPage: [UInt64] = []
        var previousPage = ""
        var out = ""
        for r in requests {
            let t0 = nanoseconds()
            let valid = matcher.decide(url: r.url, resourceType: r.type, mainDocumentURL: r.main,
                                       mainFrameContext: r.type == ResourceFlags.topDocument, networkOnly: true)
            let t1 = nanoseconds()
            guard valid else { invalid += 1; if printEach { out += "invalid-url\t\(r.url)\n" }; continue }
            times.append(t1 - t0)
            // A request of another page than the one before it (a networking process serving
            // several tabs): the page's caches may have to be rebuilt.
            if r.main == previousPage { samePage.append(t1 - t0) } else { otherPage.append(t1 - t0) }
            previousPage = r.main
            let kinds = matcher.resultKinds
            if kinds & 1 != 0 { blocked += 1 }
            if kinds & 2 != 0 { cookies += 1 }
            if kinds & (1 << 5) != 0 { https += 1 }
            if kinds & ~UInt32(0b100011) != 0 { other += 1 }
            if matcher.sawIgnorePreviousRules { ignored += 1 }
            if printEach {
                let names = matcher.result.map { list.action(atLocation: $0).typeName }
                out += (names.isEmpty ? "-" : names.joined(separator: ",")) + "\t" + r.url + "\n"
                if out.utf8.count > 1 << 16 { print(out, terminator: ""); out = "" }
            }
        }
        if printEach { print(out, terminator: "") }
        let candidates = matcher.candidateCount - candidatesBefore, confirmations = matcher.confirmations - confirmationsBefore
        // The same pass again, several times: each request's best time (the decision with
        // its caches warm and no other process in the way), a floor under the figures above.
        var best = [UInt64](repeating: .max, count: requests.count)
        for _ in 0..<5 {
            for (k, r) in requests.enumerated() {
                let t0 = nanoseconds()
                matcher.decide(url: r.url, resourceType: r.type, mainDocumentURL: r.main,
                               mainFrameContext: r.type == ResourceFlags.topDocument, networkOnly: true)
                best[k] = min(best[k], nanoseconds() - t0)
            }
        }
        best.sort()
        if twice {
            // Diagnostic: each request decided twice in a row, the second time with warm caches.
            var first: [UInt64] = [], second: [UInt64] = []
            for r in requests {
                let t0 = nanoseconds()
                matcher.decide(url: r.url, resourceType: r.type, mainDocumentURL: r.main,
                               mainFrameContext: r.type == ResourceFlags.topDocument, networkOnly: true)
                let t1 = nanoseconds()
                matcher.decide(url: r.url, resourceType: r.type, mainDocumentURL: r.main,
                               mainFrameContext: r.type == ResourceFlags.topDocument, networkOnly: true)
                let t2 = nanoseconds()
                first.append(t1 - t0); second.append(t2 - t1)
            }
            first.sort(); second.sort()
            print("twice: first median \(first[first.count / 2]) ns, second (warm) median \(second[second.count / 2]) ns, p90 \(first[first.count * 9 / 10]) / \(second[second.count * 9 / 10])")
        }
        // Overhead of the clock reads themselves.
        var overhead: [UInt64] = []
        for _ in 0..<1000 { let a = nanoseconds(); let b = nanoseconds(); overhead.append(b - a) }
        overhead.sort()
        times.sort()
        func pct(_ p: Double) -> Double { times.isEmpty ? 0 : Double(times[min(times.count - 1, Int(Double(times.count) * p))]) / 1000 }
        let mean = times.isEmpty ? 0 : Double(times.reduce(0, +)) / Double(times.count) / 1000
        let rssAfter = rssKB()
        let perRequest = { (x: Int) in fixed(Double(x) / Double(max(times.count, 1)), 2) }
        var report = ""
        report += "requests: \(rows.count) (\(times.count) decided, \(invalid) invalid URLs), rules: \(list.ruleCount), compiled size: \(list.byteCount) bytes\n"
        report += "blocked: \(blocked), block-cookies: \(cookies), make-https: \(https), other actions: \(other), stopped by ignore-previous-rules: \(ignored)\n"
        report += "decision time (µs): median \(fixed(pct(0.5), 3)), p90 \(fixed(pct(0.9), 3)), p99 \(fixed(pct(0.99), 3)), max \(fixed(pct(1.0), 3)), mean \(fixed(mean, 3)) (from text: URL canonicalized, party, rules; clock read overhead \(overhead[500]) ns, included)\n"
        samePage.sort(); otherPage.sort()
        func pctOf(_ t: [UInt64], _ p: Double) -> String { t.isEmpty ? "-" : fixed(Double(t[min(t.count - 1, Int(Double(t.count) * p))]) / 1000, 3) }
        report += "  same page as the request before (\(samePage.count)): median \(pctOf(samePage, 0.5)), p99 \(pctOf(samePage, 0.99)); another page (\(otherPage.count)): median \(pctOf(otherPage, 0.5)), p99 \(pctOf(otherPage, 0.99))\n"
        report += "best of 5 passes per request (µs): median \(fixed(Double(best[best.count / 2]) / 1000, 3)), p99 \(fixed(Double(best[best.count * 99 / 100]) / 1000, 3))\n"
        report += "per decision: \(perRequest(candidates)) candidate rules from the DFAs and the host index, \(perRequest(confirmations)) confirmation DFAs run\n"
        report += "load time: \(fixed(loadTime * 1000, 3)) ms, RSS: \(rssBefore) kB before loading, \(rssAfter) kB after matching (+\(rssAfter - rssBefore) kB)\n"
        if printEach { printError(report) } else { print(report, terminator: "") }
        return 0
    }
}
