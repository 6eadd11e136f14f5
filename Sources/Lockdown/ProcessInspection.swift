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
    /// Executable mappings backed by no file (JIT code; none before the JIT runs).
    public var anonymousExecutableMappings: [String]
    /// `CapInh`, `CapPrm`, `CapEff`, `CapBnd`, `CapAmb` in /proc/PID/status (hex masks).
    public var capabilities: [String: UInt64]

    /// Reads /proc/`pid`/status and /proc/`pid`/maps (nil if the process is gone).
    public static func inspect(pid: Int32) -> ProcessInspection? {
        guard let status = readText("/proc/\(pid)/status"), let maps = readText("/proc/\(pid)/maps") else { return nil }
        func field(_ name: String) -> Int? {
            for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
                return Int(line.dropFirst(name.count + 1).trimmingPrefix { $0 == " " || $0 == "\t" })
            }
            return nil
        }
        var capabilities: [String: UInt64] = [:]
        for line in status.split(separator: "\n") where line.hasPrefix("Cap") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, let v = UInt64(parts[1].trimmingPrefix { $0 == " " || $0 == "\t" }, radix: 16) {
                capabilities[String(parts[0])] = v
            }
        }
        var wx: [String] = []
        var anonymousX: [String] = []
        var count = 0
        for line in maps.split(separator: "\n") {
            count += 1
            // address perms offset dev inode [path]
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            let perms = fields.count > 1 ? fields[1] : ""
            if perms.contains("w") && perms.contains("x") { wx.append(String(line)) }
            let path = fields.count > 5 ? fields[5...].joined(separator: " ") : ""
            let fileBacked = path.hasPrefix("/") || path == "[vdso]" || path == "[vsyscall]"
            if perms.contains("x") && !fileBacked { anonymousX.append(String(line)) }
        }
        return ProcessInspection(seccompMode: field("Seccomp"), noNewPrivs: field("NoNewPrivs"),
                                 writableExecutableMappings: wx, mappingCount: count,
                                 anonymousExecutableMappings: anonymousX, capabilities: capabilities)
    }

    /// Locked down as a worker must be: filter mode, no new privileges, no capability in
    /// any set, no W+X mapping and (before any JIT code exists) no anonymous executable one.
    public var isLockedDown: Bool {
        seccompMode == 2 && noNewPrivs == 1 && writableExecutableMappings.isEmpty && mappingCount > 0
            && anonymousExecutableMappings.isEmpty && capabilitiesCleared
    }

    /// Every capability set read and empty.
    public var capabilitiesCleared: Bool {
        let sets = ["CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"]
        return sets.allSatisfy { capabilities[$0] == 0 }
    }

    /// `CapEff 0 CapPrm 0 ...` for reports.
    public var capabilitySummary: String {
        ["CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"].map { "\($0) \(String(capabilities[$0] ?? 0xFFFF, radix: 16))" }.joined(separator: " ")
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
