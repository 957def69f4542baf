import XCTest
import LayoutSnapCore
import LayoutSnapTestSupport

/// Post card geometry against numbers worked out by hand from docs/fixtures/post.md,
/// with the fake measurer (each character 0.5 x size wide).
///
/// The fixture: canvas 390 wide (card x = (390 - 370) / 2 = 10, y = 12); title "Trip" (1 line);
/// summary of ten 4-letter words (7 fit in 258 pt at 7.5 pt a character → 2 lines); body
/// "Line one\nLine two" (2 body lines); a 3:2 image; an author.
///   titleSummaryHeight = 8 + 1.1934·22 + 4 + 2·1.1934·15 + 8 = 8 + 26.2548 + 4 + 35.802 + 8 = 82.0568
///   image expanded     = 350 / 1.5 = 233.3333
///   body height        = 20.2878 + 22 = 42.2878
///   card expanded      = 82.0568 + 16 + 233.3333 + 16 + 42.2878 + 24 + 15 + 16 = 444.6779
final class PostRulesTests: XCTestCase {
    let canvas = Canvas(width: 390, height: 700, scale: 2)

    func post(image: Bool = true, steps: [PostStep] = [PostStep(event: .expand)]) -> PostFixture {
        PostFixture(
            title: "Trip", summary: Array(repeating: "word", count: 10).joined(separator: " "),
            body: "Line one\nLine two", image: image ? PostImage(path: nil, aspectRatio: 1.5) : nil,
            author: "Maya", steps: steps)
    }

    func rect(_ frame: LayoutFrame, _ id: String, file: StaticString = #filePath, line: UInt = #line) -> Rect {
        guard let r = frame.element(id)?.rect else {
            XCTFail("no element \(id)", file: file, line: line)
            return Rect(x: 0, y: 0, width: 0, height: 0)
        }
        return r
    }

    func assertRect(
        _ r: Rect, _ x: Double, _ y: Double, _ w: Double, _ h: Double, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        XCTAssertEqual(r.x, x, accuracy: 1e-3, "x", file: file, line: line)
        XCTAssertEqual(r.y, y, accuracy: 1e-3, "y", file: file, line: line)
        XCTAssertEqual(r.width, w, accuracy: 1e-3, "width", file: file, line: line)
        XCTAssertEqual(r.height, h, accuracy: 1e-3, "height", file: file, line: line)
    }

    func testMeasuredOnce() throws {
        let rules = try PostRules(post: post(), canvas: canvas, measurer: FakeMeasurer())
        XCTAssertEqual(rules.measured.titleSummaryHeight, 82.0568, accuracy: 1e-9)
        XCTAssertEqual(rules.expandedImageHeight, 233.3333, accuracy: 1e-4)
        XCTAssertEqual(rules.measured.body.height, 42.2878, accuracy: 1e-9)
        XCTAssertEqual(rules.expandedCardHeight, 444.6779, accuracy: 1e-4)
        XCTAssertEqual(rules.cardX, 10)
    }

    func testExpandFrames0_9_18() throws {
        let states = try PostRules(post: post(), canvas: canvas, measurer: FakeMeasurer()).states(
            fps: 60, palette: .light)
        XCTAssertEqual(states.map(\.name), ["initial", "01-expand"])
        let expand = states[1].frames
        XCTAssertEqual(expand.count, 19)

        let f0 = expand[0]
        XCTAssertEqual(f0.progress, 0)
        assertRect(rect(f0, "card"), 10, 12, 370, 100)
        assertRect(rect(f0, "title"), 18, 20, 258, 26.2548)
        assertRect(rect(f0, "summary"), 18, 50.2548, 258, 35.802)
        assertRect(rect(f0, "image"), 288, 30, 80, 80)  // (350 - 72, 18) in the card
        assertRect(rect(f0, "body"), 20, 126, 350, 42.2878)  // 18 + 80 + 16 below the card top
        assertRect(rect(f0, "author"), 20, 192.2878, 350, 17.901)  // body top + 42.2878 + 24
        XCTAssertEqual(f0.element("body")?["revealed"], .number(0))

        let f9 = expand[9]
        XCTAssertEqual(f9.progress, 0.5, accuracy: 1e-9)  // easeInOut is symmetric
        assertRect(rect(f9, "card"), 10, 12, 370, 272.33897)  // lerp(100, 444.6779, 0.5)
        assertRect(rect(f9, "image"), 154, 66.0284, 215, 156.66667)  // x lerp(278, 10), y lerp(18, 90.0568)
        assertRect(rect(f9, "body"), 20, 238.69507, 350, 42.2878)  // 54.0284 + 156.6667 + 16
        guard case .number(let revealed)? = f9.element("body")?["revealed"] else { return XCTFail("revealed") }
        XCTAssertEqual(revealed, 21.1439, accuracy: 1e-4)
        XCTAssertEqual(f9.element("author")?["opacity"], .number(0.5))

        let f18 = expand[18]
        XCTAssertEqual(f18.progress, 1)
        assertRect(rect(f18, "card"), 10, 12, 370, 444.67793)
        assertRect(rect(f18, "image"), 20, 102.0568, 350, 233.33333)
        assertRect(rect(f18, "body"), 20, 351.39013, 350, 42.2878)
        assertRect(rect(f18, "author"), 20, 417.67793, 350, 17.901)
    }

    /// docs/fixtures/README.md "Common fields": collapse at 0.1 s interrupts the expand; f = e(T/0.3) - e((T-0.1)/0.3).
    func testInterruptedCollapse() throws {
        let steps = [PostStep(event: .expand), PostStep(event: .collapse, at: 0.1)]
        let states = try PostRules(post: post(steps: steps), canvas: canvas, measurer: FakeMeasurer()).states(
            fps: 60, palette: .light)
        XCTAssertEqual(states.map(\.name), ["initial", "01-expand", "02-collapse"])
        XCTAssertEqual(states[1].frames.count, 6)  // t = 0 ... 5/60, cut at 0.1
        let collapse = states[2].frames
        XCTAssertEqual(collapse.count, 19)  // runs until the expand's end (0.3) and its own (0.4)
        let e13 = 0.23177481630274874  // easeInOut(1/3), by bisection
        XCTAssertEqual(collapse[0].progress, e13, accuracy: 1e-9)
        XCTAssertEqual(collapse[6].progress, 1 - 2 * e13, accuracy: 1e-9)
        XCTAssertEqual(collapse[18].progress, 0, accuracy: 1e-12)
        assertRect(rect(collapse[6], "card"), 10, 12, 370, 100 + 344.67793 * (1 - 2 * e13))
        assertRect(rect(collapse[18], "card"), 10, 12, 370, 100)
        // Time restarts with the step.
        XCTAssertEqual(collapse[6].time, 0.1, accuracy: 1e-12)
    }

    /// A collapse that follows a finished expand does not cut it: both keep all 19 frames.
    func testSequentialStepsKeepTheirLastFrame() throws {
        let steps = [PostStep(event: .expand), PostStep(event: .collapse)]
        let states = try PostRules(post: post(steps: steps), canvas: canvas, measurer: FakeMeasurer()).states(
            fps: 60, palette: .light)
        XCTAssertEqual(states.map(\.frames.count), [1, 19, 19])
        XCTAssertEqual(states[1].frames.last?.progress, 1)
        XCTAssertEqual(states[2].frames.first?.progress, 1)
        XCTAssertEqual(states[2].frames.last?.progress, 0)
    }

    func testNoImageHasZeroHeightAndFullWidthTitle() throws {
        let rules = try PostRules(post: post(image: false), canvas: canvas, measurer: FakeMeasurer())
        // Without the 96 pt thumbnail padding the ten words fit on one 354 pt line (9 per line → 2 lines).
        XCTAssertEqual(rules.measured.title!.text.width, 354)
        let f0 = rules.frame(index: 0, time: 0, f: 0, palette: .light)
        XCTAssertNil(f0.element("image"))
        XCTAssertEqual(rules.expandedImageHeight, 0)
        // With no image its y is the expanded titleSummaryHeight + 8 in every frame (docs/fixtures/post.md):
        // the body's top is 12 + 82.0568 + 8 + 0 + 16 = 118.0568 from the first frame to the
        // last, just below the summary, never across it (it was 12 + 18 + 16 = 46 at f = 0).
        for f in [0, 0.05, 0.3, 0.7, 1, 1.08] {
            let frame = rules.frame(index: 0, time: 0, f: f, palette: .light)
            assertRect(rect(frame, "body"), 20, 118.0568, 350, 42.2878)
            XCTAssertGreaterThanOrEqual(rect(frame, "body").y, rect(frame, "summary").maxY, "f = \(f)")
            XCTAssertEqual(rules.geometry(f: f).image.y, 82.0568 + 8, accuracy: 1e-9)
        }
    }

    func testFailedImageUsesTheSeedsDefaultAspectRatio() throws {
        var p = post()
        p.imageState = .failed
        let rules = try PostRules(post: p, canvas: canvas, measurer: FakeMeasurer())
        XCTAssertEqual(rules.expandedImageHeight, 350)
        let f1 = rules.frame(index: 0, time: 0, f: 1, palette: .light)
        XCTAssertEqual(f1.element("image")?["state"], .string("failed"))
        // A placeholder rectangle, gray at 30%, instead of image pixels.
        XCTAssertTrue(
            f1.drawList.contains {
                if case .roundedRect(_, 12, let fill, _) = $0 { return fill.alpha == 0.3 } else { return false }
            })
        XCTAssertFalse(f1.drawList.contains { if case .image = $0 { return true } else { return false } })
    }

    func testBodyAndAuthorDrawnOnlyWhileExpanding() throws {
        let rules = try PostRules(post: post(), canvas: canvas, measurer: FakeMeasurer())
        func texts(_ f: Double) -> Int {
            rules.frame(index: 0, time: 0, f: f, palette: .light).drawList.filter {
                if case .text = $0 { return true } else { return false }
            }.count
        }
        XCTAssertEqual(texts(0), 2)  // title, summary
        XCTAssertEqual(texts(0.01), 2 + 2 + 1)  // + two body lines + author
    }

    func testTitleTruncatesAtOneLineAndSummaryAtTwo() throws {
        var p = post()
        p.title = Array(repeating: "longword", count: 12).joined(separator: " ")
        p.summary = Array(repeating: "word", count: 40).joined(separator: " ")
        let rules = try PostRules(post: p, canvas: canvas, measurer: FakeMeasurer())
        XCTAssertEqual(rules.measured.title?.measured.lineCount, 1)
        XCTAssertEqual(rules.measured.title?.measured.truncated, true)
        XCTAssertEqual(rules.measured.summary?.measured.lineCount, 2)
        XCTAssertEqual(rules.measured.summary?.measured.truncated, true)
    }

    func testFormattedBodyHeightUsesEachStylesLeading() throws {
        // "# Head" (title3: first line 1.1934·20 = 23.868), "- item" (+22), blank (+22), "text" (+22).
        let body = try FormattedBody(body: "# Head\n- item\n\ntext", width: 350, measurer: FakeMeasurer())
        XCTAssertEqual(body.lineCount, 4)
        XCTAssertEqual(body.height, 23.868 + 22 + 22 + 22, accuracy: 1e-9)
        // The bullet's text is indented; the marker sits at the left edge on the same baseline.
        let bulletPieces = body.pieces.filter { $0.baselines.first == body.pieces[1].baselines.first }
        XCTAssertEqual(bulletPieces.map(\.x), [0, BodyFormatter.bulletIndent])
    }

    func testFrameLimit() throws {
        var p = post(steps: [PostStep(event: .expand)])
        p.curve = .timing(.linear, duration: 60)
        XCTAssertThrowsError(
            try PostRules(post: p, canvas: canvas, measurer: FakeMeasurer()).states(fps: 240, palette: .light)
        ) { error in
            XCTAssertTrue("\(error)".contains("10000"), "\(error)")
        }
    }
}
