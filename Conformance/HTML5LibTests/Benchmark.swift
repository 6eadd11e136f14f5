import DOM
import Foundation
import HTML

/// A synthetic page of `sizeMB` megabytes: nested blocks, tables, links, inline formatting,
/// entities, comments, scripts and styles, repeated; parsed `repeatCount` times.
func runBenchmark(sizeMB: Int, repeatCount: Int) {
    let block = """
    <div class="article" id="a{N}"><h2>Heading {N} &amp; more</h2>
    <p>Some <b>bold</b>, <i>italic</i> and <a href="/link?x=1&amp;y={N}">linked</a> text &mdash; with&nbsp;entities &#x41;&#66;.
    <p>Unclosed paragraph with <span class=x>spans</span> <em>and <strong>nesting</strong></em>.</p>
    <ul><li>one<li>two<li>three <code>code()</code></ul>
    <table class="data"><tr><th>Name<th>Value</tr><tr><td>alpha<td>1</tr><tr><td>beta<td>2</td></tr></table>
    <!-- a comment -->
    <script>var x = {N}; if (x < 10 && x > 2) { console.log("</div>"); }</script>
    <style>.article { color: red; }</style>
    <img src="/img/{N}.png" alt="image {N}"><br><input type=text name=q value="search">
    <svg width="10" height="10"><circle cx="5" cy="5" r="4" viewBox="0 0 10 10"/></svg>
    </div>

    """
    var page: [UInt8] = Array("<!DOCTYPE html><html><head><title>Bench</title></head><body>\n".utf8)
    let target = sizeMB * 1_000_000
    var n = 0
    while page.count < target {
        page += Array(block.replacingOccurrences(of: "{N}", with: String(n)).utf8)
        n += 1
    }
    page += Array("</body></html>\n".utf8)
    say(String(format: "synthetic page: %.1f MB, %d blocks", Double(page.count) / 1_000_000, n))
    benchmarkParse(page, repeatCount: repeatCount)

    // Deep nesting: 100,000 unclosed elements of each kind parse and free without recursion.
    for tag in ["div", "b", "table", "svg", "template", "a", "p><span"] {
        let deep = Array(String(repeating: "<\(tag)>", count: 100_000).utf8)
        let t0 = now()
        let r = HTMLParser.parseDocument(deep)
        _ = r
        say(String(format: "100,000 nested <%@>: %.3f s", tag, now() - t0))
    }
    // Patterns that are quadratic in a naive parser (duplicate checks, Noah's Ark, the
    // adoption agency and foster parenting on deep stacks).
    let hostile: [(String, String)] = [
        ("one tag with 100,000 attributes", "<b " + (0..<100_000).map { "a\($0)=1" }.joined(separator: " ") + ">"),
        ("100,000 <b id=N>", (0..<100_000).map { "<b id=\($0)>" }.joined()),
        ("30,000 <b id=N>x</p>", (0..<30_000).map { "<b id=\($0)>x</p>" }.joined()),
        ("<table> then 30,000 <b id=N>x", "<table>" + (0..<30_000).map { "<b id=\($0)>x" }.joined()),
        ("100,000 <span>, 100,000 </x>", String(repeating: "<span>", count: 100_000) + String(repeating: "</x>", count: 100_000)),
        ("<svg>, 100,000 <g>, 100,000 </x>", "<svg>" + String(repeating: "<g>", count: 100_000) + String(repeating: "</x>", count: 100_000)),
        ("30,000 <div><b id=N>, 30,000 </b>", (0..<30_000).map { "<div><b id=\($0)>" }.joined() + String(repeating: "</b>", count: 30_000)),
    ]
    for (name, html) in hostile {
        let t0 = now()
        let r = HTMLParser.parseDocument(Array(html.utf8))
        _ = r
        say(String(format: "%@: %.3f s", name, now() - t0))
    }
}

/// Parses `page` `repeatCount` times; prints time, MB/s, node count, maximum RSS.
func benchmarkParse(_ page: [UInt8], repeatCount: Int) {
    let mb = Double(page.count) / 1_000_000
    var best = Double.infinity
    var bestCPU = Double.infinity
    for _ in 0..<repeatCount {
        let c0 = cpuTime()
        let t0 = now()
        var result: HTMLParser.Result? = HTMLParser.parseDocument(page)
        let t1 = now()
        let c1 = cpuTime()
        best = min(best, t1 - t0)
        bestCPU = min(bestCPU, c1 - c0)
        var count = 0
        result!.document.forEachDescendant { _ in count += 1 }
        let errors = result!.errorCount
        let c2 = cpuTime()
        result = nil
        let freeTime = cpuTime() - c2
        say(String(format: "parse: %.3f s wall, %.3f s CPU (%.1f MB/s CPU), %d nodes, %d parse errors; freeing the tree %.3f s CPU",
                   t1 - t0, c1 - c0, mb / (c1 - c0), count, errors, freeTime))
    }
    say(String(format: "best: %.1f MB/s wall, %.1f MB/s CPU", mb / best, mb / bestCPU))
    // The tokenizer alone (tokens made and dropped), for where the time goes.
    let c0 = cpuTime()
    var tokenizer = Tokenizer(input: InputStream.preprocess(page))
    var tokens = 0
    while tokenizer.next() != .endOfFile { tokens += 1 }
    let c1 = cpuTime()
    say(String(format: "tokenizer alone: %.3f s CPU (%.1f MB/s), %d tokens", c1 - c0, mb / (c1 - c0), tokens))
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    say("max RSS: \(usage.ru_maxrss / 1024) MB")
}

/// Prints and flushes (the benchmark's lines appear as they happen, also into a pipe).
func say(_ s: String) {
    print(s)
    fflush(nil)
}

/// CPU time of this process (user + system), seconds: the machine is shared, wall time is noisy.
func cpuTime() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
