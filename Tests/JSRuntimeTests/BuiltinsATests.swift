// Object, Function, Symbol, Array, Error, Reflect, Map/Set and URI builtins: each test
// evaluates a script and checks the string it produces.
import Testing
import JSSyntax
@testable import JSRuntime

/// Evaluates `source` in a fresh realm and returns ToString of its completion value.
func evalToString(_ source: String, gcStress: Bool = false) throws -> String {
    let rt = Runtime()
    try rt.initializeRealm()
    rt.heap.gcStress = gcStress
    do {
        let v = try rt.evaluateScript(SourceFile(name: "test.js", bytes: Array(source.utf8)))
        return try rt.flatten(try rt.toString(v)).swiftString
    } catch {
        rt.heap.gcStress = false
        let e = error.value
        if rt.isObject(e) { return "threw " + (try rt.flatten(try rt.toString(e)).swiftString) }
        return "threw"
    }
}

@Suite struct ObjectBuiltinsTests {
    @Test func statics() throws {
        #expect(try evalToString("Object.entries({a:1,b:2}).join('|')") == "a,1|b,2")
        #expect(try evalToString("Object.values({a:1,b:2}).join()") == "1,2")
        #expect(try evalToString("Object.fromEntries([['x', 1], ['y', 2]]).y") == "2")
        #expect(try evalToString("var s = Symbol('s'); var o = {[s]: 1, a: 2}; Object.getOwnPropertySymbols(o)[0] === s") == "true")
        #expect(try evalToString("var d = Object.getOwnPropertyDescriptor({get x() { return 1 }}, 'x'); typeof d.get + d.enumerable + d.configurable") == "functiontruetrue")
        #expect(try evalToString("var o = Object.seal({a: 1}); Object.isSealed(o) + ',' + Object.isFrozen(o) + ',' + Object.isExtensible(o)") == "true,false,false")
        #expect(try evalToString("Object.is(NaN, NaN) + ',' + Object.is(0, -0)") == "true,false")
        #expect(try evalToString("Object.hasOwn({a: 1}, 'a')") == "true")
        #expect(try evalToString("var g = Object.groupBy([1, 2, 3], x => x % 2 ? 'odd' : 'even'); Object.getPrototypeOf(g) === null && g.odd.join()") == "1,3")
        #expect(try evalToString("var s = Symbol(); var t = Object.assign({}, {[s]: 7}); t[s]") == "7")
        #expect(try evalToString("Object.create({}, {x: {value: 3, enumerable: true}}).x") == "3")
        #expect(try evalToString("Object.setPrototypeOf(Object.prototype, {})", ) .hasPrefix("threw TypeError"))
    }

    @Test func prototype() throws {
        #expect(try evalToString("Object.prototype.toString.call([])") == "[object Array]")
        #expect(try evalToString("Object.prototype.toString.call(null)") == "[object Null]")
        #expect(try evalToString("var o = {}; o[Symbol.toStringTag] = 'X'; String(o)") == "[object X]")
        #expect(try evalToString("({}).__proto__ === Object.prototype") == "true")
        #expect(try evalToString("var o = {}; o.__defineGetter__('x', function() { return 5 }); o.x + typeof o.__lookupGetter__('x')") == "5function")
        #expect(try evalToString("({a: 1}).propertyIsEnumerable('a')") == "true")
    }
}

@Suite struct FunctionSymbolTests {
    @Test func functions() throws {
        #expect(try evalToString("new Function('a', 'b', 'return a * b')(6, 7)") == "42")
        #expect(try evalToString("Function('a', 'b', 'return a')") == "function anonymous(a,b\n) {\nreturn a\n}")
        #expect(try evalToString("try { Function('/*', '*/){') } catch (e) { e.name }") == "SyntaxError")
        #expect(try evalToString("function f(a, b, c) {} var b = f.bind(null, 1); b.name + b.length") == "bound f2")
        #expect(try evalToString("Math.max.toString()") == "function max() { [native code] }")
        #expect(try evalToString("function f(x) { return x }  f.toString()") == "function f(x) { return x }")
        #expect(try evalToString("var C = {[Symbol.hasInstance](v) { return v === 1 }}; 1 instanceof C") == "true")
        #expect(try evalToString("Math.max.apply(null, [1, 5, 2])") == "5")
    }

    @Test func symbols() throws {
        #expect(try evalToString("Symbol.for('k') === Symbol.for('k') && Symbol.keyFor(Symbol.for('k'))") == "k")
        #expect(try evalToString("Symbol('d').description + Symbol('e').toString()") == "dSymbol(e)")
        #expect(try evalToString("try { new Symbol() } catch (e) { e.name }") == "TypeError")
        #expect(try evalToString("var o = {[Symbol.toPrimitive](h) { return h }}; `${o}` + (o + '') + (+{[Symbol.toPrimitive]() { return 3 }})") == "stringdefault3")
        #expect(try evalToString("typeof Symbol.iterator + typeof Symbol.asyncIterator") == "symbolsymbol")
    }
}

@Suite struct ArrayBuiltinsTests {
    @Test func es2023() throws {
        #expect(try evalToString("[3, 1, 2].toSorted().join() + '|' + [1, 2, 3].toReversed().join() + '|' + [1, 2, 3].with(-1, 9).join()") == "1,2,3|3,2,1|1,2,9")
        #expect(try evalToString("[1, 2, 3, 4].toSpliced(1, 2, 'a').join()") == "1,a,4")
        #expect(try evalToString("[1, [2, [3, [4]]]].flat(Infinity).join() + '|' + [1, 2].flatMap(x => [x, x * 2]).join()") == "1,2,3,4|1,2,2,4")
        #expect(try evalToString("Array.from({length: 3}, (v, i) => i * i).join() + Array.of(7, 8).join()") == "0,1,47,8")
        #expect(try evalToString("Array.from(new Set([1, 1, 2])).join()") == "1,2")
        #expect(try evalToString("[1, 2, 3, 4, 5].copyWithin(0, 3).join()") == "4,5,3,4,5")
        #expect(try evalToString("[NaN].includes(NaN) + ',' + [NaN].indexOf(NaN)") == "true,-1")
        #expect(try evalToString("['a', 'b', 'c'].reduceRight((x, y) => x + y)") == "cba")
        // Huge relative indices clamp instead of trapping.
        #expect(try evalToString("[[1, 2].includes(1, 1e300), [1, 2].indexOf(2, -1e300), [1, 2].lastIndexOf(1, -1e300), [1, 2, 3].slice(-1e300, 1e300).length].join()") == "false,1,-1,3")
        #expect(try evalToString("try { Object.defineProperty([], 'length', {value: -1, configurable: true}) } catch (e) { e.name }") == "RangeError")
        #expect(try evalToString("try { Object.freeze([]).push() } catch (e) { e.name }") == "TypeError")
        #expect(try evalToString("var a = []; a[4294967294] = 1; a.length + ',' + a.indexOf(1, 4294967290)") == "4294967295,4294967294")
    }

    @Test func sortIsStableWithUndefinedAndHoles() throws {
        #expect(try evalToString("var a = [5, 1, undefined, , 10, 2]; a.sort(); a.join() + ':' + a.length + (5 in a)") == "1,10,2,5,,:6false")
        #expect(try evalToString("[{k: 1, v: 'a'}, {k: 0, v: 'b'}, {k: 1, v: 'c'}, {k: 0, v: 'd'}].sort((x, y) => x.k - y.k).map(x => x.v).join('')") == "bdac")
    }

    @Test func speciesAndSpreadable() throws {
        #expect(try evalToString("class A extends Array {}; new A(1, 2, 3).map(x => x) instanceof A") == "true")
        #expect(try evalToString("[1].concat({length: 1, 0: 'x', [Symbol.isConcatSpreadable]: true}).join()") == "1,x")
        #expect(try evalToString("Array.prototype[Symbol.unscopables].flat") == "true")
    }
}

@Suite struct CollectionTests {
    @Test func mapAndSet() throws {
        #expect(try evalToString("var m = new Map([[1, 'a'], [NaN, 'n']]); m.set(-0, 'z'); m.get(0) + m.get(NaN) + m.size") == "zn3")
        #expect(try evalToString("var s = new Set([1, 2, 3]); var r = []; s.forEach(v => { r.push(v); if (v === 1) { s.delete(2); s.add(4) } }); r.join()") == "1,3,4")
        #expect(try evalToString("var m = new Map([['a', 1], ['b', 2]]); var it = m.keys(); m.delete('a'); m.set('c', 3); var r = []; for (var x = it.next(); !x.done; x = it.next()) r.push(x.value); r.join()") == "b,c")
        #expect(try evalToString("var s = new Set([1, 2]); var it = s.values(); it.next(); s.clear(); s.add(5); it.next().value") == "5")
        #expect(try evalToString("Map.groupBy([1, 2, 3], x => x % 2).get(1).join()") == "1,3")
        #expect(try evalToString("var a = new Set([1, 2, 3]), b = new Set([2, 3, 4]); [a.union(b).size, a.intersection(b).size, a.difference(b).size, a.symmetricDifference(b).size].join()") == "4,2,1,2")
        #expect(try evalToString("var k = {}; var w = new WeakMap([[k, 1]]); w.get(k) + ',' + w.has({})") == "1,false")
        #expect(try evalToString("try { new WeakSet().add(1) } catch (e) { e.name }") == "TypeError")
        #expect(try evalToString("Object.prototype.toString.call(new Map().entries())") == "[object Map Iterator]")
    }

    @Test func manyDeletionsUnderGCStress() throws {
        let src = """
        var m = new Map();
        for (var i = 0; i < 60; i++) m.set('k' + i, {v: i});
        for (var i = 0; i < 55; i++) m.delete('k' + i);
        var t = 0; m.forEach(function(v) { t += v.v; }); t
        """
        #expect(try evalToString(src, gcStress: true) == String((55..<60).reduce(0, +)))
    }
}

@Suite struct ErrorReflectURITests {
    @Test func errors() throws {
        #expect(try evalToString("var e = new TypeError('boom', {cause: 1}); e.message + e.cause + (e instanceof Error) + e") == "boom1trueTypeError: boom")
        #expect(try evalToString("var a = new AggregateError([1, 2], 'm'); a.errors.join() + a.message + a.name") == "1,2mAggregateError")
        #expect(try evalToString("Error.prototype.toString.call({name: '', message: 'x'})") == "x")
        #expect(try evalToString("Object.prototype.hasOwnProperty.call(new Error(), 'message')") == "false")
    }

    @Test func reflect() throws {
        #expect(try evalToString("Reflect.ownKeys({a: 1, [Symbol.iterator]: 2, 0: 3}).length") == "3")
        #expect(try evalToString("Reflect.construct(function() { this.x = new.target }, [], Array).x === Array") == "true")
        #expect(try evalToString("Reflect.apply(Math.max, null, [1, 3, 2])") == "3")
        #expect(try evalToString("var o = {}; Reflect.defineProperty(o, 'x', {value: 1}) + ',' + Reflect.set(o, 'x', 2) + ',' + o.x") == "true,false,1")
    }

    @Test func uri() throws {
        #expect(try evalToString("encodeURIComponent('a b&c/\\u00e9')") == "a%20b%26c%2F%C3%A9")
        #expect(try evalToString("encodeURI('http://x.y/a b?q=1#f')") == "http://x.y/a%20b?q=1#f")
        #expect(try evalToString("decodeURI('%23%20') + decodeURIComponent('%23')") == "%23 #")
        #expect(try evalToString("try { decodeURI('%E0%A4%A') } catch (e) { e.name }") == "URIError")
    }
}
