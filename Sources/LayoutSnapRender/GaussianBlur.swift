/// A Gaussian blur approximated by three successive box blurs (box widths chosen so the variance
/// matches sigma²), each a running sum: O(1) per pixel whatever the radius.
enum GaussianBlur {
    /// Widths of `passes` boxes whose combined variance is closest to sigma².
    static func boxWidths(sigma: Double, passes: Int = 3) -> [Int] {
        let n = Double(passes)
        let ideal = (12 * sigma * sigma / n + 1).squareRoot()
        var lower = Int(ideal.rounded(.down))
        if lower % 2 == 0 { lower -= 1 }
        lower = max(lower, 1)
        let upper = lower + 2
        let l = Double(lower)
        let m = ((12 * sigma * sigma - n * l * l - 4 * n * l - 3 * n) / (-4 * l - 4)).rounded()
        return (0..<passes).map { Double($0) < m ? lower : upper }
    }

    static func blurA8(_ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, sigma: Double) {
        guard sigma > 0.01, width > 0, height > 0 else { return }
        let widths = boxWidths(sigma: sigma)
        var scratch = [UInt8](repeating: 0, count: max(width, height))
        scratch.withUnsafeMutableBufferPointer { tmp in
            for w in widths {
                let r = (w - 1) / 2
                for y in 0..<height {
                    boxPass(data + y * stride, step: 1, count: width, radius: r, tmp: tmp.baseAddress!)
                }
                for x in 0..<width {
                    boxPass(data + x, step: stride, count: height, radius: r, tmp: tmp.baseAddress!)
                }
            }
        }
    }

    /// One box blur along a line of `count` samples `step` apart; outside the line is 0.
    @inline(__always)
    private static func boxPass(_ line: UnsafeMutablePointer<UInt8>, step: Int, count: Int, radius r: Int, tmp: UnsafeMutablePointer<UInt8>) {
        for i in 0..<count { tmp[i] = line[i * step] }
        let width = UInt32(2 * r + 1)
        let half = width / 2
        var sum: UInt32 = 0
        for i in 0..<min(r, count) { sum += UInt32(tmp[i]) }
        for i in 0..<count {
            let enter = i + r
            if enter < count { sum += UInt32(tmp[enter]) }
            line[i * step] = UInt8((sum + half) / width)
            let leave = i - r
            if leave >= 0 { sum -= UInt32(tmp[leave]) }
        }
    }
}
