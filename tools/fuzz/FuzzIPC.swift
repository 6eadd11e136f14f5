// libFuzzer harness for the IPC message decoders (EngineIPC): every message set a process
// pair speaks (the jsrun worker protocol, the browser's content, rendering and networking
// protocols). Built by tools/fuzz/run.sh ipc against the EngineIPC module.
//
// Input: 2 bytes of message kind (little-endian) then the payload. Each set decodes the
// frame; a decoder must throw IPCError for anything it does not accept, never trap. A
// message that decodes must encode to a frame that decodes to the same message (and, for
// the byte-exact sets, to the same bytes).
import EngineIPC

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let kind = UInt16(data[0]) | UInt16(data[1]) << 8
    let frame = Frame(kind: kind, payload: Array(UnsafeBufferPointer(start: data + 2, count: size - 2)))
    roundTrip(WorkerMessage.self, frame)
    roundTrip(ContentMessage.self, frame)
    roundTrip(RenderingMessage.self, frame)
    roundTrip(RenderingControlMessage.self, frame)
    roundTrip(NetworkingMessage.self, frame)
    roundTrip(NetworkingControlMessage.self, frame)
    // The wire reader: the same bytes as a header and payload.
    var reader = ByteReader(Array(UnsafeBufferPointer(start: data, count: size)))
    while !reader.isAtEnd {
        do throws(IPCError) { _ = try reader.string(); _ = try reader.blob(); _ = try reader.u64() } catch { break }
    }
    return 0
}

func roundTrip<M: MessageSet & Equatable>(_: M.Type, _ frame: Frame) {
    let message: M
    do throws(IPCError) { message = try M(frame) } catch {
        if case .malformed(let why) = error, why.isEmpty { fatalError("empty malformed reason for \(M.self)") }
        return
    }
    let again = message.frame
    let decoded: M
    do throws(IPCError) { decoded = try M(again) } catch {
        fatalError("\(M.self): \(message) re-encoded does not decode: \(error)")
    }
    if decoded != message { fatalError("\(M.self): round trip changed \(message) into \(decoded)") }
}
