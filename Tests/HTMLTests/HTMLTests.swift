import DOM
import HTML
import XCTest

/// Unit tests of the parser and the node tree. Conformance is measured by the
/// html5lib-tests runner (Conformance/HTML5LibTests); these cover the API and hostile input.
final class HTMLTests: XCTestCase {
    func dump(_ html: String) -> String {
        TreeDump.dump(childrenOf: HTMLParser.parseDocument(html))
    }

    func testDocumentWithImpliedElements() {
        XCTAssertEqual(dump("<!DOCTYPE html><p>One<p>Two"), """
        | <!DOCTYPE html>
        | <html>
        |   <head>
        |   <body>
        |     <p>
        |       "One"
        |     <p>
        |       "Two"

        """)
    }

    func testDoctypeAndQuirksMode() {
        let doc = HTMLParser.parseDocument(#"<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd">"#)
        XCTAssertEqual(doc.doctype?.name, "html")
        XCTAssertEqual(doc.doctype?.publicId, "-//W3C//DTD HTML 4.01 Transitional//EN")
        XCTAssertEqual(doc.doctype?.systemId, "http://www.w3.org/TR/html4/loose.dtd")
        XCTAssertEqual(doc.mode, .limitedQuirks)
        XCTAssertEqual(HTMLParser.parseDocument("<p>no doctype").mode, .quirks)
        XCTAssertEqual(HTMLParser.parseDocument("<!doctype html>").mode, .noQuirks)
    }

    func testForeignAttributesAndNames() {
        let doc = HTMLParser.parseDocument(##"<svg viewbox="0 0 1 1" xlink:href="#a"><foreignobject><p>x</p></foreignobject></svg>"##)
        let svg = doc.documentElement!.children[1].firstChild as! Element
        XCTAssertEqual(svg.namespace, .svg)
        XCTAssertEqual(svg.attributes[0].localName, "viewBox")
        XCTAssertEqual(svg.attributes[1].namespace, .xlink)
        XCTAssertEqual(svg.attributes[1].qualifiedName, "xlink:href")
        let fo = svg.firstChild as! Element
        XCTAssertEqual(fo.localName, "foreignObject")
        XCTAssertEqual((fo.firstChild as! Element).namespace, .html)
    }

    func testTemplateContents() {
        let doc = HTMLParser.parseDocument("<template><td>cell</td></template>")
        let template = doc.documentElement!.firstChild!.firstChild as! Element
        XCTAssertTrue(template.isHTML("template"))
        XCTAssertNil(template.firstChild)
        XCTAssertEqual(HTMLSerializer.innerHTML(template), "<td>cell</td>")
    }

    func testFragmentParsingAndInnerHTML() {
        let doc = Document()
        let context = doc.createElement("tr")
        let (fragment, _) = HTMLParser.parseFragment(Array("<td a='1&amp;2'>x&lt;y<td>z".utf8), context: context)
        XCTAssertEqual(HTMLSerializer.innerHTML(fragment), #"<td a="1&amp;2">x&lt;y</td><td>z</td>"#)
        let div = doc.createElement("div")
        let (f2, _) = HTMLParser.parseFragment(Array("<br><script>a<b</script>&nbsp;<!--c-->".utf8), context: div)
        XCTAssertEqual(HTMLSerializer.innerHTML(f2), "<br><script>a<b</script>&nbsp;<!--c-->")
    }

    func testAdoptionAgency() {
        XCTAssertEqual(dump("<b>1<p>2</b>3</p>"), """
        | <html>
        |   <head>
        |   <body>
        |     <b>
        |       "1"
        |     <p>
        |       <b>
        |         "2"
        |       "3"

        """)
    }

    func testCharacterReferencesAndNewlines() {
        let doc = HTMLParser.parseDocument("<p>&amp;&notit;&#x1F600;&#128;\r\n&bogus;</p>")
        let p = doc.documentElement!.children[1].firstChild!
        XCTAssertEqual(p.textContent, "&¬it;😀€\n&bogus;")
    }

    func testInvalidUTF8BecomesReplacementCharacters() {
        let result = HTMLParser.parseDocument([0x3C, 0x70, 0x3E, 0xFF, 0xC3, 0x28, 0x00, 0x41])
        XCTAssertEqual(result.document.documentElement?.textContent, "\u{FFFD}\u{FFFD}(A")
        XCTAssertGreaterThan(result.errorCount, 0)
    }

    func testDeepNestingParsesAndFreesIteratively() {
        for tag in ["div", "table", "svg"] {
            var result: HTMLParser.Result? = HTMLParser.parseDocument(Array(String(repeating: "<\(tag)>", count: 100_000).utf8))
            XCTAssertNotNil(result?.document.documentElement)
            result = nil  // frees a 100,000-deep tree
        }
    }

    func testRandomBytesNeverCrash() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        let alphabet = Array("<>/!-=\"' &#;xabcdefghijklmnopqrstuvwxyz[]?tablerdthscriptmathsvgtemplate\0\n\r\t".utf8)
        for _ in 0..<300 {
            let length = Int(next() % 400)
            var bytes: [UInt8] = []
            for _ in 0..<length {
                let r = next()
                bytes.append(r % 5 == 0 ? UInt8(truncatingIfNeeded: r >> 8) : alphabet[Int(r >> 8) % alphabet.count])
            }
            _ = HTMLParser.parseDocument(bytes)
            _ = HTMLParser.parseFragment(bytes, context: Document().createElement("td"))
        }
    }

    func testOwnerDocument() {
        let doc = HTMLParser.parseDocument("<p>x<template><b>y</b></template>")
        let p = doc.documentElement!.children[1].firstChild as! Element
        XCTAssertTrue(p.ownerDocument === doc && p.firstChild!.ownerDocument === doc)
        let template = p.children[1] as! Element
        XCTAssertTrue(template.templateContents?.firstChild?.ownerDocument === doc)
        let context = doc.createElement("div")
        let (fragment, _) = HTMLParser.parseFragment(Array("<i>z</i>".utf8), context: context)
        XCTAssertTrue(fragment.ownerDocument === doc && fragment.firstChild!.ownerDocument === doc)
        XCTAssertNil(doc.ownerDocument)
    }

    func testTreeMutation() {
        let doc = Document()
        let a = doc.createElement("a"), b = doc.createElement("b"), c = doc.createTextNode("c")
        a.appendChild(c)
        a.insertBefore(b, c)
        XCTAssertTrue(a.firstChild === b && b.nextSibling === c && c.previousSibling === b && a.lastChild === c)
        b.remove()
        XCTAssertTrue(a.firstChild === c && b.parent == nil && b.nextSibling == nil)
        XCTAssertEqual(a.tagName, "A")
    }
}
