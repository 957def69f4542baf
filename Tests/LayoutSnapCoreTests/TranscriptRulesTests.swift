import XCTest
import LayoutSnapCore
import LayoutSnapTestSupport

/// Transcript rules (docs/fixtures/transcript.md) against numbers worked out by hand. Canvas 390 wide,
/// margin 16 and padding 16: the view is 358 wide, the text 326 (38 fake characters of 8.5 pt).
/// `body` lines: 1 → 20.2878, each further line + 22.
final class TranscriptRulesTests: XCTestCase {
    let canvas = Canvas(width: 390, height: 200, scale: 2)

    func lines(_ n: Int) -> String { (1...n).map { "Line \($0)" }.joined(separator: "\n") }

    func states(_ t: TranscriptFixture, fps: Double = 60) throws -> [StateLayout] {
        try TranscriptRules(transcript: t, canvas: canvas).states(fps: fps, palette: .light, measurer: FakeMeasurer())
    }

    func scroll(_ f: LayoutFrame) -> ScrollInfo { f.scroll! }

    /// 1, 2, 3, 4 lines grow the view; 9 lines stay at 4 whole lines (86.29 pt) and scroll.
    func testHeightGrowsByWholeLinesThenStops() throws {
        for (n, height) in [(1, 20.2878), (2, 42.2878), (3, 64.2878), (4, 86.2878), (9, 86.2878)] {
            let f = try states(TranscriptFixture(text: lines(n)))[0].frames[0]
            XCTAssertEqual(f.element("viewport")!.rect.height, height, accuracy: 1e-9, "\(n) lines")
            XCTAssertEqual(f.element("view")!.rect.height, height + 32, accuracy: 1e-9)
            XCTAssertEqual(f.element("view")!.rect.x, 16)
            XCTAssertEqual(f.element("view")!.rect.width, 358)
            XCTAssertEqual(f.element("text")!["lines"], .int(n))
            // The text is clipped at the view's outer frame, padding included (docs/fixtures/transcript.md), and
            // the draw list says so too.
            XCTAssertEqual(f.element("text")!["clip"], .numbers([16, 16, 358, height + 32]))
            let clips = f.drawList.compactMap { op -> Rect? in if case .text(let t) = op { t.clip } else { nil } }
            XCTAssertEqual(clips, [f.element("view")!.rect])
        }
    }

    /// Nine lines open at the bottom: offset = (20.2878 + 8 x 22) - 86.2878 = 110, following.
    func testOpensShowingTheLastLines() throws {
        let f = try states(TranscriptFixture(text: lines(9)))[0].frames[0]
        XCTAssertEqual(scroll(f).offset, 110, accuracy: 1e-9)
        XCTAssertTrue(scroll(f).following)
        // The text is drawn 110 pt above the viewport's top.
        XCTAssertEqual(f.element("text")!.rect.y, 16 + 16 - 110, accuracy: 1e-9)
    }

    func testStickyHoldsWhileScrolledUpAndFollowsAgainAtTheBottom() throws {
        let t = TranscriptFixture(
            text: lines(6), sticky: true,
            steps: [
                TranscriptStep(event: .scrollBy(-30)),
                TranscriptStep(event: .append("\nLine 7")),
                TranscriptStep(event: .scrollBy(1000)),
                TranscriptStep(event: .append("\nLine 8")),
            ])
        let s = try states(t)
        // 6 lines: max offset 2 x 22 = 44.
        XCTAssertEqual(scroll(s[0].frames[0]).offset, 44, accuracy: 1e-9)
        XCTAssertEqual(s[1].frames.count, 1)  // a drag is immediate
        XCTAssertEqual(scroll(s[1].frames[0]).offset, 14, accuracy: 1e-9)
        XCTAssertFalse(scroll(s[1].frames[0]).following)
        XCTAssertEqual(s[2].frames.count, 1)  // text arrives, the view holds
        XCTAssertEqual(scroll(s[2].frames[0]).offset, 14, accuracy: 1e-9)
        XCTAssertEqual(scroll(s[2].frames[0]).contentHeight, 20.2878 + 6 * 22, accuracy: 1e-9)
        XCTAssertFalse(scroll(s[2].frames[0]).following)
        XCTAssertEqual(scroll(s[3].frames[0]).offset, 66, accuracy: 1e-9)  // clamped to the new bottom
        XCTAssertTrue(scroll(s[3].frames[0]).following)
        XCTAssertGreaterThan(s[4].frames.count, 10)  // following: a spring to the bottom
        XCTAssertEqual(scroll(s[4].frames.last!).offset, 88, accuracy: 1e-9)
        XCTAssertTrue(scroll(s[4].frames.last!).following)
    }

    func testWithoutStickyNewTextAlwaysScrollsToTheBottom() throws {
        let t = TranscriptFixture(
            text: lines(6), sticky: false,
            steps: [
                TranscriptStep(event: .scrollBy(-44)), TranscriptStep(event: .append("\nLine 7")),
            ])
        let s = try states(t)
        XCTAssertEqual(scroll(s[1].frames[0]).offset, 0, accuracy: 1e-9)
        XCTAssertEqual(scroll(s[2].frames[0]).offset, 0, accuracy: 1e-9)  // starts where it was
        XCTAssertEqual(scroll(s[2].frames.last!).offset, 66, accuracy: 1e-9)
        // The default spring (critically damped) never overshoots.
        let offsets = s[2].frames.map { scroll($0).offset }
        XCTAssertEqual(offsets, offsets.sorted())
        XCTAssertLessThanOrEqual(offsets.max()!, 66 + 1e-9)
    }

    /// The fifth line: the height stays at four lines at once and the content scrolls by 22.
    func testHeightChangesAtOnceAndTheScrollAnimates() throws {
        let s = try states(TranscriptFixture(text: lines(4), steps: [TranscriptStep(event: .append("\nLine 5"))]))
        let first = s[1].frames[0]
        let last = s[1].frames.last!
        XCTAssertEqual(first.element("viewport")!.rect.height, 86.2878, accuracy: 1e-9)
        XCTAssertEqual(scroll(first).offset, 0, accuracy: 1e-9)
        XCTAssertEqual(scroll(last).offset, 22, accuracy: 1e-9)
        XCTAssertEqual(last.progress, 1)
        // The spring settles within 0.5 px at scale 2 (0.25 pt): the frame before the end is close.
        XCTAssertLessThan(22 - scroll(s[1].frames[s[1].frames.count - 2]).offset, 0.5)
    }

    func testScrollByIsClampedToTheContent() throws {
        let s = try states(
            TranscriptFixture(
                text: lines(6),
                steps: [TranscriptStep(event: .scrollBy(-1000)), TranscriptStep(event: .scrollBy(5000))]))
        XCTAssertEqual(scroll(s[1].frames[0]).offset, 0)
        XCTAssertFalse(scroll(s[1].frames[0]).following)
        XCTAssertEqual(scroll(s[2].frames[0]).offset, 44, accuracy: 1e-9)
        XCTAssertTrue(scroll(s[2].frames[0]).following)
    }

    func testIndicatorsShowOnlyWhileScrollingByDefault() throws {
        func indicators(_ f: LayoutFrame) -> Int {
            f.drawList.filter { if case .roundedRect = $0 { return true } else { return false } }.count
        }
        let s = try states(
            TranscriptFixture(
                text: lines(6), sticky: false,
                steps: [
                    TranscriptStep(event: .scrollBy(-44)), TranscriptStep(event: .scrollToBottom),
                ]))
        XCTAssertEqual(indicators(s[0].frames[0]), 0)
        XCTAssertEqual(indicators(s[2].frames[3]), 1)
        XCTAssertEqual(indicators(s[2].frames.last!), 0)
        let always = try states(TranscriptFixture(text: lines(6), indicators: .always))
        XCTAssertEqual(indicators(always[0].frames[0]), 1)
        let short = try states(TranscriptFixture(text: lines(2), indicators: .always))
        XCTAssertEqual(indicators(short[0].frames[0]), 0, "nothing to scroll, no indicator")
    }

    /// A drag during a scroll animation stops it where the finger caught it.
    func testADragStopsARunningScroll() throws {
        let s = try states(
            TranscriptFixture(
                text: lines(6), sticky: false,
                steps: [
                    TranscriptStep(event: .scrollBy(-44)),
                    TranscriptStep(event: .scrollToBottom),
                    TranscriptStep(event: .scrollBy(-10), at: 0.1),
                ]))
        XCTAssertEqual(s[2].frames.count, 6)  // cut at 0.1 s
        let caught = scroll(s[2].frames.last!).offset
        XCTAssertEqual(s[3].frames.count, 1)
        XCTAssertLessThan(scroll(s[3].frames[0]).offset, caught)
        XCTAssertGreaterThan(scroll(s[3].frames[0]).offset, 0)
    }
}
