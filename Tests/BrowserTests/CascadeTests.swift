import Testing
import DisplayList
import HTML
import Layout
import WebContentCore

/// `<style>` sheets and `style=""` through the cascade into the display list.
@Suite struct CascadeTests {
    func layout(_ html: String, width: Float = 400) throws -> DisplayList {
        try LayoutEngine(viewportWidth: width, viewportHeight: 300).layout(HTMLParser.parseDocument(html), measurer: FixedMeasurer()).list
    }

    func texts(_ list: DisplayList) -> [TextRun] {
        list.items.compactMap { if case .text(let run) = $0 { return run } else { return nil } }
    }

    func fills(_ list: DisplayList) -> [(Rect, Color)] {
        list.items.compactMap { if case .fill(let r, let c) = $0 { return (r, c) } else { return nil } }
    }

    @Test func selectorsSpecificityAndOrder() throws {
        let html = """
            <style>
            /* comments are skipped */
            p { color: red; font-size: 20px }
            .note { color: blue }
            #n { font-weight: bold }
            p.note { color: green }
            @media print { p { color: yellow } }
            @media screen { .big { font-size: 2em } }
            div > span + em { font-style: italic; font-family: monospace }
            </style>
            <p>plain</p><p class=note id=n>note</p><p class=note style="color: #123456">inline</p>
            <div><span>s</span><em>e</em></div><p class=big>big</p>
            """
        let runs = texts(try layout(html))
        let by = Dictionary(runs.map { ($0.text, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(by["plain"]?.color == Color(red: 255, green: 0, blue: 0))
        #expect(by["plain"]?.font.size == 20)
        #expect(by["note"]?.color == Color(red: 0, green: 128, blue: 0))
        #expect(by["note"]?.font.bold == true)
        #expect(by["inline"]?.color == Color(red: 0x12, green: 0x34, blue: 0x56))
        #expect(by["e"]?.font.italic == true && by["e"]?.font.family == .monospace)
        #expect(by["s"]?.font.italic == false)
        #expect(by["big"]?.font.size == 32)  // 2em of the body's 16px (font-size em is the parent's)
    }

    @Test func importantDisplayAndInheritance() throws {
        let html = """
            <style>.hide { display: none } span { display: block } body { color: #0000ff !important }
            li { display: inline }</style>
            <body style="color: red"><p class=hide>gone</p><p>a<span>b</span>c</p><ul><li>x</li> <li>y</li></ul></body>
            """
        let runs = texts(try layout(html))
        #expect(!runs.contains { $0.text == "gone" })
        #expect(runs.allSatisfy { $0.color == Color(red: 0, green: 0, blue: 255) })
        let a = runs.first { $0.text == "a" }!, b = runs.first { $0.text == "b" }!
        #expect(b.baseline > a.baseline)  // the span is a block
        let x = runs.first { $0.text.hasPrefix("x") }!
        #expect(x.text == "x y")  // inline list items share a line
    }

    @Test func boxModel() throws {
        let html = """
            <style>
            body { margin: 0; background: #eeeeee }
            .box { width: 100px; padding: 10px 20px; border: 2px solid #ff0000; margin: 5px auto; background-color: #00ff00 }
            </style>
            <div class=box>in</div>
            """
        let list = try layout(html)
        #expect(list.background == Color(red: 0xee, green: 0xee, blue: 0xee))
        let green = try #require(fills(list).first { $0.1 == Color(red: 0, green: 255, blue: 0) })
        // Border box: 100 + 2 * 20 + 2 * 2 = 144 wide, centered in 400.
        #expect(green.0.width == 144 && green.0.x == 128)
        #expect(green.0.y == 5)
        let run = try #require(texts(list).first { $0.text == "in" })
        #expect(run.x == 128 + 2 + 20)
        let border = list.items.compactMap { if case .border(let r, let w, let c) = $0 { return (r, w, c) } else { return nil } }
        #expect(border.count == 1 && border[0].1 == [2, 2, 2, 2] && border[0].2 == Color(red: 255, green: 0, blue: 0))
        #expect(border[0].0 == green.0)
    }
}

extension CascadeTests {
    @Test func functionalColorsInShorthands() throws {
        let list = try layout("<div style='border: 1px solid rgb(0, 0, 255); background: url(x.png) rgb(1, 2, 3)'>x</div>")
        let border = list.items.compactMap { if case .border(_, _, let c) = $0 { return c } else { return nil } }
        #expect(border == [Color(red: 0, green: 0, blue: 255)])
        #expect(fills(list).contains { $0.1 == Color(red: 1, green: 2, blue: 3) })
    }
}

extension CascadeTests {
    @Test func textAlign() throws {
        // 8 px a character: "abcd" is 32 px; the body's content box is 8...392.
        let runs = texts(try layout("<style>.r { text-align: right } .c { text-align: center }</style><p class=r>abcd</p><p class=c>abcd</p><p>abcd"))
        let expected: [Float] = [360, 184, 8]  // 392 - 32; 8 + (384 - 32) / 2; 8
        #expect(runs.map(\.x) == expected)
    }
}
