/// A seeded PRNG (Steele, Lea and Flood's SplitMix64), so that a failing random test reproduces
/// from its seed.
public struct SplitMix64: RandomNumberGenerator {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    /// Uniform in [0, 1), from the top 53 bits.
    public mutating func unit() -> Double { Double(next() >> 11) / Double(UInt64(1) << 53) }
    public mutating func chance(_ p: Double) -> Bool { unit() < p }
}

/// Premultiplied ARGB32 pixels with each colour channel ≤ alpha.
public func randomPremultipliedPixel(using rng: inout SplitMix64, opaque: Bool) -> UInt32 {
    let bits = rng.next()
    let a: UInt32
    if opaque {
        a = 255
    } else {
        switch bits % 4 {
        case 0: a = 0
        case 1: a = 255
        default: a = UInt32(bits >> 8 & 0xFF)
        }
    }
    func channel(_ shift: UInt64) -> UInt32 { a == 0 ? 0 : UInt32((bits >> shift) & 0xFFFF) % (a + 1) }
    return a << 24 | channel(16) << 16 | channel(32) << 8 | channel(48)
}
