import XCTest
@testable import LayoutSnapCore
import LayoutSnapTestSupport

/// The pure parts of `layoutsnap preview`: the command-line curve overrides and the overlay
/// geometry (line boxes and baselines from iOS metrics).
final class PreviewCoreTests: XCTestCase {
    func testCurveOverrideParsing() throws {
        XCTAssertEqual(try CurveOverride.parse("linear").get(), .timing(.linear))
        XCTAssertEqual(try CurveOverride.parse("spring").get(), .spring(.default))
        XCTAssertEqual(
            try CurveOverride.parse("spring:0.4,0.7").get(), .spring(Spring(response: 0.4, dampingFraction: 0.7)))
        for bad in ["bouncy", "spring:", "spring:0.4", "spring:0,1", "spring:1,11", "spring:a,b", "Linear"] {
            XCTAssertThrowsError(try CurveOverride.parse(bad).get(), bad)
        }
    }

    func testCurveAndDurationReplaceAPostCardsAnimation() throws {
        let post = Fixture(
            id: "p", file: "p.json", device: Device.named("iphone-15")!,
            canvas: Canvas(width: 390, height: 600, scale: 1),
            appearance: .light, fps: 60, tolerance: nil,
            content: PostFixture(curve: .timing(.easeInOut, duration: 0.3)))
        func curve(_ o: FixtureOverrides) throws -> AnimationCurve {
            guard let p = try o.apply(to: post).content as? PostFixture else {
                throw FixtureError(file: "p.json", message: "the override turned the post into another kind")
            }
            return p.curve
        }
        XCTAssertEqual(
            try curve(FixtureOverrides(duration: 0.5)), .timing(.easeInOut, duration: 0.5), "duration keeps the shape")
        XCTAssertEqual(
            try curve(FixtureOverrides(curve: .timing(.linear))), .timing(.linear, duration: 0.3),
            "shape keeps the duration")
        XCTAssertEqual(try curve(FixtureOverrides(curve: .spring(.default))), .spring(.default))
        XCTAssertThrowsError(
            try curve(FixtureOverrides(curve: .spring(.default), duration: 2)), "a spring has no duration")
        XCTAssertEqual(try FixtureOverrides(appearance: .dark).apply(to: post).appearance, .dark)

        var transcript = post
        transcript.content = TranscriptFixture()
        XCTAssertThrowsError(try FixtureOverrides(curve: .timing(.linear)).apply(to: transcript)) {
            XCTAssertTrue("\($0)".contains("--curve applies only to post fixtures"), "\($0)")
        }
    }

    /// Two lines of body (17 pt) at (16, 100): natural boxes 17 x 1.1934 = 20.29 tall, their tops
    /// an ascent (0.952 x 17 = 16.18) above each baseline; the second baseline 22 pt lower
    /// (body's leading). A clip cuts the second line.
    func testOverlayLinesFollowIOSMetrics() throws {
        let body = FontSpec(size: 17, leading: 22)
        let text = StyledText(runs: [TextRun("aaaa bbbb")], font: body, width: 40)
        let boxes = LineMetrics.boxes(lines: 2, font: body)
        var frame = LayoutFrame(
            index: 0, time: 0, progress: 0,
            elements: [LayoutElement(id: "text", rect: Rect(x: 16, y: 100, width: 40, height: 42.29))],
            drawList: [
                .text(TextDraw(text: text, origin: Point(x: 16, y: 100), baselines: boxes.baselines, color: .black))
            ])
        let measurer = FakeMeasurer()
        let overlay = try FrameOverlay(frame: frame, measurer: measurer)
        XCTAssertEqual(overlay.elements.map(\.id), ["text"])
        XCTAssertEqual(overlay.lines.count, 2)
        XCTAssertEqual(overlay.lines[0].baseline, 100 + 16.18, accuracy: 0.01)
        XCTAssertEqual(overlay.lines[1].baseline - overlay.lines[0].baseline, 22, accuracy: 1e-9)
        XCTAssertEqual(overlay.lines[0].box.y, 100, accuracy: 1e-9)
        XCTAssertEqual(overlay.lines[0].box.height, 20.29, accuracy: 0.01)
        XCTAssertEqual(overlay.lines[0].box.x, 16)
        let measured = try measurer.measure(text)
        XCTAssertEqual(overlay.lines[0].box.width, measured.lines[0].width)

        frame.drawList = [
            .text(
                TextDraw(
                    text: text, origin: Point(x: 16, y: 100), baselines: boxes.baselines, color: .black,
                    clip: Rect(x: 0, y: 0, width: 390, height: 125)))
        ]
        let clipped = try FrameOverlay(frame: frame, measurer: measurer)
        XCTAssertEqual(clipped.lines.count, 2, "the second line's box starts at 122 and is cut at 125")
        XCTAssertEqual(clipped.lines[1].box.maxY, 125, accuracy: 1e-9)
        let ops = clipped.drawOps(scale: 2)
        XCTAssertEqual(ops.count, 2 * 2 + 2, "per line a box and a baseline; per element a rect and its id")
    }
}
