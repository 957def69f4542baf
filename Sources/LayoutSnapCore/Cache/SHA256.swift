import CSHA256

/// SHA-256 (FIPS 180-4), incremental: the digest the result cache keys its entries with and the
/// Bazel remote cache protocol names its blobs by. Whole blocks go through the CPU's SHA
/// extensions where it has them (CSHA256), else through `compress` here; the same digest either
/// way (SHA256Tests compares them). The extensions were worth it: hashing each fixture file was
/// the largest single cost of a warm run (7% of its instructions), and the canonical bytes of
/// each fixture a cold run's keys.
public struct SHA256: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    private var buffer: [UInt8] = []
    private var length: UInt64 = 0

    /// Whether whole blocks go through the SHA extensions (false: `compress` here, as the tests
    /// ask to compare).
    private let hardware: Bool

    /// Whether this CPU has the SHA extensions.
    static let cpuHasExtensions = layoutsnap_sha256_hardware() != 0

    public init() { self.init(hardware: Self.cpuHasExtensions) }

    init(hardware: Bool) {
        self.hardware = hardware && Self.cpuHasExtensions
        buffer.reserveCapacity(64)
    }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var rest = bytes[...]
        if !buffer.isEmpty {
            let take = min(64 - buffer.count, rest.count)
            buffer.append(contentsOf: rest.prefix(take))
            rest = rest.dropFirst(take)
            guard buffer.count == 64 else { return }
            buffer.withUnsafeBytes { blocks(UnsafeRawBufferPointer(rebasing: $0[0..<64])) }
            buffer.removeAll(keepingCapacity: true)
        }
        let whole = rest.count / 64 * 64
        if whole > 0 { blocks(UnsafeRawBufferPointer(rebasing: rest.prefix(whole))) }
        buffer.append(contentsOf: rest.dropFirst(whole))
    }

    /// Whole 64-byte blocks, in order.
    private mutating func blocks(_ data: UnsafeRawBufferPointer) {
        if hardware {
            withUnsafeMutableBytes(of: &state) { words in
                layoutsnap_sha256_blocks(
                    words.baseAddress!.assumingMemoryBound(to: UInt32.self), data.baseAddress!, data.count / 64)
            }
            return
        }
        var rest = data[...]
        while rest.count >= 64 {
            compress(UnsafeRawBufferPointer(rebasing: rest.prefix(64)))
            rest = rest.dropFirst(64)
        }
    }

    public mutating func update(_ bytes: [UInt8]) { bytes.withUnsafeBytes { update($0) } }

    public mutating func update(_ text: String) {
        var text = text
        text.withUTF8 { update(UnsafeRawBufferPointer($0)) }
    }

    /// The 32-byte digest. The value is consumed: hash again from a copy made before.
    public consuming func finish() -> [UInt8] {
        let bits = length &* 8
        var tail: [UInt8] = [0x80]
        let padding = (55 &- Int(length % 64) + 64) % 64
        tail += [UInt8](repeating: 0, count: padding)
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
        }
        let counted = length
        update(tail)
        length = counted
        precondition(buffer.isEmpty, "SHA256: padding ends on a block boundary")
        let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
        return words.flatMap { w in
            [
                UInt8(w >> 24), UInt8(truncatingIfNeeded: w >> 16), UInt8(truncatingIfNeeded: w >> 8),
                UInt8(truncatingIfNeeded: w),
            ]
        }
    }

    /// The digest as 64 lowercase hex digits.
    public consuming func hex() -> String { Self.hex(finish()) }

    public static func hex(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(digest.count * 2)
        for byte in digest {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func hex(of bytes: [UInt8]) -> String {
        var h = SHA256()
        h.update(bytes)
        return h.hex()
    }

    /// The round constants, CSHA256's table.
    private static let k: [UInt32] = withUnsafeBytes(of: layoutsnap_sha256_k) { Array($0.bindMemory(to: UInt32.self)) }

    /// One 64-byte block. The schedule is a rolling window of 16 words on the stack: an array
    /// per block, bounds-checked, ran at two thirds of this speed (fixture files are hashed on
    /// every warm run).
    private mutating func compress(_ block: UnsafeRawBufferPointer) {
        @inline(__always) func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
        var (a, b, c, d, e, f, g, h) = state
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 16) { w in
            Self.k.withUnsafeBufferPointer { k in
                for i in 0..<16 {
                    w[i] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))
                }
                for i in 0..<64 {
                    let word: UInt32
                    if i < 16 {
                        word = w[i]
                    } else {
                        let w15 = w[(i - 15) & 15]
                        let w2 = w[(i - 2) & 15]
                        let s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >> 3)
                        let s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >> 10)
                        word = w[i & 15] &+ s0 &+ w[(i - 7) & 15] &+ s1
                        w[i & 15] = word
                    }
                    let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                    let ch = (e & f) ^ (~e & g)
                    let t1 = h &+ s1 &+ ch &+ k[i] &+ word
                    let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                    let maj = (a & b) ^ (a & c) ^ (b & c)
                    let t2 = s0 &+ maj
                    (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
                }
            }
        }
        state = (
            state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g,
            state.7 &+ h
        )
    }
}
