import Testing
import JSSyntax
@testable import JSRuntime

/// The named offsets of Layout.swift (what machine code reads) against real cells.
@Suite struct LayoutTests {
    @Test func objectLayout() throws {
        let rt = Runtime()
        try rt.initializeRealm()
        let v = try rt.evaluateScript(SourceFile(name: "layout.js", text: "var a = [1, 2, 3]; a.x = 1; a"))
        let o = JSObject(v)
        let cell = o.cell
        #expect(cell.load(fromByteOffset: CellHeaderLayout.kind, as: UInt8.self) == CellKind.array.rawValue)
        #expect(cell.load(fromByteOffset: ObjectLayout.shape, as: UnsafeMutableRawPointer.self) == o.shape)
        #expect(cell.load(fromByteOffset: ObjectLayout.elements, as: UnsafeMutablePointer<Value>?.self) == o.elements)
        #expect(Int(cell.load(fromByteOffset: ObjectLayout.elementsLength, as: UInt32.self)) == o.elementsLength)
        #expect(cell.load(fromByteOffset: ObjectLayout.arrayLength, as: UInt32.self) == 3)
        #expect(Int(cell.load(fromByteOffset: CellHeaderLayout.aux, as: UInt32.self)) == o.inlineCapacity)
        let shape = ShapeCell(o.shape)
        #expect(shape.cell.load(fromByteOffset: ShapeLayout.prototype, as: Value.self).bits == shape.prototype.bits)
        #expect(Int(shape.cell.load(fromByteOffset: ShapeLayout.slotCount, as: UInt32.self)) == shape.slotCount)
        #expect(o.elements?[1].asInt32 == 2)
    }

    @Test func kindWordsFollowTheInlineSlots() throws {
        let rt = Runtime()
        try rt.initializeRealm()
        // A bytecode function's words are where machine code reads them.
        let f = JSObject(try rt.evaluateScript(SourceFile(name: "layout.js", text: "(function f(a, b) { return a })")))
        #expect(f.kind == .function && f.inlineCapacity == ObjectLayout.functionInlineSlots)
        #expect(f.cell.load(fromByteOffset: ObjectLayout.functionCode, as: UInt64.self) == f.word(0))
        #expect(f.cell.load(fromByteOffset: ObjectLayout.functionEnvironment, as: UInt64.self) == f.word(1))
        #expect(f.cell.load(fromByteOffset: ObjectLayout.functionHome, as: UInt64.self) == f.word(2))
        #expect(f.functionWord(0) == f.word(0) && f.word(0) != 0)
        // An ordinary object has no kind words: its first slot follows the elements' words.
        let o = JSObject(try rt.evaluateScript(SourceFile(name: "layout.js", text: "({a: 1, b: 2})")))
        #expect(o.kind == .object && ObjectLayout.kindWordCount(.object) == 0)
        #expect(o.cell.load(fromByteOffset: ObjectLayout.inlineSlots, as: Value.self).asInt32 == 1)
        #expect(o.cell.load(fromByteOffset: ObjectLayout.inlineSlots + 8, as: Value.self).asInt32 == 2)
        // A kind with words keeps them after however many inline slots it has.
        let d = JSObject(try rt.evaluateScript(SourceFile(name: "layout.js", text: "var d = new Date(0); d.x = 1; d")))
        #expect(d.kind == .date)
        #expect(d.cell.load(fromByteOffset: ObjectLayout.inlineSlots + d.inlineCapacity * 8 + 8, as: UInt64.self) == d.word(1))
    }

    @Test func frameLayoutIsTheFrameStruct() {
        #expect(FrameLayout.size == MemoryLayout<Frame>.stride)
        #expect(FrameLayout.pc < FrameLayout.size && FrameLayout.base < FrameLayout.size)
        #expect(Set([FrameLayout.pc, FrameLayout.base, FrameLayout.top, FrameLayout.this, FrameLayout.callee, FrameLayout.env]).count == 6)
    }
}
