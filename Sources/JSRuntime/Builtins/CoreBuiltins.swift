// Shared helpers of the builtins (each group lives in its own file).

#if canImport(Glibc)
import Glibc
#endif

extension Runtime {
    func thisObject(_ this: Value, _ name: String) throws(JSException) -> JSObject {
        if this.isNullish { throw try typeError("\(name) called on null or undefined") }
        return try toObject(this)
    }

    func string(_ v: Value) throws(JSException) -> String { try flatten(try toString(v)).swiftString }

    /// xorshift64* seeded from the heap's address (seeds are set up before lockdown).
    func nextRandom() -> UInt64 {
        if randomState == 0 { randomState = UInt64(UInt(bitPattern: Unmanaged.passUnretained(heap).toOpaque())) | 1 }
        randomState ^= randomState >> 12
        randomState ^= randomState << 25
        randomState ^= randomState >> 27
        return randomState &* 2685821657736338717
    }
}
