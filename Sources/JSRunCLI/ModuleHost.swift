#if canImport(Glibc)
import Glibc
#endif
import EngineIPC
import JSRuntime

/// Module sources for jsrun. The locked worker cannot open files: it asks the supervisor
/// (`loadModule`), which resolves the specifier against the importing file's directory,
/// canonicalizes it (`realpath`: symlinks cannot lead out) and reads it only when it lies
/// under the allowed root — the entry module's directory, or `--allow-read=DIR`.
struct ModuleHost {
    /// The canonical directory under which modules may be read.
    let root: String

    /// `root` made canonical (nil if it does not exist).
    init?(root: String) {
        guard let r = ModuleHost.realPath(root) else { return nil }
        self.root = r
    }

    static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    static func currentDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return "." }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The key and source of `specifier` imported from `referrer` (a module key, a
    /// script's name as given, or empty), or an error message naming the path.
    func load(_ specifier: String, referrer: String) -> ModuleSourceReply {
        guard ModulePath.isPath(specifier) else {
            return ModuleSourceReply(key: "", source: [], error: "Cannot find package '\(specifier)'"
                + (referrer.isEmpty ? "" : " imported from \(referrer)")
                + ": jsrun resolves relative and absolute paths ('./m.js', '/a/m.js'), not package names")
        }
        var directory = referrer.isEmpty || referrer.hasPrefix("[") ? ModuleHost.currentDirectory() : ModulePath.directory(of: referrer)
        if !directory.hasPrefix("/") { directory = ModuleHost.currentDirectory() + "/" + directory }
        let path = ModulePath.resolve(specifier, from: directory)
        guard let real = ModuleHost.realPath(path) else {
            return ModuleSourceReply(key: path, source: [], error: "Cannot find module '\(path)'" + (referrer.isEmpty ? "" : " imported from \(referrer)"))
        }
        guard real == root || real.hasPrefix(root == "/" ? "/" : root + "/") else {
            return ModuleSourceReply(key: real, source: [], error: "Cannot import '\(real)': it is outside the directory jsrun may read (\(root)); allow it with --allow-read=DIR")
        }
        do {
            return ModuleSourceReply(key: real, source: try FileIO.readFile(real))
        } catch {
            return ModuleSourceReply(key: real, source: [], error: "Cannot read module \(error.message)")
        }
    }

    /// Whether node would run `path` as a module: `.mjs`; `.cjs` never; `.js` when the
    /// nearest package.json says `"type": "module"`.
    static func isModuleFile(_ path: String) -> Bool {
        if path.hasSuffix(".mjs") { return true }
        if !path.hasSuffix(".js") { return false }
        guard var dir = realPath(path).map({ ModulePath.directory(of: $0) }) else { return false }
        while true {
            if let bytes = try? FileIO.readFile(dir == "/" ? "/package.json" : dir + "/package.json", limit: 1 << 20) {
                return packageTypeIsModule(bytes)
            }
            if dir == "/" { return false }
            dir = ModulePath.directory(of: dir)
        }
    }

    /// The top-level `"type"` member of a package.json is `"module"` (a scan of the
    /// outermost object's members; no JSON library in this target).
    static func packageTypeIsModule(_ b: [UInt8]) -> Bool {
        var i = 0, depth = 0
        var lastString: String? = nil
        var afterColonKey: String? = nil
        while i < b.count {
            let c = b[i]
            switch c {
            case UInt8(ascii: "\""):
                var j = i + 1
                var s: [UInt8] = []
                while j < b.count && b[j] != UInt8(ascii: "\"") {
                    if b[j] == UInt8(ascii: "\\") { j += 1 }
                    if j < b.count { s.append(b[j]) }
                    j += 1
                }
                let str = String(decoding: s, as: UTF8.self)
                if depth == 1, afterColonKey == "type" { return str == "module" }
                lastString = str
                afterColonKey = nil
                i = j + 1
                continue
            case UInt8(ascii: ":"):
                if depth == 1 { afterColonKey = lastString }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1; afterColonKey = nil
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
            case UInt8(ascii: ","):
                afterColonKey = nil; lastString = nil
            default:
                break
            }
            i += 1
        }
        return false
    }
}

extension Supervisor {
    /// Waits for the result of the request sent last, answering the worker's module
    /// requests on the way (refused when `host` is nil).
    func awaitResult(host: ModuleHost?) throws(End) -> EvaluateResult {
        while true {
            switch try receive() {
            case .result(let r):
                return r
            case .loadModule(let specifier, let referrer):
                let reply = host?.load(specifier, referrer: referrer)
                    ?? ModuleSourceReply(key: "", source: [], error: "Cannot load module '\(specifier)': this worker may not read files")
                try send(.moduleSource(reply))
            default:
                throw fail(.protocolError("expected a result"))
            }
        }
    }
}
