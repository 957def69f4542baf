import XCTest
@testable import LayoutSnapCore

final class LineMetricsTests: XCTestCase {
    /// docs/fixtures/README.md "Text": body is 20.29 / 42.29 / 64.29 / 86.29 pt for 1-4 lines.
    func testBodyHeightsFollowIOS() {
        let body = TextStyle.body.font
        XCTAssertEqual(LineMetrics.height(lines: 1, font: body), 20.2878, accuracy: 1e-9)
        XCTAssertEqual(LineMetrics.height(lines: 2, font: body), 42.2878, accuracy: 1e-9)
        XCTAssertEqual(LineMetrics.height(lines: 3, font: body), 64.2878, accuracy: 1e-9)
        XCTAssertEqual(LineMetrics.height(lines: 4, font: body), 86.2878, accuracy: 1e-9)
    }

    func testExplicitSizeUsesNaturalLineForEveryLine() {
        let font = FontSpec(size: 22, weight: .bold)
        XCTAssertEqual(LineMetrics.height(lines: 1, font: font), 26.2548, accuracy: 1e-9)
        XCTAssertEqual(LineMetrics.height(lines: 3, font: font), 3 * 26.2548, accuracy: 1e-9)
    }

    func testLineSpacingGoesBetweenLinesOnly() {
        let title2 = TextStyle.title2.font
        XCTAssertEqual(LineMetrics.height(lines: 1, font: title2, lineSpacing: 10), 1.1934 * 22, accuracy: 1e-9)
        XCTAssertEqual(
            LineMetrics.height(lines: 3, font: title2, lineSpacing: 10), 1.1934 * 22 + 2 * 38, accuracy: 1e-9)
    }

    func testBaselinesSitOnTheDescender() {
        let body = TextStyle.body.font
        let boxes = LineMetrics.boxes(lines: 2, font: body)
        XCTAssertEqual(boxes.baselines[0], 0.952 * 17, accuracy: 1e-9)
        XCTAssertEqual(boxes.baselines[1], 42.2878 - (1.1934 - 0.952) * 17, accuracy: 1e-9)
    }
}
