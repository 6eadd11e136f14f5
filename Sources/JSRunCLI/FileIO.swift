#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import EngineIPC

/// Small POSIX helpers (no Foundation: start-up time and system calls matter).
enum FileIO {
    struct Failure: Error { var message: String }

    /// The largest script jsrun reads: what fits in one `evaluate` message to the worker
    /// (the frame's payload limit less room for the name and the fixed fields). Reading
    /// stops there, so an endless input (`/dev/zero`) is an error, not a hang or an abort.
    static let maxScriptBytes = Frame.defaultMaxPayload - (64 << 10)

    /// "the script is larger than ..." for a script over `maxScriptBytes`.
    static func tooLarge(_ what: String) -> Failure {
        Failure(message: "\(what): the script is larger than \(maxScriptBytes) bytes "
                + "(the limit of a message to the worker is \(Frame.defaultMaxPayload >> 20) MiB)")
    }

    /// Reads a whole file as bytes, at most `limit` of them (more is `tooLarge`).
    static func readFile(_ path: String, limit: Int = maxScriptBytes) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw Failure(message: "\(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var st = stat()
        var sizeHint = 0
        if fstat(fd, &st) == 0 && st.st_size > 0 {
            // A regular file's size (a device's or a sparse file's may be anything).
            if Int(st.st_size) > limit { throw tooLarge(path) }
            sizeHint = Int(st.st_size)
        }
        return try readAll(fd, name: path, limit: limit, sizeHint: sizeHint)
    }

    /// Reads `fd` to its end, at most `limit` bytes (more is `tooLarge`).
    static func readAll(_ fd: Int32, name: String, limit: Int = maxScriptBytes, sizeHint: Int = 0) throws(Failure) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(min(sizeHint, limit) + 1)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    // A non-blocking descriptor (a shared terminal or pipe): wait for input.
                    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    _ = poll(&p, 1, -1)
                    continue
                }
                throw Failure(message: "\(name): \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            if result.count + n > limit { throw tooLarge(name) }
            result.append(contentsOf: buffer[0..<n])
        }
        return result
    }

    static func write(_ fd: Int32, _ text: String) {
        var t = text
        t.withUTF8 { b in
            var off = 0
            while off < b.count {
                let n = Glibc.write(fd, b.baseAddress! + off, b.count - off)
                if n < 0 { if errno == EINTR { continue }; return }
                off += n
            }
        }
    }

    static func out(_ text: String) { write(1, text) }
    static func err(_ text: String) { write(2, text) }
}

/// Descriptors 0, 1 and 2 of a process started with some of them closed.
enum StandardDescriptors {
    /// Opens `/dev/null` on each of descriptors 0–2 that is closed, so that no pipe,
    /// socket or file opened later can land there: a worker inherits 1 and 2 as its
    /// stdout and stderr, and would otherwise write its output into one of the
    /// supervisor's own channels. Returns false if `/dev/null` cannot be opened.
    @discardableResult
    static func ensureOpen() -> Bool {
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) < 0 && errno == EBADF {
            // open returns the lowest free descriptor: `fd`, since those below are open.
            let opened = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
            if opened < 0 { return false }
            if opened != fd {
                _ = dup2(opened, fd)
                close(opened)
            }
        }
        return true
    }
}
