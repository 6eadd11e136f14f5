// The byte layouts that machine code reads: the JIT's contract with the runtime. The
// accessors (`JSObject`, `ShapeCell`, `StringCell`, `RopeCell`, `Environment`) are written
// with these names, and `LayoutTests` checks them against real cells, so a layout change
// is one edit here and a failing test until the JIT follows.
//
// Every cell starts with a `CellHeader` (8 bytes). Values are NaN-boxed words
// (`Value`: `numberTag`, `otherTag`, ...; see DESIGN-NOTES.md).

/// Offsets in the 8-byte header every cell starts with.
public enum CellHeaderLayout {
    /// `CellKind` (UInt8).
    public static let kind = 0
    /// The mark byte (non-zero while marked during a collection).
    public static let marked = 1
    /// Kind-specific flags (UInt16): `ObjectFlags`, `StringFlags`.
    public static let flags = 2
    /// Kind-specific UInt32: an object's inline slot capacity, a string's length, an
    /// environment's slot count.
    public static let aux = 4
    public static let size = 8
}

/// Offsets in every object cell (ordinary objects, arrays, functions and the other
/// object kinds).
public enum ObjectLayout {
    /// The shape cell (prototype and property layout); inline caches compare it.
    public static let shape = 8
    /// Out-of-line named slots (`UnsafeMutablePointer<Value>?`) and their capacity (UInt32).
    public static let outOfLineSlots = 16
    public static let outOfLineCapacity = 24
    /// Arrays: `length` (UInt32), in the half word after the out-of-line capacity.
    public static let arrayLength = 28
    /// Dense elements (`UnsafeMutablePointer<Value>?`; holes are `Value.empty`), how many
    /// are stored (UInt32) and the capacity (UInt32).
    public static let elements = 32
    public static let elementsLength = 40
    public static let elementsCapacity = 44
    /// Inline named slots (`Value`s), as many as the header's `aux` says.
    public static let inlineSlots = 48

    /// The kind-specific words (`JSObject.word(0...2)`) follow the inline slots, at
    /// `inlineSlots + 8 * aux`: three for every object kind but ordinary objects, which
    /// have none, so that a plain object is 48 bytes before its first slot (it was 72 with
    /// the words in front: a quarter of acorn's or splay's heap).
    @inline(__always) public static func kindWordCount(_ kind: CellKind) -> Int { kind == .object ? 0 : 3 }

    /// Bytecode functions are allocated with exactly this many inline slots (length, name,
    /// prototype and one more), so their words are at fixed offsets: CodeData (unretained),
    /// environment, home object.
    public static let functionInlineSlots = 4
    public static let functionCode = inlineSlots + functionInlineSlots * 8
    public static let functionEnvironment = functionCode + 8
    public static let functionHome = functionCode + 16
}

/// Offsets in a shape cell.
public enum ShapeLayout {
    /// The prototype (`Value`: an object or null).
    public static let prototype = 8
    /// The retained `ShapeInfo` (keys, attributes, transitions).
    public static let info = 16
    /// Named slots objects of this shape use (UInt32).
    public static let slotCount = 24
}

/// Offsets in string cells.
public enum StringLayout {
    /// Flat strings: the cached hash (UInt32, valid with `StringFlags.hasHash`), then the
    /// characters (Latin-1 bytes or UTF-16 units, `StringFlags.is16Bit`); the length is
    /// the header's `aux`.
    public static let hash = 8
    public static let characters = 16
    /// Ropes: the two halves (flattened on first use).
    public static let ropeLeft = 16
    public static let ropeRight = 24
}

/// Offsets in an environment cell (captured variables).
public enum EnvironmentLayout {
    /// The enclosing environment (or nil).
    public static let parent = 8
    /// The scope layout word: CodeData pointer | tag << 48 (names for eval and `with`).
    public static let layout = 16
    /// The slots (`Value`s), as many as the header's `aux` says.
    public static let slots = 24
}

/// Offsets in an interpreter frame (`Frame`, in the runtime's frame stack). The JIT keeps
/// this layout: a compiled function runs with the same frame and register window.
public enum FrameLayout {
    public static let pc = MemoryLayout<Frame>.offset(of: \Frame.pc)!
    public static let base = MemoryLayout<Frame>.offset(of: \Frame.base)!
    public static let top = MemoryLayout<Frame>.offset(of: \Frame.top)!
    public static let this = MemoryLayout<Frame>.offset(of: \Frame.this)!
    public static let callee = MemoryLayout<Frame>.offset(of: \Frame.callee)!
    public static let env = MemoryLayout<Frame>.offset(of: \Frame.env)!
    public static let size = MemoryLayout<Frame>.stride
}
