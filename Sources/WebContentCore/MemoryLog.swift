#if canImport(Glibc)
import Glibc
#endif
import CLockdown
import EngineIPC

/// `SABLE_MEMORY_LOG=1`: the content process logs how much malloc'd memory it holds at each
/// step of a load (parse, scripts, layout, frame), and how long each step took — what a big page's memory goes to. From
/// mallinfo2, which reads malloc's own counters (no system call: the locked process may ask).
enum MemoryLog {
    static let enabled = getenv("SABLE_MEMORY_LOG") != nil
    nonisolated(unsafe) static var last = Clock.monotonicNanoseconds()

    static func note(_ what: @autoclosure () -> String) {
        guard enabled else { return }
        let before = last, now = Clock.monotonicNanoseconds()
        last = now
        ContentProcess.log("memory \(what()): in use \(sable_malloc_in_use() >> 20) MB (\(sable_malloc_mmapped() >> 20) MB mmap'd), "
                           + "\((now &- before) / 1_000_000) ms since the last step")
    }
}
