import XCTest
@testable import LayoutSnapCore
import LayoutSnapTestSupport

/// Each lint rule on hand-built frames: a finding with its numbers, and a near miss that is not
/// one. FakeMeasurer makes a character 0.5 x size wide; a 20 pt line box is 1.1934 x 20 =
/// 23.868 pt tall with its baseline 0.952 x 20 = 19.04 pt below its top.
final class LintRuleTests: XCTestCase {
    let font = FontSpec(size: 20)

    func text(
        _ s: String, at origin: Point, element: String, color: Color = .black, clip: Rect? = nil, size: Double = 20,
        weight: FontWeight = .regular, maxLines: Int? = nil
    ) -> DrawOp {
        let f = FontSpec(size: size, weight: weight)
        return .text(
            TextDraw(
                text: StyledText(markup: s, font: f, width: nil, maxLines: maxLines), origin: origin,
                baselines: [f.ascent], color: color, clip: clip, element: element))
    }

    func lint(_ kind: FixtureKind, _ elements: [LayoutElement], _ ops: [DrawOp], settled: Bool = true) throws
        -> [LintFinding]
    {
        let frame = LayoutFrame(index: 0, time: 0, progress: 1, elements: elements, drawList: [.fill(.white)] + ops)
        return try LayoutLinter(kind: kind, canvas: Canvas(width: 400, height: 400, scale: 1), measurer: FakeMeasurer())
            .lint(frame, settled: settled)
    }

    // MARK: text-overlap

    func testTextOverlapNamesBothElementsAndTheOverlap() throws {
        let elements = [
            LayoutElement(id: "card", rect: Rect(x: 0, y: 0, width: 300, height: 300)),
            LayoutElement(id: "summary", rect: Rect(x: 0, y: 0, width: 40, height: 23.868)),
            LayoutElement(id: "body", rect: Rect(x: 10, y: 14, width: 40, height: 23.868)),
        ]
        let found = try lint(
            .post, elements,
            [
                text("abcd", at: Point(x: 0, y: 0), element: "summary"),
                text("abcd", at: Point(x: 10, y: 14), element: "body"),
            ])
        XCTAssertEqual(found.map(\.rule), [.textOverlap])
        XCTAssertEqual(found.first?.elements, ["body", "summary"])
        XCTAssertEqual(found.first?.detail, "body overlaps summary by 9.9 pt")  // 23.868 - 14
        XCTAssertEqual(found.first?.rect.height ?? 0, 9.868, accuracy: 1e-9)
        XCTAssertEqual(found.first?.rect.x, 10)
        XCTAssertEqual(found.first?.rect.width, 30)
    }

    func testLinesThatOnlyTouchDoNotOverlap() throws {
        let elements = [LayoutElement(id: "card", rect: Rect(x: 0, y: 0, width: 300, height: 300))]
        // 0.368 pt of overlap is under the half-point slack.
        let found = try lint(
            .post, elements,
            [
                text("abcd", at: Point(x: 0, y: 0), element: "summary"),
                text("abcd", at: Point(x: 0, y: 23.5), element: "body"),
            ])
        XCTAssertEqual(found, [])
    }

    // MARK: outside-container

    func testAnElementBelowItsCardIsOutsideItWhileVisible() throws {
        let card = LayoutElement(id: "card", rect: Rect(x: 0, y: 0, width: 100, height: 100))
        let author = { (y: Double, opacity: Double) in
            LayoutElement(
                id: "author", rect: Rect(x: 10, y: y, width: 50, height: 20),
                attributes: [("opacity", .number(opacity))])
        }
        let found = try lint(.post, [card, author(95, 1)], [])
        XCTAssertEqual(found.map(\.rule), [.outsideContainer])
        XCTAssertEqual(found.first?.elements, ["author", "card"])
        XCTAssertEqual(found.first?.detail, "author reaches 15 pt below card")
        XCTAssertEqual(found.first?.rect, Rect(x: 10, y: 100, width: 50, height: 15))
        XCTAssertEqual(try lint(.post, [card, author(80.4, 1)], []), [], "0.4 pt over is rounding, not a bug")
        XCTAssertEqual(try lint(.post, [card, author(95, 0)], []), [], "a transparent element is not drawn")
    }

    func testAFixedHeightBarsLabelThatOverflowsIsOutsideIt() throws {
        // A chat's banner is 32 pt; a 20 pt label clipped to a taller clip overflows it.
        let banner = LayoutElement(id: "banner", rect: Rect(x: 0, y: 100, width: 400, height: 20))
        let found = try lint(
            .chat, [banner],
            [
                text(
                    "Offline", at: Point(x: 8, y: 100), element: "banner",
                    clip: Rect(x: 0, y: 0, width: 400, height: 400))
            ])
        XCTAssertTrue(
            found.contains { $0.rule == .outsideContainer && $0.detail == "banner's text reaches 3.9 pt below banner" },
            "\(found)")
    }

    // MARK: clipped-text

    func testALineCutByAMaskInASettledFrameIsClipped() throws {
        let elements = [
            LayoutElement(id: "card", rect: Rect(x: 0, y: 0, width: 300, height: 300)),
            LayoutElement(id: "body", rect: Rect(x: 0, y: 0, width: 40, height: 23.868)),
        ]
        let cut = [text("abcd", at: Point(x: 0, y: 0), element: "body", clip: Rect(x: 0, y: 0, width: 300, height: 10))]
        let found = try lint(.post, elements, cut)
        XCTAssertEqual(found.map(\.rule), [.clippedText])
        XCTAssertEqual(found.first?.detail, "a line of body is cut by 13.9 pt at its clip")
        XCTAssertEqual(try lint(.post, elements, cut, settled: false), [], "mid-animation a mask is meant to cut")
        let whole = [
            text("abcd", at: Point(x: 0, y: 0), element: "body", clip: Rect(x: 0, y: 0, width: 300, height: 24))
        ]
        XCTAssertEqual(try lint(.post, elements, whole), [])
        // A scroll viewport cuts lines by design.
        let transcript = [
            LayoutElement(id: "view", rect: Rect(x: 0, y: 0, width: 300, height: 10)),
            LayoutElement(id: "text", rect: Rect(x: 0, y: 0, width: 40, height: 23.868)),
        ]
        XCTAssertEqual(
            try lint(
                .transcript, transcript,
                [text("abcd", at: Point(x: 0, y: 0), element: "text", clip: Rect(x: 0, y: 0, width: 300, height: 10))]),
            [])
    }

    func testTruncationOnlyWhereTheKindTruncates() throws {
        let elements = [LayoutElement(id: "list", rect: Rect(x: 0, y: 0, width: 400, height: 400))]
        let long = text("one two three four five six seven", at: Point(x: 0, y: 0), element: "message:1", maxLines: 1)
        // FakeMeasurer lays unbounded text on one line; give it a width so it wraps and is cut.
        guard case .text(var draw) = long else { return XCTFail() }
        draw.text.width = 60
        let found = try lint(.chat, elements, [.text(draw)])
        XCTAssertEqual(
            found.filter { $0.rule == .clippedText }.map(\.detail),
            ["message:1 is truncated, which this kind never does"])
        draw.element = "title"
        let post = [
            LayoutElement(id: "card", rect: Rect(x: 0, y: 0, width: 400, height: 400)),
            LayoutElement(id: "title", rect: Rect(x: 0, y: 0, width: 60, height: 24)),
        ]
        XCTAssertEqual(
            try lint(.post, post, [.text(draw)]).filter { $0.rule == .clippedText }, [],
            "a post's title is ellipsized on purpose")
    }

    // MARK: contrast

    func testContrastUsesTheColoursDrawnUnderTheTextAndWCAGsLargeTextRule() throws {
        XCTAssertEqual(LayoutLinter.contrastRatio(Color(hex: 0x767676), .white), 4.54, accuracy: 0.01)
        XCTAssertEqual(LayoutLinter.contrastRatio(Color(hex: 0x777777), .white), 4.48, accuracy: 0.01)
        let elements = [
            LayoutElement(id: "card", rect: Rect(x: 0, y: 0, width: 300, height: 300)),
            LayoutElement(id: "author", rect: Rect(x: 0, y: 0, width: 100, height: 30)),
        ]
        let faint = try lint(
            .post, elements,
            [text("abcd", at: Point(x: 0, y: 0), element: "author", color: Color(hex: 0x777777), size: 17)])
        XCTAssertEqual(faint.map(\.detail), ["author has contrast 4.48:1 against its background, under 4.5:1"])
        XCTAssertEqual(
            try lint(
                .post, elements,
                [text("abcd", at: Point(x: 0, y: 0), element: "author", color: Color(hex: 0x767676), size: 17)]), [])
        // 18 pt, or 14 pt bold, needs only 3:1.
        XCTAssertEqual(
            try lint(
                .post, elements,
                [text("abcd", at: Point(x: 0, y: 0), element: "author", color: Color(hex: 0x777777), size: 18)]), [])
        XCTAssertEqual(
            try lint(
                .post, elements,
                [
                    text(
                        "abcd", at: Point(x: 0, y: 0), element: "author", color: Color(hex: 0x777777), size: 14,
                        weight: .bold)
                ]), [])
        // 50% black over a white card on a black canvas: the card's white is what is under it
        // (sRGB 0.5 is 21.4% luminance: 1.05 / 0.264).
        let onCard: [DrawOp] = [
            .fill(.black),
            .roundedRect(Rect(x: 0, y: 0, width: 300, height: 300), cornerRadius: 12, fill: .white, continuous: true),
            text("abcd", at: Point(x: 0, y: 0), element: "author", color: Color.black.opacity(0.5), size: 15),
        ]
        XCTAssertEqual(
            try lint(.post, elements, onCard).map(\.detail),
            ["author has contrast 3.98:1 against its background, under 4.5:1"])
        XCTAssertEqual(try lint(.post, elements, onCard, settled: false), [], "a fade is not judged mid-animation")
    }

    /// A gradient's colour at the point's height, inside its clip only: black to white over 0...100
    /// is 25% white at y 25 (over the white canvas colour it starts from), and nothing outside the clip.
    func testContrastReadsAGradientAtTheLinesHeight() {
        let ops: [DrawOp] = [
            .fill(.white),
            .gradient(
                Rect(x: 0, y: 0, width: 100, height: 100), top: .black, bottom: .white,
                clip: Rect(x: 0, y: 0, width: 50, height: 100), cornerRadius: 0),
        ]
        let at25 = LayoutLinter.background(at: Point(x: 10, y: 25), under: 2, in: ops)!
        XCTAssertEqual(at25.red, 0.25, accuracy: 1e-12)
        XCTAssertEqual(at25.blue, 0.25, accuracy: 1e-12)
        XCTAssertEqual(LayoutLinter.background(at: Point(x: 75, y: 25), under: 2, in: ops), .white)
        XCTAssertEqual(LayoutLinter.background(at: Point(x: 10, y: 25), under: 1, in: ops), .white)
    }

    // MARK: caret-hidden

    func testAFocusedCaretMustBeInsideTheFieldAndClearOfStripAndKeyboard() throws {
        let field = LayoutElement(id: "field", rect: Rect(x: 0, y: 0, width: 300, height: 100))
        func caret(_ y: Double, visible: Bool = true) -> LayoutElement {
            LayoutElement(
                id: "caret", rect: Rect(x: 10, y: y, width: 2, height: 20), attributes: [("visible", .bool(visible))])
        }
        let below = try lint(.composer, [field, caret(90)], [])
        XCTAssertEqual(below.map(\.detail), ["caret reaches 10 pt below field"])
        XCTAssertEqual(below.first?.elements, ["caret", "field"])
        XCTAssertEqual(try lint(.composer, [field, caret(50)], []), [])
        XCTAssertEqual(
            try lint(.composer, [field, caret(90, visible: false)], []), [], "a disabled field has no caret to hide")
        let strip = LayoutElement(
            id: "suggestions", rect: Rect(x: 0, y: 60, width: 300, height: 44), attributes: [("visible", .bool(true))])
        XCTAssertEqual(
            try lint(.composer, [field, caret(50), strip], []).map(\.detail),
            ["caret is 10 pt under the suggestion strip"])
    }

    // MARK: ignores and ranges

    func testIgnoresNeedTheRuleAndMatchElementsOrPrefixes() {
        let finding = LintFinding(
            rule: .contrast, elements: ["message:m3"], detail: "", rect: Rect(x: 0, y: 0, width: 1, height: 1),
            amount: 1)
        XCTAssertTrue(LintIgnore(rule: .contrast, element: "message:*", reason: "r").covers(finding))
        XCTAssertTrue(LintIgnore(rule: .contrast, element: nil, reason: "r").covers(finding))
        XCTAssertFalse(LintIgnore(rule: .contrast, element: "message:m", reason: "r").covers(finding))
        XCTAssertFalse(LintIgnore(rule: .textOverlap, element: "message:*", reason: "r").covers(finding))
    }

    func testRangesJoinConsecutiveFramesAndQuoteTheWorst() {
        func f(_ amount: Double) -> LintFinding {
            LintFinding(
                rule: .textOverlap, elements: ["body", "summary"], detail: "by \(amount)",
                rect: Rect(x: 0, y: 0, width: 1, height: 1), amount: amount)
        }
        let ranges = LintRange.ranges(
            state: "01-expand",
            frames: [(0, []), (1, []), (2, [f(3)]), (3, [f(14.2)]), (4, [f(9)]), (5, []), (6, [f(1)])])
        XCTAssertEqual(ranges.map(\.frames), ["frames 2-4", "frame 6"])
        XCTAssertEqual(ranges.first?.worst.detail, "by 14.2")
    }
}

/// Ranges over whole states, as verify's outputs build them, and the cost of many lines.
final class LintRangeAndCostTests: XCTestCase {
    func finding(_ rule: LintRule, _ amount: Double) -> LintFinding {
        LintFinding(
            rule: rule, elements: ["body", "summary"], detail: "by \(amount)",
            rect: Rect(x: 0, y: 0, width: 1, height: 1), amount: amount)
    }

    func testAFrameWithoutTheFindingBreaksTheRangeAndARepeatIsOneFinding() {
        let ranges = LintRange.ranges(
            state: "s",
            frames: [
                (0, []), (1, [finding(.textOverlap, 2), finding(.textOverlap, 5)]), (2, [finding(.textOverlap, 1)]),
                (3, []), (4, [finding(.textOverlap, 9)]),
            ])
        XCTAssertEqual(ranges.map(\.frames), ["frames 1-2", "frame 4"])
        XCTAssertEqual(ranges.first?.worst.amount, 5)
        XCTAssertEqual(ranges.map(\.worstFrame), [1, 4])
    }

    /// The terminal's groups: one per rule over every element, frame and state, counting one
    /// finding per frame of each range and quoting the worst with its state and frame.
    func testGroupsCountEveryRangeOfARuleAndQuoteTheWorst() {
        func on(_ element: String, _ amount: Double, _ rule: LintRule = .contrast) -> LintFinding {
            LintFinding(
                rule: rule, elements: [element], detail: "\(element) \(amount)",
                rect: Rect(x: 0, y: 0, width: 1, height: 1),
                amount: amount)
        }
        let ranges =
            LintRange.ranges(
                state: "initial", frames: [(0, [on("banner", 1), on("input", 2), on("body", 3, .outsideContainer)])])
            + LintRange.ranges(
                state: "01-send",
                frames: [
                    (0, [on("banner", 1)]), (1, [on("banner", 4)]), (2, [on("banner", 1)]), (3, []),
                    (4, [on("input", 2)]),
                ])
        let groups = LintGroup.groups(ranges)
        XCTAssertEqual(groups.map(\.rule), [.outsideContainer, .contrast], "in the rules' own order")
        let contrast = groups[1]
        XCTAssertEqual(contrast.findings, 6)
        XCTAssertEqual(contrast.elements, 2)
        XCTAssertEqual(
            contrast.frames,
            [
                LintGroup.StateFrames(state: "initial", indices: [0]),
                LintGroup.StateFrames(state: "01-send", indices: [0, 1, 2, 4]),
            ])
        XCTAssertEqual(contrast.worst.detail, "banner 4.0")
        XCTAssertEqual(contrast.worstState, "01-send")
        XCTAssertEqual(contrast.worstFrame, 1)
        XCTAssertEqual(groups[0].findings, 1)
    }

    /// Thousands of lines of two texts side by side, one clipped: no overlap is invented, and the
    /// clipped text's lines below its clip are never boxed (the sweep compares only lines that
    /// share rows; `bench` measures the cost).
    func testManyLinesSideBySideDoNotOverlap() throws {
        let font = FontSpec(size: 10)
        let lines = 20_000
        let text = StyledText(
            runs: [TextRun(Array(repeating: "ab", count: lines).joined(separator: "\n"))], font: font, width: nil)
        let baselines = (0..<lines).map { Double($0) * 12 + font.ascent }
        let ops: [DrawOp] = [
            .fill(.white),
            .text(
                TextDraw(
                    text: text, origin: Point(x: 0, y: 0), baselines: baselines, color: .black,
                    clip: Rect(x: 0, y: 0, width: 400, height: 400), element: "text")),
            .text(
                TextDraw(text: text, origin: Point(x: 200, y: 0), baselines: baselines, color: .black, element: "other")
            ),
        ]
        let frame = LayoutFrame(index: 0, time: 0, progress: 1, elements: [], drawList: ops)
        let linter = LayoutLinter(
            kind: .transcript, canvas: Canvas(width: 400, height: 400, scale: 1), measurer: FakeMeasurer())
        XCTAssertEqual(
            try linter.lines(of: frame).filter { $0.element == "text" }.count, 34,
            "only the lines the 400 pt clip can show")
        let found = try linter.lint(frame, settled: true)
        XCTAssertEqual(found.filter { $0.rule == .textOverlap }, [], "side by side, no overlap")
        // Shifted onto the first text, the second overlaps it.
        var shifted = frame
        if case .text(var d) = shifted.drawList[2] {
            d.origin.x = 0
            shifted.drawList[2] = .text(d)
        }
        XCTAssertEqual(
            try linter.lint(shifted, settled: false).filter { $0.rule == .textOverlap }.map(\.elements),
            [["other", "text"]])
    }
}
