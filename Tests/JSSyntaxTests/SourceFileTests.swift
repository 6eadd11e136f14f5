import Testing
@testable import JSSyntax

@Test func lineAndColumn() {
    let f = SourceFile(name: "t.js", text: "a\nbc\r\nd\u{2028}é x")
    #expect(f.position(of: 0) == (1, 1))
    #expect(f.position(of: 3) == (2, 2))
    #expect(f.position(of: 6) == (3, 1))
    #expect(f.lineText(2) == "bc")
    #expect(f.position(of: 13) == (4, 3))
}
