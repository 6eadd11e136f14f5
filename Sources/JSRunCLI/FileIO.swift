#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Small POSIX helpers (no Foundation: start-up time and system calls matter).
enum FileIO {
    struct Failure: Error { var message: String }

    /// Reads a whole file as bytes.
    static func readFile(_ path: String) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw Failure(message: "\(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var result: [UInt8] = []
        var st = stat()
        if fstat(fd, &st) == 0 && st.st_size > 0 { result.reserveCapacity(Int(st.st_size)) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(message: "\(path): \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
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
