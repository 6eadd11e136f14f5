import Testing
import JSSyntax
@testable import JSRuntime

/// Evaluates `source` in a fresh realm and returns the completion value as a Swift string.
private func eval(_ source: String, stress: Bool = false) throws -> String {
    let rt = Runtime()
    try rt.initializeRealm()
    rt.heap.gcStress = stress
    let v = try rt.evaluateScript(SourceFile(name: "test.js", text: source))
    return try rt.flatten(try rt.toString(v)).swiftString
}

@Suite struct NumberFormatting {
    @Test func shortestToString() {
        #expect(NumberConversions.toString(0.1) == "0.1")
        #expect(NumberConversions.toString(1e21) == "1e+21")
        #expect(NumberConversions.toString(1e-7) == "1e-7")
        #expect(NumberConversions.toString(123456789012345683968) == "123456789012345680000")
        #expect(NumberConversions.toString(Double.leastNonzeroMagnitude) == "5e-324")
        #expect(NumberConversions.toString(-1.5) == "-1.5")
        #expect(NumberConversions.toString(0.000001) == "0.000001")
    }

    @Test func fixedExponentialPrecision() {
        #expect(NumberConversions.toFixed(1.005, 2) == "1.00")
        #expect(NumberConversions.toFixed(1.45, 1) == "1.4")
        #expect(NumberConversions.toFixed(-0.0000001, 2) == "-0.00")
        #expect(NumberConversions.toFixed(1000000000000000128, 0) == "1000000000000000128")
        #expect(NumberConversions.toExponential(123.456, 0) == "1e+2")
        #expect(NumberConversions.toExponential(0, nil) == "0e+0")
        #expect(NumberConversions.toPrecision(0.1, 21) == "0.100000000000000005551")
        #expect(NumberConversions.toPrecision(123.456, 1) == "1e+2")
    }

    @Test func radix() {
        #expect(NumberConversions.toRadixString(255.5, 16) == "ff.8")
        #expect(NumberConversions.toRadixString(0.1, 3) == "0.0022002200220022002200220022002201")
        #expect(NumberConversions.toRadixString(-255, 2) == "-11111111")
    }

    @Test func stringToNumber() {
        func n(_ s: String) -> Double { Array(s.utf16).withUnsafeBufferPointer { NumberConversions.stringToNumber($0) } }
        #expect(n("  0x1F ") == 31)
        #expect(n("0b101") == 5)
        #expect(n("-Infinity") == -.infinity)
        #expect(n("") == 0)
        #expect(n("1e").isNaN && n("inf").isNaN && n("-0x1").isNaN && n("1_0").isNaN)
        #expect(n(".5") == 0.5 && n("5.") == 5)
        #expect(n("0x1ffffffffffffffff") == 36893488147419103232)
    }
}

@Suite struct BuiltinsB {
    @Test func strings() throws {
        #expect(try eval("'straße'.toUpperCase()") == "STRASSE")
        #expect(try eval("'ΑΣ Β'.toLowerCase()") == "ας β")
        #expect(try eval("'a,b,,c'.split(',', 3).join('|')") == "a|b|")
        #expect(try eval("'abcabc'.replace('b', '[$&$`$\\'$$]')") == "a[bacabc$]cabc")
        #expect(try eval("'aaa'.replaceAll('a', function(m, p) { return p; })") == "012")
        #expect(try eval("'abc'.padStart(6, '12') + 'abc'.padEnd(7, 'xy')") == "121abcabcxyxy")
        #expect(try eval("' \\t\\n x \\u00a0\\ufeff'.trim()") == "x")
        #expect(try eval("'\\uD83D' + '\\uDE00' === '\\uD83D\\uDE00'") == "true")
        #expect(try eval("'e\\u0301'.normalize().length") == "1")
    }

    @Test func jsonRoundTrip() throws {
        #expect(try eval("JSON.stringify({a: [1, 'x', null, undefined], b: -0, c: NaN})") == "{\"a\":[1,\"x\",null,null],\"b\":0,\"c\":null}")
        #expect(try eval("JSON.stringify([1, {a: 2}], null, 1)") == "[\n 1,\n {\n  \"a\": 2\n }\n]")
        #expect(try eval("JSON.stringify('\\uD800')") == "\"\\ud800\"")
        #expect(try eval("JSON.parse('{\"a\":[1,2.5,{\"b\":\"\\\\u0041\"}]}').a[2].b") == "A")
        #expect(try eval("try { JSON.parse('[1,]') } catch (e) { e.name }") == "SyntaxError")
        #expect(try eval("var c = {}; c.c = c; try { JSON.stringify(c) } catch (e) { e.name }") == "TypeError")
    }

    @Test func dates() throws {
        #expect(try eval("new Date(Date.UTC(2020, 1, 29, 13, 45, 30, 123)).toISOString()") == "2020-02-29T13:45:30.123Z")
        #expect(try eval("Date.parse('2020-01-01T10:20:30.5+02:00')") == "1577866830500")
        #expect(try eval("new Date(0).toUTCString()") == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(try eval("String(new Date(NaN))") == "Invalid Date")
        #expect(try eval("try { new Date(NaN).toISOString() } catch (e) { e.name }") == "RangeError")
        #expect(try eval("var d = new Date(0); d.setUTCFullYear(2000, 1, 29); d.getUTCDate()") == "29")
        #expect(try eval("Date.parse(new Date(86400000).toUTCString())") == "86400000")
    }

    @Test func mathAndNumber() throws {
        #expect(try eval("Math.round(-2.5) + ',' + Math.round(0.49999999999999994) + ',' + Math.max(NaN, 1)") == "-2,0,NaN")
        #expect(try eval("(25).toString(36) + (0.5).toFixed(0) + (1.45).toFixed(1)") == "p11.4")
        #expect(try eval("try { (1).toFixed(101) } catch (e) { e.name }") == "RangeError")
        #expect(try eval("parseInt('  -0x1F') + parseFloat('3.5e1x')") == "4")
    }

    @Test func inspect() throws {
        let rt = Runtime()
        try rt.initializeRealm()
        func show(_ s: String) throws -> String {
            try rt.inspect(try rt.evaluateScript(SourceFile(name: "t.js", text: s)), depth: 0)
        }
        #expect(try show("({a: 'x', b: [1, -0]})") == "{ a: 'x', b: [ 1, -0 ] }")
        #expect(try show("[1,2,3,4,5,6,7]") == "[\n  1, 2, 3, 4,\n  5, 6, 7\n]")
        #expect(try show("var c = {}; c.self = c; c") == "<ref *1> { self: [Circular *1] }")
        #expect(try show("class A { constructor() { this.x = 1 } }; [new A(), A]") == "[ A { x: 1 }, [class A] ]")
        #expect(try show("({a: {b: {c: {d: 1}}}})") == "{ a: { b: { c: [Object] } } }")
    }

    @Test func gcStress() throws {
        let r = try eval("""
            var s = JSON.stringify({a: 'x'.repeat(30), b: [1, 2, {c: 'y'}]});
            var o = JSON.parse(s);
            o.b[2].c + 'abc'.split('').join('-') + 'Hello'.toUpperCase() + new Date(0).toISOString()
            """, stress: true)
        #expect(r == "ya-b-cHELLO1970-01-01T00:00:00.000Z")
    }
}
