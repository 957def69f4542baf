import XCTest
@testable import LayoutSnapRender

/// The collapsing blur is the plain blur's bytes, for masks with long identical runs (rounded
/// rectangles at any size, offset and sigma) and for masks without them.
final class GaussianBlurTests: XCTestCase {
    /// A rounded rectangle's coverage: 255 inside, 0 outside, an anti-aliased edge, corner arcs
    /// (4 x 4 subsamples), at a fractional offset.
    static func roundedRectMask(
        width: Int, height: Int, inset: (Double, Double, Double, Double), radius: Double, stride: Int
    ) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: stride * height)
        let (l, t, r, b) = (inset.0, inset.1, Double(width) - inset.2, Double(height) - inset.3)
        for y in 0..<height {
            for x in 0..<width {
                var hits = 0
                for sy in 0..<4 {
                    for sx in 0..<4 {
                        let px = Double(x) + (Double(sx) + 0.5) / 4
                        let py = Double(y) + (Double(sy) + 0.5) / 4
                        guard px >= l, px <= r, py >= t, py <= b else { continue }
                        let cx = min(max(px, l + radius), r - radius)
                        let cy = min(max(py, t + radius), b - radius)
                        if (px - cx) * (px - cx) + (py - cy) * (py - cy) <= radius * radius { hits += 1 }
                    }
                }
                out[y * stride + x] = UInt8((hits * 255 + 8) / 16)
            }
        }
        return out
    }

    func testCollapsingGivesThePlainBlursBytes() {
        var random = SystemRandomNumberGenerator()
        for trial in 0..<60 {
            let width = Int.random(in: 20...420, using: &random)
            let height = Int.random(in: 20...360, using: &random)
            let stride = (width + 3) / 4 * 4
            let sigma = [0.5, 1, 2, 2.5, 4, 6, 9][trial % 7]
            let inset = (
                Double.random(in: 3...30, using: &random), Double.random(in: 3...30, using: &random),
                Double.random(in: 3...30, using: &random), Double.random(in: 3...30, using: &random)
            )
            var mask = Self.roundedRectMask(
                width: width, height: height, inset: inset, radius: Double.random(in: 0...40, using: &random),
                stride: stride)
            // A stray pixel breaks a run.
            if trial % 5 == 0 { mask[Int.random(in: 0..<mask.count, using: &random)] = 77 }
            var plain = mask
            var collapsed = mask
            plain.withUnsafeMutableBufferPointer {
                GaussianBlur.blurA8($0.baseAddress!, width: width, height: height, stride: stride, sigma: sigma)
            }
            collapsed.withUnsafeMutableBufferPointer {
                GaussianBlur.blurA8Collapsing(
                    $0.baseAddress!, width: width, height: height, stride: stride, sigma: sigma)
            }
            XCTAssertEqual(plain, collapsed, "\(width) x \(height), sigma \(sigma), inset \(inset)")
        }
    }

    func testALargeRectangleIsActuallyCollapsed() {
        let mask = Self.roundedRectMask(
            width: 900, height: 700, inset: (20.3, 19.7, 21.1, 18.9), radius: 36, stride: 900)
        mask.withUnsafeBufferPointer { b in
            let p = UnsafeMutablePointer(mutating: b.baseAddress!)
            let columns = GaussianBlur.identicalColumns(p, width: 900, height: 700, stride: 900)
            let rows = GaussianBlur.identicalRows(p, width: 900, height: 700, stride: 900)
            XCTAssertGreaterThan((columns?.hi ?? 0) - (columns?.lo ?? 0), 700)
            XCTAssertGreaterThan((rows?.hi ?? 0) - (rows?.lo ?? 0), 500)
        }
    }
}
