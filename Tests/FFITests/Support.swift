import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The directory of the test bundle: `swift test` builds jsrun and jsrun-ffi-worker there.
let binDirectory: String = {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    var dir = n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    while let last = dir.last, last != "/" { dir.removeLast() }
    return dir
}()
let jsrunPath = binDirectory + "jsrun"
let ffiWorkerPath = binDirectory + "jsrun-ffi-worker"

/// Tests/FFITests/Fixtures.
let fixtures: String = {
    var dir = #filePath
    while let last = dir.last, last != "/" { dir.removeLast() }
    return dir + "Fixtures/"
}()

/// The test library (Fixtures/ffitest.c), built once with cc into a temporary directory.
let testLibrary: String? = {
    var template = Array("/tmp/sable-ffi-XXXXXX".utf8CString)
    guard let dir = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }).map({ String(cString: $0) }) else { return nil }
    let path = dir + "/libffitest.so"
    let r = run(["/bin/sh", "-c", "cc -shared -fPIC -O1 -o '\(path)' '\(fixtures)ffitest.c' -lpthread"])
    return r.status == 0 ? path : nil
}()

struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs `argv` (argv[0] a path) with stdin from /dev/null, extra environment variables
/// added, and returns its exit status (128+N for signal N) and output.
func run(_ argv: [String], environment: [String] = []) -> Run {
    var out: [Int32] = [-1, -1], err: [Int32] = [-1, -1]
    pipe(&out)
    pipe(&err)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, out[1], 1)
    posix_spawn_file_actions_adddup2(&actions, err[1], 2)
    for fd in [out[0], out[1], err[0], err[1]] { posix_spawn_file_actions_addclose(&actions, fd) }
    let args: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
    defer { for p in args { free(p) } }
    var env: [UnsafeMutablePointer<CChar>?] = []
    var e = environ
    while let p = e.pointee { env.append(strdup(p)); e += 1 }
    for v in environment { env.append(strdup(v)) }
    env.append(nil)
    defer { for p in env { free(p) } }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, argv[0], &actions, nil, args, env)
    close(out[1]); close(err[1])
    guard rc == 0 else { close(out[0]); close(err[0]); return Run(status: -1, stdout: "", stderr: "spawn failed") }
    var bytes: [[UInt8]] = [[], []]
    var open = [true, true]
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while open[0] || open[1] {
        var fds = [pollfd(fd: open[0] ? out[0] : -1, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: open[1] ? err[0] : -1, events: Int16(POLLIN), revents: 0)]
        if poll(&fds, 2, 120_000) <= 0 { break }
        for i in 0..<2 where fds[i].revents != 0 {
            let n = read(fds[i].fd, &buffer, buffer.count)
            if n <= 0 { open[i] = false } else { bytes[i] += buffer[0..<n] }
        }
    }
    close(out[0]); close(err[0])
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    let signaled = (status & 0x7F) != 0
    return Run(status: signaled ? 128 + (status & 0x7F) : (status >> 8) & 0xFF,
               stdout: String(decoding: bytes[0], as: UTF8.self), stderr: String(decoding: bytes[1], as: UTF8.self))
}

func jsrun(_ args: [String], environment: [String] = []) -> Run { run([jsrunPath] + args, environment: environment) }
