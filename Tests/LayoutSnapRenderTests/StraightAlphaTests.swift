import Foundation
import LayoutSnapTestSupport
import XCTest
@testable import LayoutSnapCore
import LayoutSnapDiff
import LayoutSnapImaging

/// Why `diff` reads PNGs straight: premultiplying loses the colour of translucent pixels, and
/// pixelmatch's counts (Tests/Pixelmatch) come out different.
final class StraightAlphaTests: XCTestCase {
    func testPremultiplyingChangesTheCountStraightKeepsPixelmatchs() throws {
        let folder = TestPaths.packageRoot.appendingPathComponent("Tests/Pixelmatch")
        let a = [UInt8](try Data(contentsOf: folder.appendingPathComponent("t1a.png")))
        let b = [UInt8](try Data(contentsOf: folder.appendingPathComponent("t1b.png")))
        func count(straight: Bool) throws -> Int {
            let x = try PNGDecoder.decode(a, straightAlpha: straight)
            let y = try PNGDecoder.decode(b, straightAlpha: straight)
            var options = DiffOptions(threshold: 0.05, transparencyBackground: .checkerboard)
            options.straightAlpha = straight
            return x.pixels.withUnsafeBufferPointer { pa in
                y.pixels.withUnsafeBufferPointer { pb in
                    PixelDiff.compare(pa, pb, width: x.width, height: x.height, options: options).differentPixels
                }
            }
        }
        // expected.json: t1a vs t1b, threshold 0.05, checkerboard, anti-aliasing excluded: 1.
        XCTAssertEqual(try count(straight: true), 1)
        XCTAssertNotEqual(try count(straight: false), 1)
    }
}
