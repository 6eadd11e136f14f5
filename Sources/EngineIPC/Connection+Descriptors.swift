#if canImport(Glibc)
import Glibc
#endif

// Anonymous endpoints: one end of a new socket pair, passed to another process with
// SCM_RIGHTS. A descriptor travels alone, after the frame that announces it: one marker
// byte with the descriptor as ancillary data. `receive()` reads with read(2), which would
// drop ancillary data, so the receiver of an announcing frame calls `receiveDescriptor()`
// next.

extension Connection {
    /// A connected pair of stream sockets (close-on-exec): the two ends of a new endpoint.
    public static func pair(maxPayload: Int = Frame.defaultMaxPayload) throws(IPCError) -> (Connection, Connection) {
        var sv: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &sv) == 0 else {
            throw .system(errno)
        }
        return (Connection(fd: sv[0], maxPayload: maxPayload, noSignal: true),
                Connection(fd: sv[1], maxPayload: maxPayload, noSignal: true))
    }

    /// The marker byte that carries a descriptor.
    static let descriptorMarker: UInt8 = 0x44

    // cmsghdr is {size_t len; int level; int type;} followed by the data at size_t
    // alignment: CMSG_LEN(sizeof(int)) and CMSG_SPACE(sizeof(int)), which Swift cannot import.
    static let cmsgHeaderSize = (MemoryLayout<cmsghdr>.size + MemoryLayout<Int>.size - 1) & ~(MemoryLayout<Int>.size - 1)
    static let cmsgSpace = cmsgHeaderSize + ((MemoryLayout<Int32>.size + MemoryLayout<Int>.size - 1) & ~(MemoryLayout<Int>.size - 1))

    /// Sends a descriptor (the receiver gets its own copy; close yours when done).
    public func sendDescriptor(_ descriptor: Int32) throws(IPCError) {
        var marker = Connection.descriptorMarker
        let control = UnsafeMutableRawPointer.allocate(byteCount: Connection.cmsgSpace, alignment: MemoryLayout<Int>.alignment)
        defer { control.deallocate() }
        control.initializeMemory(as: UInt8.self, repeating: 0, count: Connection.cmsgSpace)
        let header = control.assumingMemoryBound(to: cmsghdr.self)
        header.pointee.cmsg_len = Connection.cmsgHeaderSize + MemoryLayout<Int32>.size
        header.pointee.cmsg_level = SOL_SOCKET
        header.pointee.cmsg_type = Int32(SCM_RIGHTS)
        control.storeBytes(of: descriptor, toByteOffset: Connection.cmsgHeaderSize, as: Int32.self)
        let rc = withUnsafeMutablePointer(to: &marker) { m -> Int in
            var iov = iovec(iov_base: UnsafeMutableRawPointer(m), iov_len: 1)
            return withUnsafeMutablePointer(to: &iov) { iovp -> Int in
                var msg = msghdr()
                msg.msg_iov = iovp
                msg.msg_iovlen = 1
                msg.msg_control = control
                msg.msg_controllen = Connection.cmsgSpace
                while true {
                    let n = sendmsg(fd, &msg, Int32(MSG_NOSIGNAL))
                    if n < 0 && errno == EINTR { continue }
                    return n
                }
            }
        }
        if rc < 0 { throw .system(errno) }
        if rc != 1 { throw .malformed("short descriptor send") }
    }

    /// Receives a descriptor sent by `sendDescriptor` (close-on-exec). Anything else there
    /// (another byte, no descriptor, several) is malformed; extra descriptors are closed.
    public func receiveDescriptor(deadline: UInt64? = nil) throws(IPCError) -> Int32 {
        if deadline != nil { try waitReadable(deadline: deadline, watching: nil) }
        var marker: UInt8 = 0
        let space = Connection.cmsgSpace * 4
        let control = UnsafeMutableRawPointer.allocate(byteCount: space, alignment: MemoryLayout<Int>.alignment)
        defer { control.deallocate() }
        control.initializeMemory(as: UInt8.self, repeating: 0, count: space)
        var controlLength = 0
        var flags: Int32 = 0
        let rc = withUnsafeMutablePointer(to: &marker) { m -> Int in
            var iov = iovec(iov_base: UnsafeMutableRawPointer(m), iov_len: 1)
            return withUnsafeMutablePointer(to: &iov) { iovp -> Int in
                var msg = msghdr()
                msg.msg_iov = iovp
                msg.msg_iovlen = 1
                msg.msg_control = control
                msg.msg_controllen = space
                while true {
                    let n = recvmsg(fd, &msg, Int32(MSG_CMSG_CLOEXEC))
                    if n < 0 && errno == EINTR { continue }
                    controlLength = msg.msg_controllen
                    flags = msg.msg_flags
                    return n
                }
            }
        }
        if rc < 0 { throw .system(errno) }
        if rc == 0 { throw .closed }
        // Walk the control messages; keep exactly one SCM_RIGHTS descriptor.
        var descriptors: [Int32] = []
        var offset = 0
        while offset + Connection.cmsgHeaderSize <= controlLength {
            let header = (control + offset).assumingMemoryBound(to: cmsghdr.self).pointee
            let length = Int(header.cmsg_len)
            guard length >= Connection.cmsgHeaderSize, offset + length <= controlLength else { break }
            if header.cmsg_level == SOL_SOCKET && header.cmsg_type == Int32(SCM_RIGHTS) {
                let count = (length - Connection.cmsgHeaderSize) / MemoryLayout<Int32>.size
                for i in 0..<count {
                    descriptors.append((control + offset + Connection.cmsgHeaderSize + i * 4).loadUnaligned(as: Int32.self))
                }
            }
            offset += (length + MemoryLayout<Int>.size - 1) & ~(MemoryLayout<Int>.size - 1)
        }
        guard marker == Connection.descriptorMarker, descriptors.count == 1, flags & Int32(MSG_CTRUNC) == 0 else {
            for d in descriptors { _ = Glibc.close(d) }
            throw .malformed("expected one descriptor")
        }
        return descriptors[0]
    }
}
