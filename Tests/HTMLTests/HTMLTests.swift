import DOM
import HTML
import XCTest

final class HTMLTests: XCTestCase {
    func dump(_ html: String) -> String {
        TreeDump.dump(childrenOf: HTMLParser.parseDocument(html))
    }

    func testSimpleDocument() {
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
}
