import Testing
@testable import JSRuntime
import JSBytecode

@Suite struct ValueEncoding {
    @Test func numbers() {
        #expect(Value(int32: 5).isInt32 && Value(int32: 5).asInt32 == 5)
        #expect(Value(int32: -1).asNumber == -1)
        #expect(Value(1.5).isDouble && Value(1.5).asNumber == 1.5)
        #expect(Value(3.0).isInt32)
        #expect(Value(-0.0).isDouble && Value(-0.0).asNumber.sign == .minus)
        #expect(Value(Double.nan).isNumber && Value(Double.nan).asNumber.isNaN)
        #expect(Value(2147483648.0).isDouble)
        #expect(!Value(1.0).isCell && !Value.undefined.isCell && !Value.null.isCell && !Value.true.isCell)
        #expect(Value.undefined.isNullish && Value.null.isNullish && !Value.false.isNullish && !Value.empty.isNullish)
        #expect(Value(true).asBool && !Value(false).asBool && Value.true.isBool)
        #expect(!Value(Double.infinity).isInt32 && Value(-Double.infinity).asNumber == -.infinity)
    }
}

/// Runs `body` with a runtime in GC-stress mode (a collection before every allocation).
func withStressRuntime(_ body: (Runtime) throws -> Void) rethrows {
    let rt = Runtime()
    rt.heap.gcStress = true
    try body(rt)
}

@Suite struct GarbageCollection {
    @Test func unreachableCellsAreFreedAndRootsSurvive() throws {
        let rt = Runtime()
        let keep = try rt.makeString("kept alive by a root")
        rt.heap.pushRoot(keep)
        for i in 0..<20_000 { _ = try rt.makeString("garbage \(i) with some length to it") }
        rt.heap.collect()
        let liveAfter = rt.heap.liveBytes
        #expect(liveAfter < 200_000)
        #expect(try rt.flatten(keep).swiftString == "kept alive by a root")
        rt.heap.popRoots(1)
    }

    @Test func conservativeStackRoots() throws {
        let rt = Runtime()
        let local = try rt.makeString("on the native stack only")
        for _ in 0..<3 { rt.heap.collect() }
        // `local` is only referenced from this frame: the stack scan must keep it.
        #expect(try rt.flatten(local).swiftString == "on the native stack only")
    }

    @Test func stressedRopesAndObjects() throws {
        try withStressRuntime { rt in
            var s = try rt.makeString("")
            for i in 0..<200 {
                s = try rt.concat(s, try rt.makeString("<\(i)>"))
            }
            let flat = try rt.flatten(s).swiftString
            #expect(flat.hasPrefix("<0><1><2>") && flat.hasSuffix("<199>"))
            #expect(rt.heap.collections > 200)

            let root = try rt.makeRootShape(prototype: .null)
            let o = try rt.allocateObject(.object, shape: root)
            for i in 0..<40 {
                let name = try rt.makeString("p\(i)")
                let k = try rt.key(fromString: name)
                #expect(try rt.createDataProperty(o, k, try rt.makeString("value \(i)")))
            }
            for i in 0..<40 {
                let v = try rt.get(o, "p\(i)")
                #expect(try rt.flatten(v).swiftString == "value \(i)")
            }
        }
    }
}

@Suite struct ShapesAndProperties {
    func object(_ rt: Runtime, _ root: UnsafeMutableRawPointer) throws -> JSObject {
        try rt.allocateObject(.object, shape: root)
    }

    @Test func sameLayoutSharesShape() throws {
        let rt = Runtime()
        let root = try rt.makeRootShape(prototype: .null)
        let a = try object(rt, root), b = try object(rt, root)
        for o in [a, b] {
            try rt.createDataProperty(o, rt.key("x"), Value(int32: 1))
            try rt.createDataProperty(o, rt.key("y"), Value(int32: 2))
        }
        #expect(a.shape == b.shape)
        try rt.createDataProperty(b, rt.key("z"), Value(int32: 3))
        #expect(a.shape != b.shape)
        #expect(try rt.get(b, "y") == Value(int32: 2))
    }

    @Test func orderAndDeletion() throws {
        let rt = Runtime()
        let o = try object(rt, try rt.makeRootShape(prototype: .null))
        for name in ["b", "a", "2", "c", "0"] { try rt.createDataProperty(o, try rt.key(fromString: try rt.makeString(name)), .true) }
        func names() throws -> [String] {
            try rt.ownKeys(o).map { try rt.flatten(try rt.keyValue($0)).swiftString }
        }
        #expect(try names() == ["0", "2", "b", "a", "c"])
        #expect(try rt.deleteProperty(o, rt.key("a")))
        #expect(try names() == ["0", "2", "b", "c"])
        #expect(ShapeCell(o.shape).isDictionary)
        try rt.createDataProperty(o, rt.key("a"), .false)
        #expect(try names() == ["0", "2", "b", "c", "a"])
    }

    @Test func attributesAreEnforced() throws {
        let rt = Runtime()
        let o = try object(rt, try rt.makeRootShape(prototype: .null))
        let k = rt.key("fixed")
        #expect(try rt.defineOwnProperty(o, k, .data(Value(int32: 1), [])))
        #expect(try !rt.set(o, k, Value(int32: 2), receiver: Value(cell: o.cell)))
        #expect(try !rt.defineOwnProperty(o, k, PropertyDescriptor(value: Value(int32: 3))))
        #expect(try rt.defineOwnProperty(o, k, PropertyDescriptor(value: Value(int32: 1))))
        #expect(try !rt.deleteProperty(o, k))
        #expect(try rt.get(o, "fixed") == Value(int32: 1))
    }

    @Test func arrayLengthSemantics() throws {
        let rt = Runtime()
        let a = try rt.allocateObject(.array, shape: try rt.makeRootShape(prototype: .null))
        for i in 0..<5 { try rt.createDataProperty(a, .index(UInt32(i)), Value(int32: Int32(i))) }
        #expect(a.arrayLength == 5)
        try rt.createDataProperty(a, .index(100_000), .true)
        #expect(a.arrayLength == 100_001)
        #expect(try rt.get(a, .index(100_000), receiver: .undefined) == .true)
        #expect(try rt.set(a, rt.key("length"), Value(int32: 3), receiver: Value(cell: a.cell)))
        #expect(a.arrayLength == 3)
        #expect(try rt.get(a, .index(100_000), receiver: .undefined) == .undefined)
        #expect(try rt.get(a, .index(2), receiver: .undefined) == Value(int32: 2))
    }

    @Test func prototypeChainLookup() throws {
        let rt = Runtime()
        let proto = try object(rt, try rt.makeRootShape(prototype: .null))
        try rt.createDataProperty(proto, rt.key("inherited"), Value(int32: 7))
        let o = try object(rt, try rt.makeRootShape(prototype: Value(cell: proto.cell)))
        #expect(try rt.get(o, "inherited") == Value(int32: 7))
        #expect(try rt.hasProperty(o, rt.key("inherited")))
        #expect(try rt.getOwnProperty(o, rt.key("inherited")) == nil)
        #expect(try !rt.setPrototype(proto, Value(cell: o.cell)))   // cycle
    }
}

@Suite struct BytecodeLayout {
    /// A returning frame resumes its caller at pc + callInstructionLength: every opcode that
    /// pushes an interpreter frame in place must have exactly that length.
    @Test func callLikeInstructionsShareOneLength() {
        for op in [Opcode.call, .callMethod, .callEval, .construct] {
            #expect(op.length == Opcode.callInstructionLength, "\(op)")
        }
    }
}
