#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files of rule lists: reading a JSON source, writing a compiled list atomically, and
/// loading a compiled list, recompiling it from its source when it is refused (damaged, or
/// written by another format version). What the host's `--content-blocker add|list|remove`
/// will build on.
public enum ContentRuleListStore {
    public enum Failure: Error, Sendable {
        case io(String)
        case rules(ContentExtensionError)

        public var message: String {
            switch self {
            case .io(let m): return m
            case .rules(let e): return "\(e.name): \(e.message)"
            }
        }
    }

    /// The bytes of a file.
    public static func readFile(_ path: String) -> Result<[UInt8], Failure> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(.io("\(path): \(String(cString: strerror(errno)))")) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return .failure(.io("\(path): \(String(cString: strerror(errno)))")) }
        // st_size is a hint (0 for /proc files): read until the end.
        var bytes = [UInt8](repeating: 0, count: max(Int(st.st_size), 4096))
        var done = 0
        while true {
            if done == bytes.count { bytes.append(contentsOf: [UInt8](repeating: 0, count: bytes.count)) }
            let n = bytes.withUnsafeMutableBytes { b in b.baseAddress.map { read(fd, $0 + done, b.count - done) } ?? -1 }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return .failure(.io("\(path): \(String(cString: strerror(errno)))")) }
            if n == 0 { break }
            done += n
        }
        bytes.removeLast(bytes.count - done)
        return .success(bytes)
    }

    /// Writes a file atomically (a temporary file renamed over it).
    public static func writeFile(_ path: String, _ bytes: [UInt8]) -> Result<Void, Failure> {
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return .failure(.io("\(temporary): \(String(cString: strerror(errno)))")) }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { b in b.baseAddress.map { write(fd, $0 + done, b.count - done) } ?? -1 }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { close(fd); unlink(temporary); return .failure(.io("\(temporary): \(String(cString: strerror(errno)))")) }
            done += n
        }
        guard fsync(fd) == 0, close(fd) == 0, rename(temporary, path) == 0 else {
            unlink(temporary)
            return .failure(.io("\(path): \(String(cString: strerror(errno)))"))
        }
        return .success(())
    }

    /// Compiles the JSON list at `sourcePath` into `compiledPath`.
    public static func compile(sourcePath: String, compiledPath: String) -> Result<CompiledRuleList, Failure> {
        let source: [UInt8]
        switch readFile(sourcePath) {
        case .failure(let f): return .failure(f)
        case .success(let b): source = b
        }
        let compiled = source.withUnsafeBufferPointer { ContentRuleListCompiler.compile(jsonBytes: $0) }
        switch compiled {
        case .failure(let e): return .failure(.rules(e))
        case .success(let bytes):
            if case .failure(let f) = writeFile(compiledPath, bytes) { return .failure(f) }
            do { return .success(try CompiledRuleList.load(path: compiledPath)) } catch { return .failure(.io(error.message)) }
        }
    }

    /// Loads a compiled list; when it is refused and a source is given, recompiles it.
    /// `recompiled` tells whether that happened, and why.
    public static func loadOrCompile(compiledPath: String, sourcePath: String?) -> Result<(list: CompiledRuleList, recompiled: CompiledRuleListError?), Failure> {
        do {
            return .success((try CompiledRuleList.load(path: compiledPath), nil))
        } catch {
            guard let sourcePath else { return .failure(.io(error.message)) }
            return compile(sourcePath: sourcePath, compiledPath: compiledPath).map { ($0, error) }
        }
    }
}
