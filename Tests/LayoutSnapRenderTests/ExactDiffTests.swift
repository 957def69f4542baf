import LayoutSnapCore
import LayoutSnapDiff
import LayoutSnapRunner
import XCTest

/// A frame can fail exactly with nothing above the perceptual threshold: the message must still
/// say what changed (a reviewer saw "0 pixels differ, largest channel difference 0" on a failure).
final class ExactDiffTests: XCTestCase {
    func testFaintChangesAreReported() {
        let a = [UInt32](repeating: 0xFFF9_F9FA, count: 100)
        var b = a
        for i in 0..<10 { b[i] = 0xFFFA_FAFA }  // one level brighter in red and green, like a shadow edge
        let exact = a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { ExactDiff.measure(pa, $0) } }
        XCTAssertEqual(exact.changedPixels, 10)
        XCTAssertEqual(exact.maxChannelDifference, 1)
        let diff = a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { PixelDiff.compare(pa, $0, width: 10, height: 10) }
        }
        XCTAssertEqual(diff.differentPixels, 0)
        let message = FrameComparison.describe(diff, exact: exact)
        XCTAssertEqual(message, "0 pixels differ (0.00%), largest channel difference 1, 10 changed below the threshold")
    }
}
