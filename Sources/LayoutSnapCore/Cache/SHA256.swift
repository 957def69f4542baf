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
                    words.baseAddress!.assumingMemoryBound(to: UInt32.self),
                    data.baseAddress!.assumingMemoryBound(to: UInt8.self), data.count / 64)
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

    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

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
