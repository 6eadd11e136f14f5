import Testing
@testable import Test262Support

@Suite struct Frontmatter {
    @Test func inlineListsAndFlowMapping() {
        let m = parseMetadata(Array("""
            // Copyright
            /*---
            description: x
            includes: [propertyHelper.js, compareArray.js]
            flags: [onlyStrict, async]
            features: [Symbol.iterator]
            negative: {phase: parse, type: SyntaxError}
            ---*/
            $DONOTEVALUATE();
            """.utf8))
        #expect(m.hasFrontmatter)
        #expect(m.includes == ["propertyHelper.js", "compareArray.js"])
        #expect(m.flags == ["onlyStrict", "async"])
        #expect(m.features == ["Symbol.iterator"])
        #expect(m.negativePhase == "parse" && m.negativeType == "SyntaxError")
    }

    @Test func blockListsAndBlockMapping() {
        let m = parseMetadata(Array("""
            /*---
            info: |
              flags: [raw]
              includes: [nope.js]
            includes:
              - a.js   # a comment
              - 'b.js'
            flags:
              - noStrict
            negative:
              phase: runtime
              type: ReferenceError
            ---*/
            """.utf8))
        #expect(m.includes == ["a.js", "b.js"])
        #expect(m.flags == ["noStrict"])
        #expect(m.negativePhase == "runtime" && m.negativeType == "ReferenceError")
    }

    @Test func noFrontmatter() {
        let m = parseMetadata(Array("var x = 1;".utf8))
        #expect(!m.hasFrontmatter && m.flags.isEmpty && m.includes.isEmpty && m.negativePhase == nil)
    }
}

@Suite struct Directories {
    @Test(arguments: [
        ("built-ins/Array/prototype/map/x.js", 1, "built-ins"),
        ("built-ins/Array/prototype/map/x.js", 2, "built-ins/Array"),
        ("language/expressions/class/a.js", 2, "language/expressions"),
        ("language/a.js", 2, "language"),
        ("a.js", 1, "a.js"),
    ])
    func prefix(path: String, depth: Int, expected: String) {
        #expect(directory(path, depth: depth) == expected)
    }

    @Test func topDirectoryIsTwoLevels() {
        #expect(topDirectory("built-ins/RegExp/x/y.js") == "built-ins/RegExp")
    }
}
