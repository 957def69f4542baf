import LayoutSnapCore
import LayoutSnapDiff
import XCTest

/// Attribution of a failing frame and grouping into causes (docs/review.md), on layout pairs
/// painted into small images: each element is a filled rect of its own colour, so a moved element
/// is the same pixels at its new place.
final class AttributionTests: XCTestCase {
    typealias Elements = Attribution.Elements

    static let background: UInt32 = 0xFFFF_FFFF

    /// A canvas of `width` x `height` points at `scale`, each element filled with its colour.
    func paint(_ elements: Elements, colors: [String: UInt32], width: Int = 100, height: Int = 200, scale: Double = 1)
        -> [UInt32]
    {
        let w = Int(Double(width) * scale)
        let h = Int(Double(height) * scale)
        var image = [UInt32](repeating: Self.background, count: w * h)
        // Rects too large to draw (the absurd golden below) are left out of the picture.
        for (id, r) in elements where [r.x, r.y, r.width, r.height].allSatisfy({ $0.isFinite && abs($0) < 1e6 }) {
            let color = colors[id] ?? 0xFF00_0000
            for y in max(0, Int(r.y * scale))..<min(h, Int((r.y + r.height) * scale)) {
                for x in max(0, Int(r.x * scale))..<min(w, Int((r.x + r.width) * scale)) { image[y * w + x] = color }
            }
        }
        return image
    }

    func attribute(
        _ golden: Elements, _ actual: Elements, goldenColors: [String: UInt32], actualColors: [String: UInt32]? = nil,
        scale: Double = 1
    ) -> FrameAttribution {
        let a = paint(golden, colors: goldenColors, scale: scale)
        let b = paint(actual, colors: actualColors ?? goldenColors, scale: scale)
        return a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                Attribution.attribute(
                    golden: golden, actual: actual,
                    pixels: Attribution.Pixels(
                        expected: a, actual: b, width: Int(100 * scale), height: Int(200 * scale),
                        scale: scale))
            }
        }
    }

    func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect { Rect(x: x, y: y, width: w, height: h) }

    static let colors: [String: UInt32] = [
        "list": 0xFFEE_EEEE, "message:m1": 0xFF20_60D0, "message:m2": 0xFFD0_D0D0,
        "message:m3": 0xFF20_60D0, "message:new": 0xFF30_A030,
    ]

    /// A chat anchored to the bottom gains a message in the middle: the messages above it move up
    /// by its height plus the spacing, with the same pixels; the new one appeared.
    func testInsertedMessageAppearsAndTheOnesAboveMoveWithTheirPixels() {
        let golden: Elements = [
            ("list", rect(0, 0, 100, 180)), ("message:m1", rect(40, 60, 50, 20)),
            ("message:m2", rect(10, 90, 60, 30)), ("message:m3", rect(40, 130, 50, 20)),
        ]
        // The new message is 24 pt tall; with 8 pt spacing everything above it rises by 32.
        let actual: Elements = [
            ("list", rect(0, 0, 100, 180)), ("message:m1", rect(40, 28, 50, 20)),
            ("message:m2", rect(10, 58, 60, 30)), ("message:new", rect(10, 96, 60, 24)),
            ("message:m3", rect(40, 130, 50, 20)),
        ]
        let a = attribute(golden, actual, goldenColors: Self.colors)
        XCTAssertEqual(a.kind, .layout)
        XCTAssertEqual(a.change(of: "message:new")?.change, .appeared)
        for id in ["message:m1", "message:m2"] {
            let change = a.change(of: id)
            XCTAssertEqual(change?.change, .moved, id)
            XCTAssertEqual(change?.dy, -32, id)
            XCTAssertEqual(change?.dx, 0, id)
            XCTAssertEqual(change?.pixelsUnchanged, true, id)
            XCTAssertEqual(change?.description, "\(id) moved (+0.00, -32.00), pixels unchanged")
        }
        XCTAssertNil(a.change(of: "message:m3"), "below the insertion nothing changed")
        XCTAssertNil(a.change(of: "list"), "the list's pixels are all explained by the messages")
        XCTAssertEqual(a.unassignedPixels, 0)
        // The cause is the new message; the moves are its consequence.
        let frame = CauseAnalysis.frame(fixture: "chats/a", state: "initial", attribution: a)
        XCTAssertEqual(frame.signature, [Cause.Change(element: "message:*", property: "appeared")])
        XCTAssertEqual(frame.movedUnchanged, 2)
    }

    /// A moved element whose content changed too is moved, not "pixels unchanged".
    func testMovedElementWithOtherPixelsIsNotUnchanged() {
        let golden: Elements = [("message:m1", rect(40, 60, 50, 20))]
        let actual: Elements = [("message:m1", rect(40, 28, 50, 20))]
        let a = attribute(golden, actual, goldenColors: Self.colors, actualColors: ["message:m1": 0xFF10_1010])
        XCTAssertEqual(a.change(of: "message:m1")?.change, .moved)
        XCTAssertEqual(a.change(of: "message:m1")?.pixelsUnchanged, false)
        XCTAssertEqual(
            CauseAnalysis.frame(fixture: "f", state: "s", attribution: a).signature,
            [Cause.Change(element: "message:*", property: "y", delta: -32)])
    }

    /// ChatRules' bubble padding 12 → 14 pt: every bubble is 4 pt wider (2 pt each side); a user
    /// bubble, aligned to the trailing edge (12 pt in), also starts 4 pt further left. Frames with
    /// only assistant bubbles and frames with both are one cause.
    func testPaddingChangeIsOneCauseAcrossFrames() {
        let goldenBoth: Elements = [("message:m1", rect(48, 20, 40, 20)), ("message:m2", rect(12, 50, 60, 30))]
        let actualBoth: Elements = [("message:m1", rect(44, 20, 44, 20)), ("message:m2", rect(12, 50, 64, 30))]
        let goldenAssistant: Elements = [("message:m2", rect(12, 50, 60, 30))]
        let actualAssistant: Elements = [("message:m2", rect(12, 50, 64, 30))]
        let both = attribute(goldenBoth, actualBoth, goldenColors: Self.colors)
        XCTAssertEqual(both.kind, .layout)
        XCTAssertEqual(both.change(of: "message:m1")?.change, .resized)
        XCTAssertEqual(both.change(of: "message:m1")?.dw, 4)
        XCTAssertEqual(both.change(of: "message:m1")?.dx, -4)
        XCTAssertEqual(both.change(of: "message:m2")?.dw, 4)
        XCTAssertEqual(both.change(of: "message:m2")?.dx, 0)
        let assistant = attribute(goldenAssistant, actualAssistant, goldenColors: Self.colors)
        var frames: [CauseAnalysis.Frame] = []
        for i in 0..<30 {
            frames.append(CauseAnalysis.frame(fixture: "chats/\(i % 7)", state: "s\(i % 3)", attribution: both))
        }
        for i in 0..<12 {
            frames.append(CauseAnalysis.frame(fixture: "chats/x\(i % 2)", state: "initial", attribution: assistant))
        }
        let (causes, ids) = CauseAnalysis.group(frames)
        XCTAssertEqual(causes.count, 1)
        XCTAssertEqual(ids, [Int](repeating: 1, count: 42))
        XCTAssertEqual(causes[0].frames, 42)
        XCTAssertEqual(causes[0].fixtures, 9)
        // (i % 7, i % 3) takes 21 values over 30 frames; the assistant-only frames add 2 states.
        XCTAssertEqual(causes[0].states, 23)
        XCTAssertEqual(causes[0].changes.first, Cause.Change(element: "message:*", property: "width", delta: 4))
        XCTAssertTrue(causes[0].changes.contains(Cause.Change(element: "message:*", property: "x", delta: -4)))
        XCTAssertEqual(causes[0].summary, "message:* width +4.00, message:* x -4.00")
    }

    /// A larger text size: each element grows by its own amount and the ones below move down.
    func testFontSizeChangeResizesEachMessageByItsOwnAmount() {
        let golden: Elements = [("title", rect(10, 10, 80, 20)), ("body", rect(10, 40, 80, 60))]
        // The title's line box grows by 3.58 pt, the body's three lines by 12 pt; the body moves down.
        let actual: Elements = [("title", rect(10, 10, 80, 23.58)), ("body", rect(10, 43.58, 80, 72))]
        let a = attribute(golden, actual, goldenColors: ["title": 0xFF11_1111, "body": 0xFF44_4444])
        XCTAssertEqual(a.change(of: "title")?.change, .resized)
        XCTAssertEqual(a.change(of: "title")?.dh, 3.58)
        XCTAssertEqual(a.change(of: "body")?.change, .resized)
        XCTAssertEqual(a.change(of: "body")?.dh, 12)
        XCTAssertEqual(a.change(of: "body")?.dy, 3.58)
        XCTAssertEqual(
            CauseAnalysis.frame(fixture: "f", state: "s", attribution: a).signature,
            [
                Cause.Change(element: "body", property: "height", delta: 12),
                Cause.Change(element: "body", property: "y", delta: 3.58),
                Cause.Change(element: "title", property: "height", delta: 3.58),
            ])
    }

    /// A colour change: the layout is identical, the pixels of one element differ.
    func testColourChangeIsPixelsOnlyAndRestylesTheElement() {
        let elements: Elements = [
            ("list", rect(0, 0, 100, 180)), ("message:m1", rect(40, 60, 50, 20)), ("message:m2", rect(10, 90, 60, 30)),
        ]
        var recoloured = Self.colors
        recoloured["message:m1"] = 0xFF00_7AFF
        let a = attribute(elements, elements, goldenColors: Self.colors, actualColors: recoloured)
        XCTAssertEqual(a.kind, .pixelsOnly)
        XCTAssertEqual(a.elements.map(\.id), ["message:m1"])
        XCTAssertEqual(a.change(of: "message:m1")?.change, .restyled)
        XCTAssertEqual(a.change(of: "message:m1")?.pixels, 50 * 20)
        let frame = CauseAnalysis.frame(fixture: "f", state: "s", attribution: a)
        XCTAssertEqual(frame.kind, .pixelsOnly)
        let (causes, _) = CauseAnalysis.group([frame], environment: ["pango 1.50.12 → 1.52.0"])
        XCTAssertEqual(
            causes[0].summary,
            "pixels only, layout identical: message:* (the goldens were recorded elsewhere: pango 1.50.12 → 1.52.0)")
    }

    /// Content scrolled: every message moved by the same offset and nothing else changed.
    func testScrollShiftIsScrolled() {
        let golden: Elements = [
            ("list", rect(0, 0, 100, 180)), ("message:m1", rect(40, 60, 50, 20)), ("message:m2", rect(10, 90, 60, 30)),
        ]
        let actual: Elements = [
            ("list", rect(0, 0, 100, 180)), ("message:m1", rect(40, 20, 50, 20)), ("message:m2", rect(10, 50, 60, 30)),
        ]
        let a = attribute(golden, actual, goldenColors: Self.colors)
        XCTAssertEqual(a.kind, .scrolled)
        XCTAssertEqual(a.dy, -40)
        XCTAssertEqual(a.dx, 0)
        let frame = CauseAnalysis.frame(fixture: "f", state: "s", attribution: a)
        XCTAssertEqual(frame.kind, .scrolled)
        XCTAssertEqual(
            CauseAnalysis.group([frame]).causes[0].summary, "content scrolled -40.00 pt, nothing else changed")
    }

    /// Pixels at scale 2 map points to two pixels each; a differing pixel goes to the innermost
    /// element, and pixels inside no element are unassigned.
    func testPixelsGoToTheInnermostElementAtScale() {
        let elements: Elements = [("card", rect(0, 0, 100, 100)), ("body", rect(10, 10, 20, 10))]
        var goldenImage = paint(elements, colors: ["card": 0xFFEE_EEEE, "body": 0xFF11_1111], scale: 2)
        var actualImage = goldenImage
        actualImage[(2 * 12) * 200 + 2 * 15] = 0xFF00_0000  // inside body
        actualImage[(2 * 50) * 200 + 2 * 50] = 0xFF00_0000  // inside card only
        actualImage[(2 * 150) * 200 + 2 * 50] = 0xFF00_0000  // below the card
        let a = goldenImage.withUnsafeMutableBufferPointer { g in
            actualImage.withUnsafeMutableBufferPointer { n in
                Attribution.attribute(
                    golden: elements, actual: elements,
                    pixels: Attribution.Pixels(
                        expected: UnsafeBufferPointer(g), actual: UnsafeBufferPointer(n),
                        width: 200, height: 400, scale: 2))
            }
        }
        XCTAssertEqual(a.change(of: "body")?.pixels, 1)
        XCTAssertEqual(a.change(of: "card")?.pixels, 1)
        XCTAssertEqual(a.unassignedPixels, 1)
    }

    /// Two independent changes in different frames are two causes, ranked by frames covered; each
    /// frame names its own.
    func testIndependentChangesAreSeparateCausesRankedByFrames() {
        let title = FrameAttribution(
            kind: .layout, elements: [ElementChange(id: "title", change: .resized, dh: 3.58, rect: [0, 0, 1, 1])])
        let inserted = FrameAttribution(
            kind: .layout, elements: [ElementChange(id: "message:q", change: .appeared, rect: [0, 0, 1, 1])])
        var frames = (0..<3).map { CauseAnalysis.frame(fixture: "posts/\($0)", state: "initial", attribution: title) }
        frames += (0..<5).map { CauseAnalysis.frame(fixture: "chats/c", state: "s\($0)", attribution: inserted) }
        frames.append(CauseAnalysis.frame(fixture: "chats/new", state: "initial", attribution: nil, missing: true))
        let (causes, ids) = CauseAnalysis.group(frames)
        XCTAssertEqual(causes.map(\.frames), [5, 3, 1])
        XCTAssertEqual(causes.map(\.kind), [.layout, .layout, .missing])
        XCTAssertEqual(causes[0].summary, "message:* appeared")
        XCTAssertEqual(causes[1].summary, "title height +3.58")
        XCTAssertEqual(ids, [2, 2, 2, 1, 1, 1, 1, 1, 3])
    }

    /// A golden layout.json is input: absurd or non-finite rects are attributed, not trapped on.
    func testAbsurdGoldenRectsDoNotTrap() {
        let golden: Elements = [
            ("message:m1", rect(1e300, 60, 50, 20)), ("message:m2", rect(10, -1e300, .infinity, 30)),
            ("message:m3", rect(.nan, 10, 5, 5)),
        ]
        let actual: Elements = [
            ("message:m1", rect(40, 28, 50, 20)), ("message:m2", rect(10, 90, 60, 30)),
            ("message:m3", rect(20, 10, 5, 5)),
        ]
        let a = attribute(golden, actual, goldenColors: Self.colors)
        XCTAssertEqual(a.change(of: "message:m1")?.change, .moved)
        XCTAssertEqual(a.change(of: "message:m1")?.pixelsUnchanged, false)
        XCTAssertEqual(a.change(of: "message:m2")?.change, .resized)
    }

    /// The diff image: an element that only moved is drawn quietly, not red.
    func testDiffImageDrawsMovedUnchangedQuietly() {
        let golden: Elements = [("message:m1", rect(40, 60, 50, 20))]
        let actual: Elements = [("message:m1", rect(40, 28, 50, 20))]
        let a = paint(golden, colors: Self.colors)
        let b = paint(actual, colors: Self.colors)
        var diff = [UInt32](repeating: 0, count: a.count)
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                diff.withUnsafeMutableBufferPointer { out in
                    _ = PixelDiff.compare(a, b, width: 100, height: 200, diffImage: out)
                    _ = Attribution.attribute(
                        golden: golden, actual: actual,
                        pixels: Attribution.Pixels(expected: a, actual: b, width: 100, height: 200, scale: 1),
                        diffImage: out)
                }
            }
        }
        XCTAssertFalse(diff.contains(DiffColor.red.argb32), "no differing pixel of a moved-only element is red")
        XCTAssertTrue(diff.contains(Attribution.movedUnchangedColor))
    }
}
