import LayoutSnapCore
import LayoutSnapRender
import XCTest

/// Pango's caret positions and selection spans, as the composer uses them: they must agree with
/// the lines `measure` reports and with UIKit's conventions (a soft break belongs to the next
/// line, a line break opens an empty last line, right-to-left text starts at the right).
final class CaretTests: XCTestCase {
    let engine = try! TextEngine(fonts: FontSystem.shared())
    let body = TextStyle.body.font

    func text(_ s: String, width: Double = 300) -> StyledText {
        StyledText(runs: [TextRun(s)], font: body, width: width)
    }

    func testCaretsAlongALine() throws {
        let t = text("abc def")
        let measured = try engine.measure(t)
        XCTAssertEqual(try engine.caret(in: t, at: 0), CaretPosition(line: 0, x: 0))
        let end = try engine.caret(in: t, at: 7)
        XCTAssertEqual(end.line, 0)
        XCTAssertEqual(end.x, measured.lines[0].width, accuracy: 0.01)
        let mid = try engine.caret(in: t, at: 3)
        XCTAssertGreaterThan(mid.x, 0)
        XCTAssertLessThan(mid.x, end.x)
        // Past the end is the end.
        XCTAssertEqual(try engine.caret(in: t, at: 99), end)
    }

    func testSoftWrapAndTrailingNewline() throws {
        let words = Array(repeating: "word", count: 30).joined(separator: " ")
        let t = text(words, width: 120)
        let lines = try engine.measure(t).lines
        XCTAssertGreaterThan(lines.count, 3)
        // Each "word " is 5 characters; find the first character of line 1 by walking carets.
        let starts = (0...words.count).filter { (try? engine.caret(in: t, at: $0).x) == 0 }
        XCTAssertEqual(starts.count, lines.count, "one caret at x 0 per line")
        for (i, start) in starts.enumerated() { XCTAssertEqual(try engine.caret(in: t, at: start).line, i) }

        let newline = text("ab\n")
        XCTAssertEqual(try engine.measure(newline).lineCount, 2)
        XCTAssertEqual(try engine.caret(in: newline, at: 3), CaretPosition(line: 1, x: 0))
        // Emoji and CJK count as one character each.
        let emoji = text("a😀b")
        XCTAssertLessThan(try engine.caret(in: emoji, at: 1).x, try engine.caret(in: emoji, at: 2).x)
        XCTAssertEqual(try engine.caret(in: emoji, at: 3).x, try engine.measure(emoji).lines[0].width, accuracy: 0.01)
    }

    func testRightToLeftStartsAtTheRight() throws {
        let t = text("مرحبا بالعالم")
        let line = try engine.measure(t).lines[0]
        let start = try engine.caret(in: t, at: 0)
        XCTAssertEqual(start.x, line.x + line.width, accuracy: 0.01)
        XCTAssertLessThan(try engine.caret(in: t, at: 5).x, start.x)
    }

    /// A selection over two lines: the first runs to the layout's trailing edge, the second starts
    /// at its left edge and ends where the caret would.
    func testSpansAcrossLines() throws {
        let t = text("abc def\nghi jkl")
        let spans = try engine.spans(in: t, from: 4, to: 11)
        XCTAssertEqual(spans.count, 2)
        XCTAssertEqual(spans[0].line, 0)
        XCTAssertEqual(spans[0].x, try engine.caret(in: t, at: 4).x, accuracy: 0.01)
        XCTAssertEqual(spans[0].x + spans[0].width, 300, accuracy: 0.01)
        XCTAssertEqual(spans[1].line, 1)
        XCTAssertEqual(spans[1].x, 0, accuracy: 0.01)
        XCTAssertEqual(spans[1].width, try engine.caret(in: t, at: 11).x, accuracy: 0.01)
        XCTAssertEqual(try engine.spans(in: t, from: 3, to: 3), [])
    }
}
