import XCTest
@testable import LayoutSnapCore
import LayoutSnapTestSupport

/// Composer rules (docs/fixtures/composer.md, seeds 001 and 004) against numbers worked out by hand.
///
/// Canvas 390 x 852 (iPhone 15: keyboard 336, bottom safe area 34), margin 16: the field is at
/// (16, 16), 358 wide; the text 348 wide (insets 5), 40 fake characters of 8.5 pt a line.
/// `body` with lineSpacing 2: a line is 20.2878 tall, each further line adds 24; the field adds
/// 8 + 8 of insets. So 1...5 lines: 36.2878, 60.2878, 84.2878, 108.2878, 132.2878.
final class ComposerRulesTests: XCTestCase {
    let canvas = Canvas(width: 390, height: 852, scale: 2)
    let device = Device.named("iphone-15")!

    func lines(_ n: Int) -> String { (1...n).map { "Line \($0)" }.joined(separator: "\n") }

    func states(_ c: ComposerFixture, canvas: Canvas? = nil) throws -> [StateLayout] {
        try ComposerRules(composer: c, canvas: canvas ?? self.canvas, device: device)
            .states(fps: 60, palette: .light, measurer: FakeMeasurer())
    }

    func first(_ c: ComposerFixture) throws -> LayoutFrame { try states(c)[0].frames[0] }
    func offset(_ f: LayoutFrame) -> Double { f.scroll!.offset }
    func rect(_ f: LayoutFrame, _ id: String) -> Rect { f.element(id)!.rect }

    func testHeightGrowsWithLinesIncludingSoftWrapsThenScrolls() throws {
        for (n, height) in [(1, 36.2878), (2, 60.2878), (3, 84.2878), (4, 108.2878), (5, 132.2878), (9, 132.2878)] {
            let f = try first(ComposerFixture(text: lines(n)))
            XCTAssertEqual(rect(f, "field").height, height, accuracy: 1e-9, "\(n) lines")
            XCTAssertEqual(rect(f, "field").x, 16)
            XCTAssertEqual(rect(f, "field").width, 358)
            XCTAssertEqual(f.element("text")!["lines"], .int(n))
            XCTAssertEqual(f.scroll!.viewportHeight, height, accuracy: 1e-9)
            XCTAssertEqual(f.scroll!.contentHeight, 20.2878 + Double(n - 1) * 24 + 16, accuracy: 1e-9)
        }
        // 41 characters do not fit in 348 pt (40 do): a soft wrap counts as a line.
        let wrapped = try first(
            ComposerFixture(text: String(repeating: "a", count: 20) + " " + String(repeating: "b", count: 20)))
        XCTAssertEqual(wrapped.element("text")!["lines"], .int(2))
        XCTAssertEqual(rect(wrapped, "field").height, 60.2878, accuracy: 1e-9)
    }

    /// Seed 001's other settings: title2 (22 pt: 26.2548 first line, 28 leading) with lineSpacing
    /// 10, and maxLine 7.
    func testTitle2WithLineSpacing10AndMaxLine7() throws {
        let title2 = try first(ComposerFixture(text: lines(3), font: TextStyle.title2.font, lineSpacing: 10))
        XCTAssertEqual(rect(title2, "field").height, 26.2548 + 2 * 38 + 16, accuracy: 1e-9)
        XCTAssertEqual(rect(title2, "caret").y, 16 + 8 + 2 * 38, accuracy: 1e-9)
        XCTAssertEqual(rect(title2, "caret").height, 26.2548, accuracy: 1e-9)
        let seven = try first(ComposerFixture(text: lines(9), maxLines: 7))
        XCTAssertEqual(rect(seven, "field").height, 20.2878 + 6 * 24 + 16, accuracy: 1e-9)
        XCTAssertEqual(seven.element("field")!["maxLines"], .int(7))
    }

    /// Nine lines, caret at the end: content 20.2878 + 8 x 24 + 16 = 228.2878, field 132.2878,
    /// so at most 96 of scroll. The caret (line 8) is at y 8 + 192 = 200; with 18 pt below it
    /// wants 238.2878 - 132.2878 = 106, clamped to 96.
    func testOpensScrolledToShowTheCaret() throws {
        let f = try first(ComposerFixture(text: lines(9)))
        XCTAssertEqual(offset(f), 96, accuracy: 1e-9)
        XCTAssertTrue(f.scroll!.following)
        // On the canvas: x 16 + 5 + 6 x 8.5 = 72; y 16 + 200 - 96 = 120.
        let caret = rect(f, "caret")
        XCTAssertEqual(caret.x, 72, accuracy: 1e-9)
        XCTAssertEqual(caret.y, 120, accuracy: 1e-9)
        XCTAssertEqual(caret.width, 2)
        XCTAssertEqual(caret.height, 20.2878, accuracy: 1e-9)
        XCTAssertEqual(f.element("caret")!["visible"], .bool(true))
        XCTAssertEqual(f.element("caret")!["inView"], .bool(true))
        XCTAssertEqual(rect(f, "text").y, 16 + 8 - 96, accuracy: 1e-9)
    }

    /// The minimum scroll, with 12 pt of room above the caret: from 96, a caret on line 4
    /// (y 8 + 96 = 104) needs its room at 92, so the view moves 4 pt; a caret already in view
    /// with its room (line 6: 152 to 190.2878 within 92...224.2878) does not move it.
    func testCaretRoomAboveScrollsTheMinimum() throws {
        let s = try states(
            ComposerFixture(
                text: lines(9),
                steps: [
                    ComposerStep(event: .select(28, 28)),  // the start of "Line 5"
                    ComposerStep(event: .select(42, 42)),  // the start of "Line 7"
                    ComposerStep(event: .select(0, 0)),
                ]))
        XCTAssertEqual(offset(s[1].frames[0]), 92, accuracy: 1e-9)
        XCTAssertEqual(rect(s[1].frames[0], "caret").y, 16 + 104 - 92, accuracy: 1e-9)
        XCTAssertEqual(offset(s[2].frames[0]), 92, accuracy: 1e-9)
        XCTAssertEqual(offset(s[3].frames[0]), 0, accuracy: 1e-9)  // -4 clamped to the top
        XCTAssertEqual(s.map(\.name), ["initial", "01-select", "02-select", "03-select"])
    }

    /// The room below: a caret on the last visible line is brought up until 18 pt show under it.
    func testCaretRoomBelow() throws {
        // Scrolled to the top, the caret goes to line 5 (y 8 + 120 = 128, bottom 148.2878):
        // 148.2878 + 18 - 132.2878 = 34.
        let s = try states(
            ComposerFixture(text: lines(9), selection: [0, 0], steps: [ComposerStep(event: .select(35, 35))]))
        XCTAssertEqual(offset(s[0].frames[0]), 0)
        XCTAssertEqual(offset(s[1].frames[0]), 34, accuracy: 1e-9)
    }

    /// A drag is kept through everything but an editing step.
    func testScrollByIsKeptUntilAnEditingStep() throws {
        let s = try states(
            ComposerFixture(
                text: lines(9), disabledPlaceholder: "Off", suggestions: ["word"],
                steps: [
                    ComposerStep(event: .scrollBy(-50)),
                    ComposerStep(event: .enable(false)),
                    ComposerStep(event: .enable(true)),
                    ComposerStep(event: .keyboard(show: false)),
                    ComposerStep(event: .scrollBy(-1000)),
                    ComposerStep(event: .type("x")),
                ]))
        XCTAssertEqual(offset(s[1].frames[0]), 46, accuracy: 1e-9)
        XCTAssertFalse(s[1].frames[0].scroll!.following)
        XCTAssertEqual(s[1].frames[0].element("caret")!["inView"], .bool(false))
        XCTAssertEqual(offset(s[2].frames[0]), 0)  // the placeholder shows, unscrolled
        XCTAssertEqual(offset(s[3].frames[0]), 46, accuracy: 1e-9)  // the text's own scroll is back
        XCTAssertEqual(offset(s[4].frames.last!), 46, accuracy: 1e-9)
        XCTAssertEqual(offset(s[5].frames[0]), 0)  // clamped at the top
        XCTAssertEqual(offset(s[6].frames[0]), 96, accuracy: 1e-9)  // typing brings the caret back
        XCTAssertTrue(s[6].frames[0].scroll!.following)
    }

    func testInsertSuggestionAddsExactlyOneSpace() throws {
        func after(_ text: String, _ selection: [Int], _ word: String) throws -> (String, [Int]) {
            let f = try states(
                ComposerFixture(text: text, selection: selection, steps: [ComposerStep(event: .insertSuggestion(word))])
            )[1].frames[0]
            let t = f.element("text")!
            guard case .string(let value) = t["value"], case .ints(let sel) = t["selection"] else {
                XCTFail()
                return ("", [])
            }
            return (value, sel)
        }
        // At the end: the word and one space, the caret after the space.
        XCTAssertEqual(try after("hello wor", [6, 9], "world").0, "hello world ")
        XCTAssertEqual(try after("hello wor", [6, 9], "world").1, [12, 12])
        // Mid-document, before a letter: a space is added.
        XCTAssertEqual(try after("one two", [4, 4], "big").0, "one big two")
        XCTAssertEqual(try after("one two", [4, 4], "big").1, [8, 8])
        // Before whitespace: none (no double spaces), the caret right after the word.
        XCTAssertEqual(try after("hi there", [0, 2], "Hello").0, "Hello there")
        XCTAssertEqual(try after("hi there", [0, 2], "Hello").1, [5, 5])
        XCTAssertEqual(try after("ab\ncd", [0, 2], "xy").0, "xy\ncd")
        // A selection across lines is replaced.
        XCTAssertEqual(try after("abc\ndef\nghi", [2, 9], "Z").0, "abZ hi")
        XCTAssertEqual(try after("abc\ndef\nghi", [2, 9], "Z").1, [4, 4])
    }

    func testMarkedTextBlocksSuggestionsUntilCommitted() throws {
        let s = try states(
            ComposerFixture(
                text: "I say ",
                steps: [
                    ComposerStep(event: .compose("ni")),
                    ComposerStep(event: .compose("にほ")),
                    ComposerStep(event: .insertSuggestion("word")),
                    ComposerStep(event: .commit),
                    ComposerStep(event: .insertSuggestion("ん")),
                ]))
        func text(_ i: Int) -> LayoutElement { s[i].frames[0].element("text")! }
        XCTAssertEqual(text(1)["marked"], .ints([6, 8]))
        XCTAssertEqual(text(2)["value"], .string("I say にほ"))
        XCTAssertEqual(text(2)["marked"], .ints([6, 8]))
        XCTAssertEqual(text(3)["value"], .string("I say にほ"))
        XCTAssertEqual(s[3].note, "insertSuggestion ignored: marked text is active")
        XCTAssertEqual(text(4)["marked"], .null)
        XCTAssertNil(s[4].note)
        XCTAssertEqual(text(5)["value"], .string("I say にほん "))
        XCTAssertEqual(text(5)["selection"], .ints([10, 10]))
        // The marked text is highlighted: 2 fake characters from x 6 x 8.5.
        let highlight = s[2].frames[0].drawList.compactMap { op -> Rect? in
            if case .roundedRect(let r, _, let fill, _) = op, fill == Palette.light.accent.opacity(0.15) { return r }
            return nil
        }
        XCTAssertEqual(highlight.count, 1)
        XCTAssertEqual(highlight[0].x, 16 + 5 + 51, accuracy: 1e-9)
        XCTAssertEqual(highlight[0].y, 24, accuracy: 1e-9)
        XCTAssertEqual(highlight[0].width, 17, accuracy: 1e-9)
        XCTAssertEqual(highlight[0].height, 20.2878, accuracy: 1e-9)
    }

    func testTypingCommitsMarkedTextAndKeepsGraphemesWhole() throws {
        var e = ComposerEditor(text: "cafe")
        e.compose("x")
        e.type("!")
        XCTAssertNil(e.marked)
        XCTAssertEqual(e.value, "cafex!")
        // A combining accent merges with the letter before it: 4 characters, caret at 4.
        var accent = ComposerEditor(text: "cafe")
        accent.type("\u{301}")
        XCTAssertEqual(accent.count, 4)
        XCTAssertEqual(accent.selection, .init(4, 4))
    }

    /// The seed's e-mail pattern: `matched` on the field, a red border only for a non-empty
    /// unmatched text.
    func testPatternMatchedAndRedBorder() throws {
        let email = #"^[a-zA-Z0-9+-\_.]+@[a-zA-Z0-9-]+\.[a-zA-Z0-9-.]{2,3}+$"#
        func field(_ text: String) throws -> (Bool?, Color?) {
            let f = try first(ComposerFixture(text: text, pattern: email))
            let matched: Bool? = if case .bool(let b) = f.element("field")!["matched"] { b } else { nil }
            let border = f.drawList.compactMap { op -> Color? in
                if case .strokeRoundedRect(_, let radius, let color, let width, _) = op, radius == 20, width == 1 {
                    return color
                }
                return nil
            }.first
            return (matched, border)
        }
        XCTAssertEqual(try field("kim@example.com").0, true)
        XCTAssertEqual(try field("kim@example.com").1, Palette.light.gray)
        XCTAssertEqual(try field("kim@example").0, false)
        XCTAssertEqual(try field("kim@example").1, Palette.light.red)
        XCTAssertEqual(try field("").0, false)
        XCTAssertEqual(try field("").1, Palette.light.gray)
        // No pattern: no `matched`. No border: no stroke of the field's (the keyboard's emoji key
        // strokes a circle of its own).
        XCTAssertNil(try first(ComposerFixture(text: "x")).element("field")!["matched"])
        XCTAssertFalse(
            try first(ComposerFixture(text: "x", border: false)).drawList.contains {
                if case .strokeRoundedRect(_, 20, _, _, _) = $0 { true } else { false }
            })
    }

    /// A field that opens disabled shows its text, once enabled, scrolled to the caret.
    func testOpeningDisabledThenEnabledShowsTheCaret() throws {
        let s = try states(ComposerFixture(text: lines(9), enabled: false, steps: [ComposerStep(event: .enable(true))]))
        XCTAssertEqual(s[0].frames[0].scroll!.offset, 0)
        XCTAssertEqual(s[1].frames[0].scroll!.offset, 96, accuracy: 1e-9)
        XCTAssertEqual(s[1].frames[0].element("caret")!["inView"], .bool(true))
    }

    func testDisabledShowsItsPlaceholderAndHidesSuggestions() throws {
        let s = try states(
            ComposerFixture(
                text: "draft", enabled: false, disabledPlaceholder: "This editor has been disabled",
                suggestions: ["one"], steps: [ComposerStep(event: .type("more")), ComposerStep(event: .enable(true))]))
        let f = s[0].frames[0]
        XCTAssertEqual(f.element("placeholder")!["text"], .string("This editor has been disabled"))
        XCTAssertEqual(f.element("suggestions")!["visible"], .bool(false))
        XCTAssertEqual(f.element("caret")!["visible"], .bool(false))
        XCTAssertEqual(f.element("field")!["enabled"], .bool(false))
        let drawn = f.drawList.compactMap { op -> (String, Color)? in
            if case .text(let t) = op { (t.text.plainText, t.color) } else { nil }
        }
        XCTAssertEqual(drawn.first?.0, "This editor has been disabled")
        XCTAssertEqual(drawn.first?.1, Palette.light.secondary)
        XCTAssertEqual(s[1].note, "type ignored: the field is disabled")
        XCTAssertEqual(s[1].frames[0].element("text")!["value"], .string("draft"))
        XCTAssertNil(s[2].frames[0].element("placeholder"))
        XCTAssertEqual(s[2].frames[0].element("suggestions")!["visible"], .bool(true))
    }

    /// The keyboard slides with its spring; the strip rides on it, and rests on the bottom safe
    /// area while the keyboard is down (852 - 34 - 44 = 774).
    func testKeyboardSlidesAndTheStripRidesOnIt() throws {
        let s = try states(
            ComposerFixture(
                text: "hi", keyboard: false, suggestions: ["hello"], steps: [ComposerStep(event: .keyboard(show: true))]
            ))
        XCTAssertEqual(rect(s[0].frames[0], "suggestions").y, 774, accuracy: 1e-9)
        XCTAssertEqual(s[0].frames[0].element("keyboard")!["visible"], .bool(false))
        let frames = s[1].frames
        XCTAssertGreaterThan(frames.count, 30)
        XCTAssertEqual(rect(frames[0], "keyboard").y, 852, accuracy: 1e-9)
        XCTAssertEqual(rect(frames.last!, "keyboard").y, 852 - 336, accuracy: 0.25)
        XCTAssertEqual(rect(frames.last!, "suggestions").y, 852 - 336 - 44, accuracy: 0.25)
        XCTAssertEqual(frames[0].progress, 0)
        XCTAssertEqual(frames.last!.progress, 1, accuracy: 0.001)
        // Every frame's top follows the closed form of the critically damped spring (w0 =
        // sqrt(1000 / 3)), so it only ever moves up; the step settles in about 0.6 s (36 frames
        // at 60 fps, not the 3 s of an overdamped spring), and the strip never goes below the
        // safe area.
        let w0 = (1000.0 / 3).squareRoot()
        for f in frames.dropLast() {
            XCTAssertEqual(
                rect(f, "keyboard").y, 852 - 336 * (1 - (1 + w0 * f.time) * exp(-w0 * f.time)), accuracy: 0.01)
        }
        // The last frame lands on the target (the end rule of docs/fixtures/README.md "Common fields"), less than half a pixel away.
        XCTAssertLessThanOrEqual(frames.last!.time, 0.62)
        let ys = frames.map { rect($0, "keyboard").y }
        XCTAssertEqual(ys, ys.sorted(by: >))
        XCTAssertTrue(frames.allSatisfy { rect($0, "suggestions").y <= 774 + 1e-9 })
    }

    /// The field never grows under the keyboard and strip: 600 - 336 - 44 - 8 = 212 of bottom,
    /// 212 - 16 - 16 = 180 for lines: 1 + floor((180 - 20.2878) / 24) = 7 lines at most.
    func testMaxLinesIsLoweredToWhatFitsAboveTheKeyboard() throws {
        let small = Canvas(width: 390, height: 600, scale: 1)
        let f = try states(ComposerFixture(text: lines(12), maxLines: 10, suggestions: ["a"]), canvas: small)[0].frames[
            0]
        XCTAssertEqual(f.element("field")!["maxLines"], .int(7))
        XCTAssertLessThanOrEqual(rect(f, "field").maxY, rect(f, "suggestions").y)
        XCTAssertThrowsError(try states(ComposerFixture(text: "x"), canvas: Canvas(width: 390, height: 380, scale: 1)))
        { error in
            XCTAssertEqual((error as? LayoutError)?.path, "$.height")
        }
    }

    /// The strip and chips are the theme's `ComposerStyle`: a 50 pt strip over the 336 pt keyboard
    /// is at 852 - 336 - 50 = 466; a 36 pt chip centred in it at 466 + 7 = 473, "word" (4 x 7.5 =
    /// 30 fake points of 15 pt subheadline) padded 16 each side: 62 wide, from the 16 pt margin,
    /// with capsule corners of 18.
    func testTheComposerStyleDrivesTheStripAndChips() throws {
        var theme = Theme.default
        theme.composer.stripHeight = 50
        theme.composer.chipHeight = 36
        theme.composer.chipPadding = 16
        let f = try ComposerRules(
            composer: ComposerFixture(text: "hi", suggestions: ["word"]), canvas: canvas, device: device, theme: theme
        ).states(fps: 60, palette: .light, measurer: FakeMeasurer())[0].frames[0]
        XCTAssertTrue(
            f.drawList.contains(
                .roundedRect(
                    Rect(x: 16, y: 473, width: 62, height: 36), cornerRadius: 18, fill: Palette.light.chip,
                    continuous: true)), "\(f.drawList)")
        XCTAssertEqual(Theme.default.composer, ComposerStyle())
    }
}
