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

    @Test func frameLayoutIsTheFrameStruct() {
        #expect(FrameLayout.size == MemoryLayout<Frame>.stride)
        #expect(FrameLayout.pc < FrameLayout.size && FrameLayout.base < FrameLayout.size)
        #expect(Set([FrameLayout.pc, FrameLayout.base, FrameLayout.top, FrameLayout.this, FrameLayout.callee, FrameLayout.env]).count == 6)
    }
}
