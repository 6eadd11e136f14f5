import Testing
import DOM
import EngineIPC
import HTML
@testable import WebContentCore

/// The DOM bindings in-process (no lockdown): a page's scripts against the real tree.
@Suite struct DOMBindingsTests {
    /// Parses `html`, runs its scripts, and returns the runner (its context evaluates more).
    func page(_ html: String, url: String = "http://example.test/dir/page.html") -> (ScriptRunner, Document) {
        let runner = ScriptRunner()
        let document = HTMLParser.parseDocument(html, scripting: true)
        runner.startPage(document, url: url)
        runner.runScripts(fetch: { _ in .failure(.other("no network in this test")) })
        return (runner, document)
    }

    func eval(_ runner: ScriptRunner, _ code: String) -> String {
        let v = runner.context.evaluateScript(code)
        if v == nil { return "threw: \(runner.context.exception?.description ?? "")" }
        return v!.toString()
    }

    @Test func documentAndNodes() {
        let (r, _) = page("<!doctype html><title> A  title </title><body><p id=a class='x y'>one <b>two</b></p><!--c--></body>")
        #expect(eval(r, "document.title") == "A title")
        #expect(eval(r, "document.doctype.name + '|' + document.doctype.publicId + '|' + document.doctype.nodeType") == "html||10")
        #expect(eval(r, "document.getElementById('a') === document.querySelector('p.x.y')") == "true")
        #expect(eval(r, "var p = document.body.firstChild; [p.nodeType, p.nodeName, p.localName, p.namespaceURI].join()")
            == "1,P,p,http://www.w3.org/1999/xhtml")
        #expect(eval(r, "p.firstChild.data + '|' + p.firstChild.nodeName + '|' + p.lastChild.textContent") == "one |#text|two")
        #expect(eval(r, "p.childNodes.length + ' ' + (p.childNodes[1] === p.lastChild) + ' ' + p.nextSibling.nodeType") == "2 true 8")
        #expect(eval(r, "p.parentNode === document.body && document.body.parentNode === document.documentElement") == "true")
        #expect(eval(r, "p instanceof HTMLElement && p instanceof Element && p instanceof Node && p instanceof EventTarget") == "true")
        #expect(eval(r, "try { new Node(); 'made' } catch (e) { e.constructor.name }") == "TypeError")
    }

    @Test func treeMutationAndSerialization() {
        let (r, d) = page("<body><ul id=l><li>1</li></ul></body>")
        #expect(eval(r, """
            var l = document.getElementById('l');
            var a = document.createElement('LI'); a.textContent = '0';
            l.insertBefore(a, l.firstChild);
            var b = document.createElement('li'); b.appendChild(document.createTextNode('2')); l.appendChild(b);
            var c = document.createElement('li'); c.textContent = 'two'; l.replaceChild(c, b);
            l.removeChild(a);
            l.innerHTML
            """) == "<li>1</li><li>two</li>")
        #expect(eval(r, "try { l.appendChild(document.body); 'no' } catch (e) { e.message }").hasPrefix("HierarchyRequestError"))
        #expect(eval(r, "try { l.removeChild(document.body); 'no' } catch (e) { e.message }").hasPrefix("NotFoundError"))
        #expect(eval(r, "l.innerHTML = '<li class=n>a</li><li>b<td>x</li>'; l.children.length + ' ' + l.firstChild.className") == "2 n")
        #expect(HTMLSerializer.innerHTML(d.documentElement!) .contains("<li class=\"n\">a</li><li>bx</li>"))
        #expect(eval(r, "document.body.outerHTML.slice(0, 16)") == "<body><ul id=\"l\"")
        #expect(r.bridge?.dirty == true)
    }

    @Test func attributesClassListStyleTemplate() {
        let (r, _) = page("<body><div id=d class='a b' style='color: red'></div><template id=t><i>x</i></template></body>")
        #expect(eval(r, "var d = document.getElementById('d'); d.classList.add('c'); d.classList.remove('a'); d.className") == "b c")
        #expect(eval(r, "d.classList.toggle('b') + ' ' + d.classList.contains('b') + ' ' + d.classList.length") == "false false 1")
        #expect(eval(r, "d.setAttribute('Data-X', '1'); d.getAttribute('data-x') + ' ' + d.hasAttribute('DATA-X')") == "1 true")
        #expect(eval(r, "[...d.attributes].map(a => a.name + '=' + a.value + ':' + a.namespaceURI).join(' ')")
            == "id=d:null class=c:null style=color: red:null data-x=1:null")
        #expect(eval(r, "d.style.color + '|' + d.style.backgroundColor") == "red|")
        #expect(eval(r, "d.style.backgroundColor = 'blue'; d.getAttribute('style')") == "color: red; background-color: blue;")
        #expect(eval(r, "var t = document.getElementById('t'); t.content.nodeType + ' ' + t.content.firstChild.nodeName + ' ' + t.childNodes.length")
            == "11 I 0")
        #expect(eval(r, "document.body.appendChild(t.content.cloneNode(true)); document.querySelectorAll('body > i').length") == "1")
    }

    @Test func selectors() {
        let (r, _) = page("<body><div id=a><p class=x>1</p><p>2</p><span lang=en-US>3</span></div><p>4</p></body>")
        #expect(eval(r, "document.querySelectorAll('#a > p').length") == "2")
        #expect(eval(r, "document.querySelectorAll('div p:first-child, span[lang|=en]').length") == "2")
        #expect(eval(r, "document.querySelector('p:not(.x)').textContent") == "2")
        #expect(eval(r, "document.querySelector('p.x + p').textContent + document.querySelector('div ~ p').textContent") == "24")
        #expect(eval(r, "document.querySelectorAll('div > :nth-child(2n+1)').length + ' ' + document.querySelectorAll('div > :nth-last-child(1)').length") == "2 1")
        #expect(eval(r, "try { document.querySelector('p[') } catch (e) { e.message.slice(0, 11) }") == "SyntaxError")
        #expect(eval(r, "document.querySelector('span').closest('div').id + document.querySelector('p').matches('.x')") == "atrue")
    }

    @Test func eventsAndTimers() {
        let (r, _) = page("""
            <body><div id=o><button id=b onclick="log.push('attr')">x</button></div>
            <script>
            var log = [];
            document.addEventListener('DOMContentLoaded', () => log.push('DCL:' + document.readyState));
            window.addEventListener('load', () => log.push('load:' + document.readyState));
            var o = document.getElementById('o'), b = document.getElementById('b');
            o.addEventListener('click', e => log.push('capture:' + e.eventPhase), true);
            o.addEventListener('click', e => log.push('bubble:' + e.eventPhase + ':' + (e.target === b)));
            b.addEventListener('click', function (e) { log.push('target:' + (this === b)); }, { once: true });
            setTimeout(() => log.push('timer'), 0);
            </script></body>
            """)
        #expect(eval(r, "log.join()") == "DCL:interactive,load:complete")
        #expect(eval(r, "b.click(); log.join()") == "DCL:interactive,load:complete,capture:1,attr,target:true,bubble:3:true")
        #expect(eval(r, "log = []; b.click(); log.join()") == "capture:1,attr,bubble:3:true")
        #expect(eval(r, "log = []; var e = new CustomEvent('x', {detail: 5}); o.addEventListener('x', e => { log.push(e.detail); e.stopPropagation(); }); o.dispatchEvent(e); log.join()") == "5")
        _ = eval(r, "log = []")
        _ = r.runTimers()
        #expect(eval(r, "log.join()") == "timer")
        #expect(r.runTimers() == nil)
    }

    @Test func linkClickNavigates() {
        let (r, _) = page("<body><a id=a href='../other.html?q'>go</a><a id=p href=x>stay</a></body>")
        _ = eval(r, "document.getElementById('p').addEventListener('click', e => e.preventDefault())")
        #expect(eval(r, "document.getElementById('a').href") == "http://example.test/other.html?q")
        _ = r.command("click", [eval(r, "'x'")])  // a bad reference: an error answer, no navigation
        #expect(r.pendingNavigation == nil)
        _ = eval(r, "document.getElementById('p').click()")
        #expect(r.pendingNavigation == nil)
        _ = eval(r, "document.getElementById('a').click()")
        #expect(r.pendingNavigation == "http://example.test/other.html?q")
    }

    @Test func insertedScriptsRunOnce() {
        let (r, _) = page("""
            <body><script>
            var log = [];
            var s = document.createElement('script');
            s.textContent = 'log.push("inline:" + (document.currentScript === s))';
            document.body.appendChild(s);
            document.body.appendChild(s);  // moving a started script does not run it again
            document.body.insertAdjacentHTML('beforeend', '<script>log.push("innerHTML")<\\/script>');
            var frag = document.createDocumentFragment(), t = document.createElement('script');
            t.text = 'log.push("fragment")'; frag.appendChild(t);
            var detached = document.createElement('div'); detached.appendChild(frag);  // not connected: no run
            log.push('before');
            document.body.appendChild(detached);
            var e = document.createElement('script'); e.src = 'x.js';
            e.onerror = () => log.push('error event'); document.head.appendChild(e);
            </script></body>
            """)
        #expect(eval(r, "log.join()") == "inline:true,before,fragment,error event")
    }

    @Test func computedStyle() {
        let (r, _) = page("""
            <style>p { color: #00ff00; margin: 2px 3px } .big { font-size: 2em } #h { display: none }</style>
            <body style="font-family: monospace"><div class=big><p id=p style="font-weight: bold">x</p></div><p id=h>h</p>
            """)
        #expect(eval(r, "var s = getComputedStyle(document.getElementById('p')); [s.color, s.fontSize, s.fontWeight, s.marginLeft, s['margin-top'], s.display, s.fontFamily].join('|')")
            == "rgb(0, 255, 0)|32px|700|3px|2px|block|monospace")
        #expect(eval(r, "getComputedStyle(document.getElementById('h')).display + getComputedStyle(document.body).getPropertyValue('background-color')")
            == "nonergba(0, 0, 0, 0)")
        #expect(eval(r, "document.getElementById('p').style.color = 'red'; getComputedStyle(document.getElementById('p')).color") == "rgb(255, 0, 0)")
    }

    @Test func locationSetterNavigates() {
        let (r, _) = page("<body></body>")
        _ = eval(r, "location.href = 'next.html#x'")
        #expect(r.pendingNavigation == "http://example.test/dir/next.html#x")
        _ = eval(r, "window.location = '/top'")
        #expect(r.pendingNavigation == "http://example.test/top")
        #expect(eval(r, "location.pathname + location.search + '|' + location.host") == "/dir/page.html|example.test")
    }

    @Test func webDriverCommands() {
        let (r, _) = page("<title>T</title><body><p id=a>Hello <b>world</b></p></body>")
        let found = r.command("find", ["css selector", "#a"])
        #expect(found.hasPrefix(#"{"value":[{"element-6066-11e4-a52e-4f735466cecf":""#))
        let reference = String(found.split(separator: "\"")[5])
        #expect(r.command("text", [reference]) == #"{"value":"Hello world"}"#)
        #expect(r.command("execute", ["return [arguments[0].id, 1.5, null, {a: true}]", #"[{"element-6066-11e4-a52e-4f735466cecf":"\#(reference)"}]"#])
            == #"{"value":["a",1.5,null,{"a":true}]}"#)
        #expect(r.command("execute", ["throw new Error('x')", "[]"]).hasPrefix(#"{"error":"javascript error""#))
        #expect(r.command("text", ["1-2-3"]).hasPrefix(#"{"error":"stale element reference""#))
        #expect(r.command("find", ["css selector", "p["]).hasPrefix(#"{"error":"invalid selector""#))
    }
}

import WebDriver

@Suite struct WebDriverJSONTests {
    @Test func parsesAndSerializes() throws {
        let text = #"{"a":[1,2.5,-3e2,true,false,null],"s":"q\"\\\n\u00e9\ud83d\ude00","o":{}}"#
        let v = try JSON.parse(text)
        #expect(v["a"] == .array([.number(1), .number(2.5), .number(-300), .bool(true), .bool(false), .null]))
        #expect(v["s"]?.string == "q\"\\\n\u{e9}\u{1F600}")
        #expect(try JSON.parse(v.serialized) == v)
        for bad in ["", "{", "[1,]", "{\"a\" 1}", "\"\u{01}\"", "tru", "1 2", String(repeating: "[", count: 300)] {
            #expect(throws: JSON.ParseError.self) { try JSON.parse(bad) }
        }
    }
}
