// Uint8Array's base64 and hex methods: Uint8Array.fromBase64 / fromHex and
// Uint8Array.prototype.toBase64 / toHex / setFromBase64 / setFromHex.
// https://tc39.es/proposal-arraybuffer-base64/spec/

extension Runtime {
    struct DecodeResult {
        var read: Int
        var bytes: [UInt8]
        var error: String?
    }

    static let base64Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    static let base64Values: [Int8] = {
        var t = [Int8](repeating: -1, count: 128)
        for (i, c) in base64Alphabet.enumerated() { t[Int(c)] = Int8(i) }
        return t
    }()

    /// ValidateUint8Array.
    func validateUint8Array(_ v: Value, _ name: String) throws(JSException) -> JSObject {
        guard isTypedArray(v), JSObject(v).typedArrayKind == .uint8 else {
            throw try typeError("Method Uint8Array.prototype.\(name) called on incompatible receiver \(try describeForError(v))")
        }
        return JSObject(v)
    }

    /// The alphabet option: true for base64url.
    func base64AlphabetOption(_ opts: Value) throws(JSException) -> Bool {
        guard isObject(opts) else { return false }
        let a = try get(JSObject(opts), key(static: "alphabet"), receiver: opts)
        if a.isUndefined { return false }
        if isString(a) {
            let s = try flatten(a).swiftString
            if s == "base64" { return false }
            if s == "base64url" { return true }
        }
        throw try typeError("The alphabet option must be \"base64\" or \"base64url\"")
    }

    enum LastChunkHandling { case loose, strict, stopBeforePartial }

    func lastChunkHandlingOption(_ opts: Value) throws(JSException) -> LastChunkHandling {
        guard isObject(opts) else { return .loose }
        let a = try get(JSObject(opts), key(static: "lastChunkHandling"), receiver: opts)
        if a.isUndefined { return .loose }
        if isString(a) {
            switch try flatten(a).swiftString {
            case "loose": return .loose
            case "strict": return .strict
            case "stop-before-partial": return .stopBeforePartial
            default: break
            }
        }
        throw try typeError("The lastChunkHandling option must be \"loose\", \"strict\" or \"stop-before-partial\"")
    }

    /// GetOptionsObject.
    func optionsObject(_ v: Value) throws(JSException) -> Value {
        if v.isUndefined || isObject(v) { return v }
        throw try typeError("The options argument must be an object")
    }

    /// DecodeBase64Chunk: nil when `throwOnExtraBits` finds non-zero padding bits.
    static func decodeBase64Chunk(_ chunk: [Int], throwOnExtraBits: Bool) -> [UInt8]? {
        var c = chunk
        let n = c.count
        while c.count < 4 { c.append(0) }
        let v = c[0] << 18 | c[1] << 12 | c[2] << 6 | c[3]
        let b = [UInt8(v >> 16), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
        if n == 2 {
            if throwOnExtraBits && b[1] != 0 { return nil }
            return [b[0]]
        }
        if n == 3 {
            if throwOnExtraBits && b[2] != 0 { return nil }
            return [b[0], b[1]]
        }
        return b
    }

    /// FromBase64.
    static func fromBase64(_ s: [UInt16], url: Bool, _ handling: LastChunkHandling, maxLength: Int) -> DecodeResult {
        if maxLength == 0 { return DecodeResult(read: 0, bytes: [], error: nil) }
        var read = 0
        var bytes: [UInt8] = []
        var chunk: [Int] = []
        var index = 0
        let length = s.count
        func skip(_ i: Int) -> Int {
            var i = i
            while i < length, s[i] == 0x09 || s[i] == 0x0A || s[i] == 0x0C || s[i] == 0x0D || s[i] == 0x20 { i += 1 }
            return i
        }
        while true {
            index = skip(index)
            if index == length {
                if !chunk.isEmpty {
                    switch handling {
                    case .stopBeforePartial: return DecodeResult(read: read, bytes: bytes, error: nil)
                    case .loose:
                        if chunk.count == 1 { return DecodeResult(read: read, bytes: bytes, error: "Invalid base64: a lone final character") }
                        bytes += decodeBase64Chunk(chunk, throwOnExtraBits: false)!
                    case .strict:
                        return DecodeResult(read: read, bytes: bytes, error: "Invalid base64: missing padding")
                    }
                }
                return DecodeResult(read: length, bytes: bytes, error: nil)
            }
            var c = s[index]
            index += 1
            if c == 0x3D {  // '='
                if chunk.count < 2 { return DecodeResult(read: read, bytes: bytes, error: "Invalid base64: misplaced padding") }
                index = skip(index)
                if chunk.count == 2 {
                    if index == length {
                        if handling == .stopBeforePartial { return DecodeResult(read: read, bytes: bytes, error: nil) }
                        return DecodeResult(read: read, bytes: bytes, error: "Invalid base64: incomplete padding")
                    }
                    if s[index] == 0x3D { index = skip(index + 1) }
                }
                if index < length { return DecodeResult(read: read, bytes: bytes, error: "Invalid base64: characters after padding") }
                guard let decoded = decodeBase64Chunk(chunk, throwOnExtraBits: handling == .strict) else {
                    return DecodeResult(read: read, bytes: bytes, error: "Invalid base64: non-zero padding bits")
                }
                bytes += decoded
                return DecodeResult(read: length, bytes: bytes, error: nil)
            }
            if url {
                if c == 0x2B || c == 0x2F { return DecodeResult(read: read, bytes: bytes, error: "Invalid base64url character") }
                if c == 0x2D { c = 0x2B } else if c == 0x5F { c = 0x2F }
            }
            guard c < 128, base64Values[Int(c)] >= 0 else {
                return DecodeResult(read: read, bytes: bytes, error: "Invalid base64 character")
            }
            let remaining = maxLength - bytes.count
            if (remaining == 1 && chunk.count == 2) || (remaining == 2 && chunk.count == 3) {
                return DecodeResult(read: read, bytes: bytes, error: nil)
            }
            chunk.append(Int(base64Values[Int(c)]))
            if chunk.count == 4 {
                bytes += decodeBase64Chunk(chunk, throwOnExtraBits: false)!
                chunk = []
                read = index
                if bytes.count == maxLength { return DecodeResult(read: read, bytes: bytes, error: nil) }
            }
        }
    }

    /// FromHex.
    static func fromHex(_ s: [UInt16], maxLength: Int) -> DecodeResult {
        let length = s.count
        var bytes: [UInt8] = []
        var read = 0
        if length % 2 != 0 { return DecodeResult(read: 0, bytes: [], error: "Invalid hex: odd length") }
        func digit(_ u: UInt16) -> Int? {
            switch u {
            case 0x30...0x39: return Int(u - 0x30)
            case 0x41...0x46: return Int(u - 0x41 + 10)
            case 0x61...0x66: return Int(u - 0x61 + 10)
            default: return nil
            }
        }
        while read < length && bytes.count < maxLength {
            guard let hi = digit(s[read]), let lo = digit(s[read + 1]) else {
                return DecodeResult(read: read, bytes: bytes, error: "Invalid hex character")
            }
            read += 2
            bytes.append(UInt8(hi << 4 | lo))
        }
        return DecodeResult(read: read, bytes: bytes, error: nil)
    }

    /// The bytes of a Uint8Array (TypeError when detached or out of bounds).
    func uint8ArrayBytes(_ o: JSObject, _ name: String) throws(JSException) -> UnsafeMutableBufferPointer<UInt8> {
        guard let len = o.typedArrayLength else { throw try typeError("Uint8Array.prototype.\(name): the typed array is detached or out of bounds") }
        let p = (o.viewBuffer.bufferData! + o.viewByteOffset).assumingMemoryBound(to: UInt8.self)
        return UnsafeMutableBufferPointer(start: p, count: len)
    }

    func newUint8Array(_ bytes: [UInt8]) throws(JSException) -> Value {
        let o = try allocateTypedArray(.uint8, proto: typedArrayPrototype(.uint8), length: bytes.count)
        if !bytes.isEmpty { o.viewBuffer.bufferData!.copyMemory(from: bytes, byteCount: bytes.count) }
        return Value(cell: o.cell)
    }

    func readWrittenResult(_ read: Int, _ written: Int) throws(JSException) -> Value {
        let r = try newObject()
        heap.pushRoot(Value(cell: r.cell))
        defer { heap.popRoots(1) }
        try createDataProperty(r, key(static: "read"), Value(read))
        try createDataProperty(r, key(static: "written"), Value(written))
        return Value(cell: r.cell)
    }

    func installUint8ArrayBase64() throws(JSException) {
        let b = realm.binary
        guard let ctor = b.constructors[Int(TypedArrayKind.uint8.rawValue)], let proto = b.prototypes[Int(TypedArrayKind.uint8.rawValue)] else { return }
        try method(ctor, "fromBase64", 1) { rt, _, args, _ throws(JSException) in
            let string = rt.arg(args, 0)
            guard rt.isString(string) else { throw try rt.typeError("Uint8Array.fromBase64: the argument must be a string") }
            let opts = try rt.optionsObject(rt.arg(args, 1))
            let url = try rt.base64AlphabetOption(opts)
            let handling = try rt.lastChunkHandlingOption(opts)
            let r = Runtime.fromBase64(try rt.flatten(string).codeUnits, url: url, handling, maxLength: Int.max)
            if let e = r.error { throw try rt.makeError(.syntaxError, e) }
            return try rt.newUint8Array(r.bytes)
        }
        try method(ctor, "fromHex", 1) { rt, _, args, _ throws(JSException) in
            let string = rt.arg(args, 0)
            guard rt.isString(string) else { throw try rt.typeError("Uint8Array.fromHex: the argument must be a string") }
            let r = Runtime.fromHex(try rt.flatten(string).codeUnits, maxLength: Int.max)
            if let e = r.error { throw try rt.makeError(.syntaxError, e) }
            return try rt.newUint8Array(r.bytes)
        }
        try method(proto, "toBase64", 0) { rt, this, args, _ throws(JSException) in
            let o = try rt.validateUint8Array(this, "toBase64")
            let opts = try rt.optionsObject(rt.arg(args, 0))
            let url = try rt.base64AlphabetOption(opts)
            var omitPadding = false
            if rt.isObject(opts) { omitPadding = rt.toBoolean(try rt.get(JSObject(opts), rt.key(static: "omitPadding"), receiver: opts)) }
            let bytes = try rt.uint8ArrayBytes(o, "toBase64")
            var alphabet = Runtime.base64Alphabet
            if url { alphabet[62] = 0x2D; alphabet[63] = 0x5F }
            var out: [UInt8] = []
            out.reserveCapacity((bytes.count + 2) / 3 * 4)
            var i = 0
            while i + 3 <= bytes.count {
                let v = Int(bytes[i]) << 16 | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2])
                out += [alphabet[v >> 18], alphabet[(v >> 12) & 63], alphabet[(v >> 6) & 63], alphabet[v & 63]]
                i += 3
            }
            let rest = bytes.count - i
            if rest == 1 {
                let v = Int(bytes[i]) << 16
                out += [alphabet[v >> 18], alphabet[(v >> 12) & 63]]
                if !omitPadding { out += [0x3D, 0x3D] }
            } else if rest == 2 {
                let v = Int(bytes[i]) << 16 | Int(bytes[i + 1]) << 8
                out += [alphabet[v >> 18], alphabet[(v >> 12) & 63], alphabet[(v >> 6) & 63]]
                if !omitPadding { out.append(0x3D) }
            }
            let s = try rt.allocateLatin1(length: out.count)
            for (j, c) in out.enumerated() { s.latin1[j] = c }
            return Value(cell: s.cell)
        }
        try method(proto, "toHex", 0) { rt, this, _, _ throws(JSException) in
            let o = try rt.validateUint8Array(this, "toHex")
            let bytes = try rt.uint8ArrayBytes(o, "toHex")
            let digits = Array("0123456789abcdef".utf8)
            let s = try rt.allocateLatin1(length: bytes.count * 2)
            for (j, byte) in bytes.enumerated() {
                s.latin1[2 * j] = digits[Int(byte >> 4)]
                s.latin1[2 * j + 1] = digits[Int(byte & 15)]
            }
            return Value(cell: s.cell)
        }
        try method(proto, "setFromBase64", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.validateUint8Array(this, "setFromBase64")
            let string = rt.arg(args, 0)
            guard rt.isString(string) else { throw try rt.typeError("Uint8Array.prototype.setFromBase64: the argument must be a string") }
            let opts = try rt.optionsObject(rt.arg(args, 1))
            let url = try rt.base64AlphabetOption(opts)
            let handling = try rt.lastChunkHandlingOption(opts)
            let target = try rt.uint8ArrayBytes(o, "setFromBase64")
            let r = Runtime.fromBase64(try rt.flatten(string).codeUnits, url: url, handling, maxLength: target.count)
            for (j, byte) in r.bytes.enumerated() { target[j] = byte }
            if let e = r.error { throw try rt.makeError(.syntaxError, e) }
            return try rt.readWrittenResult(r.read, r.bytes.count)
        }
        try method(proto, "setFromHex", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.validateUint8Array(this, "setFromHex")
            let string = rt.arg(args, 0)
            guard rt.isString(string) else { throw try rt.typeError("Uint8Array.prototype.setFromHex: the argument must be a string") }
            let target = try rt.uint8ArrayBytes(o, "setFromHex")
            let r = Runtime.fromHex(try rt.flatten(string).codeUnits, maxLength: target.count)
            for (j, byte) in r.bytes.enumerated() { target[j] = byte }
            if let e = r.error { throw try rt.makeError(.syntaxError, e) }
            return try rt.readWrittenResult(r.read, r.bytes.count)
        }
    }
}
