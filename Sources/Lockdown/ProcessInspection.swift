#if canImport(Glibc)
import Glibc
#endif

/// What /proc says about a (worker) process: its seccomp state and its mappings.
public struct ProcessInspection: Sendable {
    /// `Seccomp:` in /proc/PID/status (2: filter mode).
    public var seccompMode: Int?
    /// `NoNewPrivs:` in /proc/PID/status.
    public var noNewPrivs: Int?
    /// Lines of /proc/PID/maps whose permissions are both writable and executable.
    public var writableExecutableMappings: [String]
    public var mappingCount: Int

    /// Reads /proc/`pid`/status and /proc/`pid`/maps (nil if the process is gone).
    public static func inspect(pid: Int32) -> ProcessInspection? {
        guard let status = readText("/proc/\(pid)/status"), let maps = readText("/proc/\(pid)/maps") else { return nil }
        func field(_ name: String) -> Int? {
            for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
                return Int(line.dropFirst(name.count + 1).trimmingPrefix { $0 == " " || $0 == "\t" })
            }
            return nil
        }
        var wx: [String] = []
        var count = 0
        for line in maps.split(separator: "\n") {
            count += 1
            let perms = line.split(separator: " ", maxSplits: 2).dropFirst().first ?? ""
            if perms.contains("w") && perms.contains("x") { wx.append(String(line)) }
        }
        return ProcessInspection(seccompMode: field("Seccomp"), noNewPrivs: field("NoNewPrivs"),
                                 writableExecutableMappings: wx, mappingCount: count)
    }

    /// Locked down as a worker must be: filter mode, no new privileges, no W+X mapping.
    public var isLockedDown: Bool {
        seccompMode == 2 && noNewPrivs == 1 && writableExecutableMappings.isEmpty && mappingCount > 0
    }

    static func readText(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
