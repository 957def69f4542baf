import XCTest
import LayoutSnapCore

final class InlineMarkupTests: XCTestCase {
    func testBoldAndItalicRuns() {
        XCTAssertEqual(
            InlineMarkup.parse("a **b** *c* d"),
            [
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

    /// The parser finds closers with a table built in one pass (linear time). This is the
    /// straightforward scan it replaced, which rescanned the line from every opener; on any text
    /// both must give the same runs.
    static func referenceParse(_ source: String) -> [TextRun] {
        let chars = Array(source)
        var runs: [TextRun] = []
        var current = ""
        var bold = false
        var italic = false
        var i = 0
        func flush() {
            if !current.isEmpty { runs.append(TextRun(current, bold: bold, italic: italic)) }
            current = ""
        }
        func hasCloser(_ marker: String, from: Int) -> Bool {
            let m = Array(marker)
            var j = from
            guard j < chars.count, chars[j] != " ", chars[j] != "\n" else { return false }
            while j + m.count <= chars.count {
                if chars[j] == "\n" { return false }
                if Array(chars[j..<j + m.count]) == m, j > from, chars[j - 1] != " " {
                    if m.count == 1, j + 1 < chars.count, chars[j + 1] == "*" {
                        j += 2
                        continue
                    }
                    return true
                }
                j += 1
            }
            return false
        }
        while i < chars.count {
            let c = chars[i]
            if c == "*" {
                if i + 1 < chars.count && chars[i + 1] == "*" {
                    if bold || hasCloser("**", from: i + 2) {
                        flush()
                        bold.toggle()
                        i += 2
                        continue
                    }
                } else if italic || hasCloser("*", from: i + 1) {
                    flush()
                    italic.toggle()
                    i += 1
                    continue
                }
            }
            if c == "\n" {
                current.append(c)
                flush()
                bold = false
                italic = false
                i += 1
                continue
            }
            current.append(c)
            i += 1
        }
        flush()
        return runs.isEmpty ? [TextRun("")] : runs
    }

    func testTheLinearParserAgreesWithTheRescanningOne() {
        var r = SeededRandom(seed: 11)
        let alphabet: [Character] = ["*", "*", "*", " ", "a", "b", "\n", "#", "-"]
        for n in 0..<5_000 {
            let text = String((0..<r.int(0...24)).map { _ in r.pick(alphabet) })
            XCTAssertEqual(InlineMarkup.parse(text), Self.referenceParse(text), "case \(n): \(text.debugDescription)")
        }
    }

    func testStrayMarkersTakeLinearTime() {
        // 60,000 characters of markers that mostly do not pair: the rescanning parser needed
        // about 10^9 steps (minutes in a debug build); this one does one pass. No time is
        // measured (that would flake): a return to quadratic shows as this test taking minutes.
        // A short piece is checked against the old parser, the long one for losing no text.
        let piece = String(repeating: "# - **", count: 100)
        XCTAssertEqual(InlineMarkup.parse(piece), Self.referenceParse(piece))
        let text = String(repeating: "# - **", count: 10_000)
        let plain = InlineMarkup.parse(text).map(\.text).joined()
        XCTAssertEqual(plain.filter { $0 != "*" }, text.filter { $0 != "*" })
    }
}
