import Testing
import JSSyntax
@testable import JSRuntime

private func evaluate(_ text: String, stepBudget: Int?) throws -> String {
    let rt = Runtime()
    try rt.initializeRealm()
    rt.setStepBudget(stepBudget)
    do throws(JSException) {
        let v = try rt.evaluateScript(SourceFile(name: "budget.js", text: text))
        return try rt.flatten(try rt.toString(v)).swiftString
    } catch {
        return "uncaught: " + ((try? rt.describeForError(error.value)) ?? "?")
    }
}

/// An embedder's step budget (the fuzzers run every input with one) ends every script:
/// loops, and regexp searches whose backtracking is catastrophic, in a catchable RangeError.
@Suite struct StepBudgetTests {
    @Test func anEndlessLoopEndsInARangeError() throws {
        let out = try evaluate("try { for (;;) {} } catch (e) { e.name + ': ' + e.message }", stepBudget: 10_000)
        #expect(out == "RangeError: step budget exhausted")
    }

    /// /(a+)+$/ against "aaa…ab" backtracks 2^n times: with a budget it throws instead of
    /// running for minutes; the budget is shared with the loop steps.
    @Test func catastrophicBacktrackingEndsInARangeError() throws {
        let script = "try { /(a+)+$/.test('a'.repeat(40) + 'b') } catch (e) { e.name + ': ' + e.message }"
        let out = try evaluate(script, stepBudget: 10_000)
        #expect(out == "RangeError: step budget exhausted (in a regular expression)")
    }

    /// Ordinary searches under a budget cost little of it and match as without one.
    @Test func ordinarySearchesMatchUnderABudget() throws {
        let script = "var n = 0; for (var i = 0; i < 200; i++) if (/(\\d+)-(\\d+)/.exec('x 12-345 y')[2] === '345') n++; n"
        #expect(try evaluate(script, stepBudget: 100_000) == "200")
        #expect(try evaluate(script, stepBudget: nil) == "200")
    }

    /// A search's backtracks are taken from the budget: a loop of expensive searches runs
    /// out of steps long before it runs out of iterations.
    @Test func backtracksAreTakenFromTheBudget() throws {
        let script = """
            var i = 0; try { for (; i < 1e9; i++) /(a|b|ab)*c/.test('ab'.repeat(12)) } catch (e) { }
            i < 1e6 ? 'stopped' : 'ran ' + i
            """
        #expect(try evaluate(script, stepBudget: 20_000) == "stopped")
    }
}

/// JSON.parse keeps its open arrays and objects on an explicit stack: any depth parses
/// (as in V8), and malformed input names what was expected where.
@Suite struct JSONParseDepthTests {
    @Test func deeplyNestedArraysAndObjectsParse() throws {
        let script = """
            var n = 200000, a = JSON.parse('['.repeat(n) + ']'.repeat(n)), d = 0;
            while (a.length) { a = a[0]; d++ }
            var o = JSON.parse('{"a":'.repeat(n) + '1' + '}'.repeat(n)), e = 0;
            while (typeof o === 'object') { o = o.a; e++ }
            d + ' ' + e
            """
        #expect(try evaluate(script, stepBudget: nil) == "199999 200000")
    }

    @Test func malformedInputNamesWhatWasExpected() throws {
        let cases: [(String, String)] = [
            ("[1 2]", "Expected ',' or ']' after array element in JSON at position 3"),
            ("{\"a\" 1}", "Expected ':' after property name in JSON at position 5"),
            ("{a:1}", "Expected property name or '}' in JSON at position 1"),
            ("{\"a\":1,}", "Expected double-quoted property name in JSON at position 7"),
            ("[1]]", "Unexpected non-whitespace character after JSON at position 3"),
            ("[[[", "Unexpected end of JSON input"),
        ]
        for (text, message) in cases {
            let script = "try { JSON.parse('\(text)'); 'parsed' } catch (e) { e.name + ': ' + e.message }"
            #expect(try evaluate(script, stepBudget: nil) == "SyntaxError: " + message, "\(text)")
        }
    }
}
