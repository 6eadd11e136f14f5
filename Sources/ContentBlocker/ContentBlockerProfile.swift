#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The content blockers of a browser profile: `PROFILE/ContentBlockers/NAME.json` (the source
/// as it was added) and `NAME.sbcb` (compiled), what `sable --content-blocker add|list|remove`
/// manages and what the networking process loads (`loadAll`: each list mapped from its
/// compiled file; a damaged or outdated file refused and recompiled from the stored source).
///
/// `add` compiles before it stores anything: a list that fails (malformed JSON, too many
/// rules, a bad url-filter, …) ends in WebKit's error and leaves the profile as it was, a list
/// of the same name included.
public struct ContentBlockerProfile: Sendable {
    public let directory: String

    /// `profileDirectory/ContentBlockers` (created when a list is added).
    public init(profileDirectory: String) {
        directory = profileDirectory + "/ContentBlockers"
    }

    public static let sourceExtension = ".json"
    public static let compiledExtension = ".sbcb"

    public func sourcePath(_ name: String) -> String { directory + "/" + name + ContentBlockerProfile.sourceExtension }
    public func compiledPath(_ name: String) -> String { directory + "/" + name + ContentBlockerProfile.compiledExtension }

    /// A list's name becomes a file name: letters, digits, `-`, `_`, `.` (not first), at most 100.
    public static func isValidName(_ name: String) -> Bool {
        let u = Array(name.utf8)
        guard !u.isEmpty, u.count <= 100, u[0] != UInt8(ascii: ".") else { return false }
        return u.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2D || c == 0x5F || c == 0x2E
        }
    }

    /// What `add` reports.
    public struct Added: Sendable {
        public var ruleCount: Int
        public var compiledBytes: Int
        /// A list of that name was replaced.
        public var replaced: Bool
    }

    /// Compiles the JSON at `path` and stores it as `name` (source and compiled file, each
    /// written atomically). On failure nothing in the profile changes.
    public func add(name: String, sourcePath path: String) -> Result<Added, ContentRuleListStore.Failure> {
        guard ContentBlockerProfile.isValidName(name) else {
            return .failure(.io("invalid list name \"\(name)\" (letters, digits, '-', '_', '.' not first)"))
        }
        let source: [UInt8]
        switch ContentRuleListStore.readFile(path) {
        case .failure(let f): return .failure(f)
        case .success(let b): source = b
        }
        return add(name: name, source: source)
    }

    /// `add` from the bytes of a list.
    public func add(name: String, source: [UInt8]) -> Result<Added, ContentRuleListStore.Failure> {
        guard ContentBlockerProfile.isValidName(name) else {
            return .failure(.io("invalid list name \"\(name)\" (letters, digits, '-', '_', '.' not first)"))
        }
        let compiled: [UInt8]
        switch source.withUnsafeBufferPointer({ ContentRuleListCompiler.compile(jsonBytes: $0) }) {
        case .failure(let e): return .failure(.rules(e))
        case .success(let bytes): compiled = bytes
        }
        if mkdirs(directory) != 0 { return .failure(.io("\(directory): \(String(cString: strerror(errno)))")) }
        let replaced = access(compiledPath(name), F_OK) == 0
        // The source first: a compiled file is never without the source it can be rebuilt from.
        if case .failure(let f) = ContentRuleListStore.writeFile(sourcePath(name), source) { return .failure(f) }
        if case .failure(let f) = ContentRuleListStore.writeFile(compiledPath(name), compiled) { return .failure(f) }
        let rules = compiled.count >= 20 ? Int(compiled[16]) | Int(compiled[17]) << 8 | Int(compiled[18]) << 16 | Int(compiled[19]) << 24 : 0
        return .success(Added(ruleCount: rules, compiledBytes: compiled.count, replaced: replaced))
    }

    /// The stored lists' names, sorted (the order the networking process applies them in).
    public func names() -> [String] {
        guard let d = opendir(directory) else { return [] }
        defer { closedir(d) }
        var out: [String] = []
        while let entry = readdir(d) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            guard name.hasSuffix(ContentBlockerProfile.sourceExtension) else { continue }
            let base = String(name.dropLast(ContentBlockerProfile.sourceExtension.count))
            if ContentBlockerProfile.isValidName(base) { out.append(base) }
        }
        return out.sorted()
    }

    /// Removes a list; false when there was none of that name.
    @discardableResult
    public func remove(name: String) -> Bool {
        guard ContentBlockerProfile.isValidName(name) else { return false }
        let a = unlink(sourcePath(name)) == 0
        let b = unlink(compiledPath(name)) == 0
        return a || b
    }

    /// Every stored list mapped into a new set. A list whose compiled file is refused is
    /// recompiled from its stored source; a list that cannot be loaded at all is left out and
    /// reported (the others still load).
    public func loadAll() -> (set: ContentBlockerSet, problems: [String]) {
        let set = ContentBlockerSet()
        var problems: [String] = []
        for name in names() {
            switch ContentRuleListStore.loadOrCompile(compiledPath: compiledPath(name), sourcePath: sourcePath(name)) {
            case .failure(let f): problems.append("\(name): \(f.message)")
            case .success(let r):
                if let why = r.recompiled { problems.append("\(name): \(why.message); recompiled from its source") }
                set.add(name: name, list: r.list)
            }
        }
        return (set, problems)
    }

    /// `mkdir -p`.
    func mkdirs(_ path: String) -> Int32 {
        let bytes = Array(path.utf8)
        for (i, c) in bytes.enumerated() where i > 0 && (c == 0x2F || i == bytes.count - 1) {
            let prefix = String(decoding: bytes[..<(c == 0x2F ? i : i + 1)], as: UTF8.self)
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST { return -1 }
        }
        return 0
    }
}
