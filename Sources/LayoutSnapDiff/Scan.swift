// Bulk word comparison: the fast path that makes identical (or nearly identical) images cheap.

import LayoutSnapCore

/// Index of the first `i >= start` with `a[i] != b[i]`, or `count` when there is none.
/// Compares 32 pixels (128 bytes) per step with wide loads before narrowing down.
@inline(__always)
func firstMismatch(
    _ a: UnsafePointer<UInt32>, _ b: UnsafePointer<UInt32>, from start: Int, count n: Int
) -> Int {
    var i = start
    let ra = UnsafeRawPointer(a)
    let rb = UnsafeRawPointer(b)
    while i &+ 32 <= n {
        let off = i &* 4
        @inline(__always) func x(_ o: Int) -> UInt64 {
            ra.loadUnaligned(fromByteOffset: off &+ o, as: UInt64.self)
                ^ rb.loadUnaligned(fromByteOffset: off &+ o, as: UInt64.self)
        }
        let m0 = (x(0) | x(8)) | (x(16) | x(24))
        let m1 = (x(32) | x(40)) | (x(48) | x(56))
        let m2 = (x(64) | x(72)) | (x(80) | x(88))
        let m3 = (x(96) | x(104)) | (x(112) | x(120))
        if (m0 | m1) | (m2 | m3) != 0 { break }
        i &+= 32
    }
    while i < n && a[i] == b[i] { i &+= 1 }
    return i
}
