// Tracing and finalization of the kind-specific words of object cells.

extension Runtime {
    func traceKindSpecific(_ o: JSObject, _ kind: CellKind, _ marker: inout Heap.Marker) {
        switch kind {
        case .function:
            marker.mark(cell: UnsafeMutableRawPointer(bitPattern: UInt(o.word(1))))  // environment
            marker.mark(o.extraValue(2))                                             // home object
            if let raw = UnsafeRawPointer(bitPattern: UInt(o.word(0))) {               // code
                unowned(unsafe) let d = Unmanaged<CodeData>.fromOpaque(raw).takeUnretainedValue()
                markCodeData(d, &marker)
            }
        case .nativeFunction, .boxedPrimitive, .error, .regexp, .date, .promise, .iterator, .generator:
            marker.mark(o.extraValue(1))
            marker.mark(o.extraValue(2))
        case .boundFunction:
            marker.mark(o.extraValue(0))
            marker.mark(o.extraValue(1))
            if let args = UnsafeMutablePointer<Value>(bitPattern: UInt(o.word(2))) {
                marker.mark(args + 1, count: Int(args.pointee.bits))
            }
        case .arguments:
            // A mapped arguments object's function environment and large map (MappedArguments.swift).
            marker.mark(cell: UnsafeMutableRawPointer(bitPattern: UInt(o.word(1))))
            if o.flags & ArgumentsFlags.largeMap != 0 { marker.mark(cell: UnsafeMutableRawPointer(bitPattern: UInt(o.word(2)))) }
        default:
            break
        }
        if let hook = kindTraceHooks[Int(kind.rawValue)] { hook(o, &marker) }
    }

    func finalizeKindSpecific(_ o: JSObject, _ kind: CellKind) {
        switch kind {
        case .boundFunction:
            if let args = UnsafeMutablePointer<Value>(bitPattern: UInt(o.word(2))) {
                heap.releaseExternal((Int(args.pointee.bits) + 1) * 8)
                args.deallocate()
            }
        default:
            break
        }
        if let hook = kindFinalizeHooks[Int(kind.rawValue)] { hook(o) }
    }
}
