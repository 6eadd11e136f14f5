import Testing
@testable import WebURL

@Test func basic() { #expect(WebURL("https://a.b/c")?.href == "https://a.b/c") }
