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
    let mb = Double(page.count) / 1_000_000
    say(String(format: "synthetic page: %.1f MB, %d blocks", mb, n))
    var best = Double.infinity
    for _ in 0..<repeatCount {
        let t0 = now()
        let result = HTMLParser.parseDocument(page)
        let t1 = now()
        best = min(best, t1 - t0)
        var count = 0
        result.document.forEachDescendant { _ in count += 1 }
        say(String(format: "parse: %.3f s (%.1f MB/s), %d nodes, %d parse errors", t1 - t0, mb / (t1 - t0), count, result.errorCount))
    }
    say(String(format: "best: %.1f MB/s", mb / best))
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    say("max RSS: \(usage.ru_maxrss / 1024) MB")

    // Deep nesting: 100,000 unclosed elements of each kind parse and free without recursion.
    for tag in ["div", "b", "table", "svg", "template"] {
        let deep = Array(String(repeating: "<\(tag)>", count: 100_000).utf8)
        let t0 = now()
        let r = HTMLParser.parseDocument(deep)
        _ = r
        say(String(format: "100,000 nested <%@>: %.3f s", tag, now() - t0))
    }
}

/// Prints and flushes (the benchmark's lines appear as they happen, also into a pipe).
func say(_ s: String) {
    print(s)
    fflush(nil)
}
