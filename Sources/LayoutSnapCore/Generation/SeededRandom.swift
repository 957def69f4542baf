import Foundation

/// The generator's only source of randomness: SplitMix64 (Steele, Lea and Flood, "Fast splittable
/// pseudorandom number generators", 2014), written out so the numbers never depend on the standard
/// library's algorithms, the platform or the Swift version. Same seed, same sequence, forever.
///
/// Deliberately not a `RandomNumberGenerator`: `Int.random(in:using:)` and `shuffled(using:)` are
/// free to change how they consume the generator, which would change generated fixtures.
public struct SeededRandom: Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// A generator for one item of a stream: the same (seed, stream, index) always gives the same
    /// generator, and neighbouring indices give unrelated ones. This is what makes fixture i
    /// independent of every other fixture (prefixes, any order, any number of threads).
    public init(seed: UInt64, stream: UInt64, index: UInt64) {
        state = Self.mix(Self.mix(Self.mix(seed) ^ stream) &+ index)
    }

    static let gamma: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// SplitMix64's output function on `x + gamma`: a bijection with good avalanche.
    static func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ gamma
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public mutating func next() -> UInt64 {
        state = state &+ Self.gamma
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in `range` (Lemire's multiply-shift with rejection, so no modulo bias).
    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        let span = UInt64(bitPattern: Int64(range.upperBound &- range.lowerBound)) &+ 1
        if span == 0 { return Int(bitPattern: UInt(next())) }  // the whole Int range
        var product = next().multipliedFullWidth(by: span)
        if product.low < span {
            let threshold = (0 &- span) % span
            while product.low < threshold { product = next().multipliedFullWidth(by: span) }
        }
        return range.lowerBound &+ Int(truncatingIfNeeded: product.high)
    }

    /// Uniform in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Uniform in `range`, rounded to `decimals` places so the JSON stays short.
    public mutating func double(_ range: ClosedRange<Double>, decimals: Int = 2) -> Double {
        Self.round(range.lowerBound + unit() * (range.upperBound - range.lowerBound), decimals: decimals, within: range)
    }

    /// Log-uniform in `range` (ratios: 1:4 as likely as 4:1), rounded to `decimals` places.
    public mutating func logDouble(_ range: ClosedRange<Double>, decimals: Int = 2) -> Double {
        let lo = log2(range.lowerBound)
        let hi = log2(range.upperBound)
        // Rounding hides any last-bit difference between C libraries' log2 and exp2.
        return Self.round(exp2(lo + unit() * (hi - lo)), decimals: decimals, within: range)
    }

    /// Divides by an exact power of ten, so 0.83 is the double closest to 0.83 (and prints so),
    /// never 83 x 0.01 = 0.8300000000000001.
    static func round(_ v: Double, decimals: Int, within range: ClosedRange<Double>) -> Double {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        return min(max((v * scale).rounded() / scale, range.lowerBound), range.upperBound)
    }

    /// A whole number from one of `ranges`, picked with their weights.
    public mutating func int(weighted ranges: [(ClosedRange<Int>, Double)]) -> Int {
        let range = weighted(ranges)
        return int(range)
    }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { unit() < p }

    public mutating func pick<T>(_ items: [T]) -> T { items[int(0...items.count - 1)] }

    /// One of `items` with the given weights (any positive numbers).
    public mutating func weighted<T>(_ items: [(T, Double)]) -> T {
        let total = items.reduce(0) { $0 + $1.1 }
        var r = unit() * total
        for (item, weight) in items {
            if r < weight { return item }
            r -= weight
        }
        return items[items.count - 1].0
    }
}
