import XCTest
import LayoutSnapCore

final class InlineMarkupTests: XCTestCase {
    func testBoldAndItalicRuns() {
        XCTAssertEqual(InlineMarkup.parse("a **b** *c* d"), [
            TextRun("a "), TextRun("b", bold: true), TextRun(" "), TextRun("c", italic: true), TextRun(" d"),
        ])
    }

    func testUnmatchedMarkersStayLiteral() {
        XCTAssertEqual(InlineMarkup.parse("5 * 3 = 15"), [TextRun("5 * 3 = 15")])
        XCTAssertEqual(InlineMarkup.parse("**open"), [TextRun("**open")])
    }

    func testMarkupIsNeverPangoMarkup() {
        XCTAssertEqual(InlineMarkup.parse("<b>&amp;</b>"), [TextRun("<b>&amp;</b>")])
    }

    func testStylesEndAtLineBreaks() {
        XCTAssertEqual(InlineMarkup.parse("*a*\nb"), [TextRun("a", italic: true), TextRun("\n"), TextRun("b")])
    }
}
