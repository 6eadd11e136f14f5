// Finding the test262 checkout and its tests.

import Foundation

/// The name diagnostics start with (`test262`, `test262-parse`).
nonisolated(unsafe) public var programName = "test262"

/// Prints `programName: message` to standard error and exits with status 1.
public func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("\(programName): \(message)\n".utf8))
    exit(1)
}

public func isDirectory(_ path: String) -> Bool {
    var isDir: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
}

public func absolute(_ path: String) -> String {
    let p = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    return URL(fileURLWithPath: p).standardizedFileURL.resolvingSymlinksInPath().path
}

/// The package root: the nearest directory holding Package.swift above `sourceFile`,
/// else above the executable.
public func packageRoot(sourceFile: String = #filePath) -> String? {
    var starts = [URL(fileURLWithPath: sourceFile).deletingLastPathComponent()]
    if let exe = Bundle.main.executableURL { starts.append(exe.deletingLastPathComponent()) }
    for start in starts {
        var dir = start.standardizedFileURL
        while dir.path != "/" {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
                return dir.path
            }
            dir = dir.deletingLastPathComponent()
        }
    }
    return nil
}

/// The test262 checkout: `given` (relative to the current directory first), or the default
/// `../shared/test262` relative to the package root first.
public func resolveRoot(_ given: String?) -> String {
    let rel = given ?? "../shared/test262"
    var candidates: [String] = []
    if rel.hasPrefix("/") {
        candidates = [rel]
    } else {
        let cwd = FileManager.default.currentDirectoryPath + "/" + rel
        let pkg = packageRoot().map { $0 + "/" + rel }
        // An explicit relative --root means the current directory first; the default
        // means the package root first.
        candidates = given != nil ? [cwd] + (pkg.map { [$0] } ?? []) : (pkg.map { [$0] } ?? []) + [cwd]
    }
    for c in candidates where isDirectory(c + "/test") { return absolute(c) }
    fail("no test262 checkout (a directory with test/) at \(candidates.joined(separator: " or "))")
}

/// Turns a PATHS argument into a prefix of paths relative to ROOT/test.
public func relativePrefix(_ arg: String, root: String) -> String {
    let testDir = root + "/test"
    var p = arg
    if p.hasPrefix("/") || FileManager.default.fileExists(atPath: p) {
        let abs = absolute(p)
        if abs == testDir { return "" }
        if abs.hasPrefix(testDir + "/") { return String(abs.dropFirst(testDir.count + 1)) }
        if abs == root { return "" }
        if !p.hasPrefix("/") && !FileManager.default.fileExists(atPath: testDir + "/" + p)
            && !FileManager.default.fileExists(atPath: root + "/" + p) {
            fail("\(arg) is not inside \(testDir)")
        }
    }
    while p.hasPrefix("./") { p.removeFirst(2) }
    while p.hasSuffix("/") { p.removeLast() }
    if p == "test" { return "" }
    if p.hasPrefix("test/") && !FileManager.default.fileExists(atPath: testDir + "/" + p) {
        p.removeFirst(5)
    }
    return p
}

/// All test files under ROOT/test, relative to it, sorted. (readdir: FileManager's
/// enumerator takes half a second for the 30,000 files.)
public func enumerateTests(testDir: String) -> [String] {
    var out: [String] = []
    func walk(_ rel: String) {
        let path = rel.isEmpty ? testDir : testDir + "/" + rel
        guard let dir = opendir(path) else {
            if rel.isEmpty { fail("cannot list \(testDir)") }
            return
        }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name.hasPrefix(".") { continue }
            let child = rel.isEmpty ? name : rel + "/" + name
            var type = Int32(entry.pointee.d_type)
            if type == Int32(DT_UNKNOWN) || type == Int32(DT_LNK) {
                var st = stat()
                if stat(testDir + "/" + child, &st) != 0 { continue }
                type = (st.st_mode & S_IFMT) == S_IFDIR ? Int32(DT_DIR) : Int32(DT_REG)
            }
            if type == Int32(DT_DIR) {
                walk(child)
            } else if name.hasSuffix(".js") && !name.contains("_FIXTURE") {
                out.append(child)
            }
        }
    }
    walk("")
    out.sort()
    return out
}

/// The tests under `testDir` selected by PATHS arguments (files or directories) and a
/// substring filter; exits with a message when an argument matches nothing.
public func selectTests(_ allTests: [String], paths: [String], filter: String?, root: String) -> [String] {
    let testDir = root + "/test"
    let prefixes = paths.map { relativePrefix($0, root: root) }
    var selected = allTests
    if !prefixes.isEmpty {
        for (arg, p) in zip(paths, prefixes) where !allTests.contains(where: { p.isEmpty || $0 == p || $0.hasPrefix(p + "/") }) {
            fail("no tests match \(arg) (as \(p.isEmpty ? "test/" : p) under \(testDir))")
        }
        selected = allTests.filter { t in prefixes.contains { p in p.isEmpty || t == p || t.hasPrefix(p + "/") } }
    }
    if let f = filter { selected = selected.filter { $0.contains(f) } }
    return selected
}

/// The whole contents of a file, or nil (errno set) if it cannot be read.
public func readFile(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0 else { return nil }
    let size = Int(st.st_size)
    var buf = [UInt8](repeating: 0, count: size)
    var got = 0
    while got < size {
        let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, size - got) }
        if n < 0 { if errno == EINTR { continue }; return nil }
        if n == 0 { break }
        got += n
    }
    buf.removeSubrange(got...)
    return buf
}

/// Writes `text` to `path` (atomically), or exits.
public func writeFile(_ path: String, _ text: String) {
    do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch {
        fail("cannot write \(path): \(error)")
    }
}
