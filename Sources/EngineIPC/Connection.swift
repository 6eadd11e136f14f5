#if canImport(Glibc)
import Glibc
#endif

/// One end of a stream socket carrying frames. Blocking by default; `receive` can wait
/// with a deadline and watch a second descriptor (a signal self-pipe).
public struct Connection: Sendable {
    public let fd: Int32
    public var maxPayload: Int
    /// Write with send(MSG_NOSIGNAL): a dead peer is an error, not a SIGPIPE. (A
    /// locked worker writes with write(2): send is not on its allowlist, and SIGPIPE
    /// when its supervisor is gone is the right end.)
    public var noSignal: Bool

    public init(fd: Int32, maxPayload: Int = Frame.defaultMaxPayload, noSignal: Bool = false) {
        self.fd = fd
        self.maxPayload = maxPayload
        self.noSignal = noSignal
    }

    /// Sends one frame (the whole frame, retrying short writes and EINTR).
    public func send(_ frame: Frame) throws(IPCError) {
        // The header's length is a u32, whatever `maxPayload` says.
        if frame.payload.count > min(maxPayload, Int(UInt32.max)) { throw .oversized(frame.payload.count) }
        try writeAll(frame.encoded())
    }

    public func writeAll(_ bytes: [UInt8]) throws(IPCError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { b in
                noSignal ? Glibc.send(fd, b.baseAddress! + offset, b.count - offset, Int32(MSG_NOSIGNAL))
                         : write(fd, b.baseAddress! + offset, b.count - offset)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw .system(errno)
            }
            offset += n
        }
    }

    /// Receives one frame. `deadline` is a CLOCK_MONOTONIC time in nanoseconds (nil:
    /// wait forever); `watching` is a descriptor whose readability ends the wait
    /// with `.interrupted`.
    public func receive(deadline: UInt64? = nil, watching: Int32? = nil) throws(IPCError) -> Frame {
        var header = [UInt8](repeating: 0, count: Frame.headerSize)
        try readExactly(&header, deadline: deadline, watching: watching, atFrameStart: true)
        var r = ByteReader(header)
        let length = Int(try r.u32())
        let version = try r.u16()
        let kind = try r.u16()
        if version != Frame.protocolVersion { throw .versionMismatch(version) }
        if length > maxPayload { throw .oversized(length) }
        var payload = [UInt8](repeating: 0, count: length)
        try readExactly(&payload, deadline: deadline, watching: watching, atFrameStart: false)
        return Frame(kind: kind, payload: payload)
    }

    func readExactly(_ buffer: inout [UInt8], deadline: UInt64?, watching: Int32?, atFrameStart: Bool) throws(IPCError) {
        var offset = 0
        while offset < buffer.count {
            if deadline != nil || watching != nil { try waitReadable(deadline: deadline, watching: watching) }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == ECONNRESET { throw .closed }
                throw .system(errno)
            }
            if n == 0 { throw atFrameStart && offset == 0 ? .closed : .malformed("connection closed inside a frame") }
            offset += n
        }
    }

    func waitReadable(deadline: UInt64?, watching: Int32?) throws(IPCError) {
        while true {
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: watching ?? -1, events: Int16(POLLIN), revents: 0)]
            var timeout: Int32 = -1
            if let deadline {
                let now = Clock.monotonicNanoseconds()
                if now >= deadline { throw .timedOut }
                timeout = Int32(min((deadline - now + 999_999) / 1_000_000, 1 << 30))
            }
            let rc = poll(&fds, nfds_t(watching == nil ? 1 : 2), timeout)
            if rc < 0 {
                if errno == EINTR { continue }
                throw .system(errno)
            }
            if watching != nil && fds[1].revents != 0 { throw .interrupted }
            if fds[0].revents != 0 { return }
        }
    }

    public func close() { _ = Glibc.close(fd) }
}

/// CLOCK_MONOTONIC in nanoseconds.
public enum Clock {
    public static func monotonicNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}
