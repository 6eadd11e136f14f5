// DataView (https://tc39.es/ecma262/#sec-dataview-objects).
//
// A DataView (kind `.dataView`): word 0 the buffer (a Value, traced), word 1 the byte
// offset, word 2 the byte length (bits 0-47) or `JSObject.viewTracking` when the view
// tracks a resizable buffer's length.

extension Runtime {
    func thisDataView(_ this: Value, _ name: String) throws(JSException) -> JSObject {
        guard isObject(this), JSObject(this).kind == .dataView else {
            throw try typeError("Method DataView.prototype.\(name) called on incompatible receiver \(try describeForError(this))")
        }
        return JSObject(this)
    }

    /// GetViewValue / SetViewValue's bounds: the address of `size` bytes at `index`.
    func dataViewAddress(_ v: JSObject, _ index: Int, _ size: Int, _ name: String) throws(JSException) -> UnsafeMutableRawPointer {
        guard let viewSize = v.dataViewByteLength else {
            throw try typeError("DataView.prototype.\(name): the DataView is detached or out of bounds")
        }
        if index + size > viewSize { throw try rangeError("Offset is outside the bounds of the DataView") }
        return v.viewBuffer.bufferData! + v.viewByteOffset + index
    }

    func installDataView() throws(JSException) {
        let b = realm.binary
        let proto = try newObject()
        b.dataViewPrototype = proto
        _ = try constructor("DataView", length: 1, prototype: proto) { rt, _, args, newTarget throws(JSException) in
            if newTarget.isUndefined { throw try rt.typeError("Constructor DataView requires 'new'") }
            let bufferValue = rt.arg(args, 0)
            guard rt.isArrayBuffer(bufferValue) else { throw try rt.typeError("First argument to DataView constructor must be an ArrayBuffer") }
            let buffer = JSObject(bufferValue)
            let offset = try rt.toIndexOrThrow(rt.arg(args, 1), "DataView offset")
            if buffer.isDetachedBuffer { throw try rt.typeError("Cannot construct a DataView on a detached ArrayBuffer") }
            var bufLen = buffer.bufferByteLength
            if offset > bufLen { throw try rt.rangeError("Start offset \(offset) is outside the bounds of the buffer") }
            let lengthArg = rt.arg(args, 2)
            var viewLength: Int? = nil
            if lengthArg.isUndefined {
                if buffer.isFixedLengthBuffer { viewLength = bufLen - offset }
            } else {
                let n = try rt.toIndexOrThrow(lengthArg, "DataView length")
                if offset + n > bufLen { throw try rt.rangeError("Invalid DataView length \(n)") }
                viewLength = n
            }
            let protoObj = try rt.prototypeFromConstructor(newTarget, rt.realm.binary.dataViewPrototype!)
            if buffer.isDetachedBuffer { throw try rt.typeError("Cannot construct a DataView on a detached ArrayBuffer") }
            bufLen = buffer.bufferByteLength
            if offset > bufLen { throw try rt.rangeError("Start offset \(offset) is outside the bounds of the buffer") }
            if !lengthArg.isUndefined, let n = viewLength, offset + n > bufLen { throw try rt.rangeError("Invalid DataView length \(n)") }
            let o = try rt.allocateObject(.dataView, shape: try rt.rootShape(for: Value(cell: protoObj.cell)))
            o.setExtraValue(0, bufferValue)
            o.setWord(1, UInt64(offset))
            o.setWord(2, viewLength.map { UInt64($0) } ?? JSObject.viewTracking)
            return Value(cell: o.cell)
        }
        try accessor(proto, key(static: "buffer"), name: "buffer", getter: { rt, this, _, _ throws(JSException) in
            try rt.thisDataView(this, "buffer").extraValue(0)
        }, setter: nil)
        try accessor(proto, key(static: "byteLength"), name: "byteLength", getter: { rt, this, _, _ throws(JSException) in
            let v = try rt.thisDataView(this, "byteLength")
            guard let n = v.dataViewByteLength else { throw try rt.typeError("DataView.prototype.byteLength: the DataView is detached or out of bounds") }
            return Value(n)
        }, setter: nil)
        try accessor(proto, key(static: "byteOffset"), name: "byteOffset", getter: { rt, this, _, _ throws(JSException) in
            let v = try rt.thisDataView(this, "byteOffset")
            guard v.dataViewByteLength != nil else { throw try rt.typeError("DataView.prototype.byteOffset: the DataView is detached or out of bounds") }
            return Value(v.viewByteOffset)
        }, setter: nil)
        try defineOwnProperty(proto, symbolKey(wellKnown.toStringTag), .data(try makeString("DataView"), [.configurable]))

        let kinds: [(String, TypedArrayKind)] = [("Int8", .int8), ("Uint8", .uint8), ("Int16", .int16), ("Uint16", .uint16),
                                                 ("Int32", .int32), ("Uint32", .uint32), ("Float16", .float16),
                                                 ("Float32", .float32), ("Float64", .float64),
                                                 ("BigInt64", .bigInt64), ("BigUint64", .bigUint64)]
        for (name, kind) in kinds where !kind.isBigInt || bigIntElementHooks != nil {
            let size = kind.size
            try method(proto, "get" + name, 1) { rt, this, args, _ throws(JSException) in
                let v = try rt.thisDataView(this, "get" + name)
                let index = try rt.toIndexOrThrow(rt.arg(args, 0), "DataView offset")
                let little = rt.toBoolean(rt.arg(args, 1))
                let p = try rt.dataViewAddress(v, index, size, "get" + name)
                var raw: UInt64 = 0
                withUnsafeMutableBytes(of: &raw) { r in
                    for i in 0..<size { r[i] = p.load(fromByteOffset: little ? i : size - 1 - i, as: UInt8.self) }
                }
                return try withUnsafeBytes(of: &raw) { r throws(JSException) in
                    if kind.isBigInt { return try rt.loadBigIntElement(r.baseAddress!, kind) }
                    return loadNumberElement(r.baseAddress!, kind)
                }
            }
            try method(proto, "set" + name, 2) { rt, this, args, _ throws(JSException) in
                let v = try rt.thisDataView(this, "set" + name)
                let index = try rt.toIndexOrThrow(rt.arg(args, 0), "DataView offset")
                let value = try rt.typedArrayConvert(rt.arg(args, 1), kind)
                rt.heap.pushRoot(value)
                defer { rt.heap.popRoots(1) }
                let little = rt.toBoolean(rt.arg(args, 2))
                let p = try rt.dataViewAddress(v, index, size, "set" + name)
                var raw: UInt64 = 0
                withUnsafeMutableBytes(of: &raw) { r in
                    if kind.isBigInt {
                        if let hooks = rt.bigIntElementHooks { r.storeBytes(of: hooks.bits(rt, value), as: UInt64.self) }
                    } else {
                        storeNumberElement(r.baseAddress!, kind, value.asNumber)
                    }
                    for i in 0..<size { p.storeBytes(of: r[i], toByteOffset: little ? i : size - 1 - i, as: UInt8.self) }
                }
                return .undefined
            }
        }
    }
}
