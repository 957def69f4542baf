import XCTest
@testable import LayoutSnapCore
import LayoutSnapTestSupport

/// `direction: "rtl"` mirrors the view as SwiftUI does: every element's rect is x' = width - x - w,
/// lines align to the mirrored frame's right edge in their own script's direction, and what sits
/// inside a text (the composer's caret and selection) follows its line, not the mirror.
final class RightToLeftTests: XCTestCase {
    func layouts(_ json: String) throws -> (ltr: FixtureLayout, rtl: FixtureLayout, width: Double) {
        let base = try FixtureDecoder.decode(bytes: Array(json.utf8), id: "t", file: "t.json", folder: .empty())
        let rtl = try XCTUnwrap(base.variants.first { $0.direction == .rtl }).apply(to: base)
        XCTAssertEqual(rtl.direction, .rtl)
        return (
            try LayoutEngine.layout(base, measurer: FakeMeasurer()),
            try LayoutEngine.layout(rtl, measurer: FakeMeasurer()), base.canvas.width
        )
    }

    /// Every element of every frame, mirrored; y and sizes unchanged.
    func assertMirrored(_ json: String, except: Set<String> = [], file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        let (ltr, rtl, w) = try layouts(json)
        var checked = 0
        for (a, b) in zip(ltr.states, rtl.states) {
            for (fa, fb) in zip(a.frames, b.frames) {
                XCTAssertEqual(fa.elements.map(\.id), fb.elements.map(\.id), file: file, line: line)
                for (ea, eb) in zip(fa.elements, fb.elements) where !except.contains(ea.id) {
                    XCTAssertEqual(
                        eb.rect.x, w - ea.rect.x - ea.rect.width, accuracy: 1e-9, "\(a.name) \(ea.id)", file: file,
                        line: line)
                    XCTAssertEqual(eb.rect.y, ea.rect.y, "\(a.name) \(ea.id)", file: file, line: line)
                    XCTAssertEqual(eb.rect.width, ea.rect.width, "\(a.name) \(ea.id)", file: file, line: line)
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 0, file: file, line: line)
    }

    let rtl = #""variants": [{"direction": "rtl"}]"#

    func testChatPostAndTranscriptAreMirrored() throws {
        try assertMirrored(
            #"{"kind": "chat", "messages": [{"id": "a", "role": "user", "text": "Hello there"}, {"id": "b", "role": "assistant", "text": "Hi"}], "steps": [{"send": "More"}], \#(rtl)}"#
        )
        try assertMirrored(
            #"{"kind": "post", "title": "T", "summary": "S", "body": "B\n- item", "author": "A", "image": {"aspectRatio": 1.5}, "steps": [{"expand": true}], \#(rtl)}"#
        )
        try assertMirrored(
            #"{"kind": "transcript", "width": 390, "height": 300, "text": "One\nTwo", "steps": [{"append": "\nThree"}], \#(rtl)}"#
        )
    }

    /// A user's bubble moves to the left edge (12 pt in), the send button to the left of the field.
    func testLeadingAndTrailingSwap() throws {
        let (ltr, rtl, w) = try layouts(
            #"{"kind": "chat", "messages": [{"id": "a", "role": "user", "text": "Hello"}], \#(rtl)}"#)
        let a = ltr.states[0].frames[0]
        let b = rtl.states[0].frames[0]
        XCTAssertEqual(a.element("message:a")!.rect.maxX, w - 12, accuracy: 1e-9)
        XCTAssertEqual(b.element("message:a")!.rect.minX, 12, accuracy: 1e-9)
        XCTAssertLessThan(b.element("send")!.rect.maxX, w / 2, "the send button is on the left")
        XCTAssertGreaterThan(a.element("send")!.rect.minX, w / 2)
        // The bubble's text lines end at the bubble's right inner edge (12 pt of padding).
        let texts = b.drawList.compactMap { op -> TextDraw? in if case .text(let t) = op { t } else { nil } }
        let bubble = try XCTUnwrap(texts.first { $0.text.plainText == "Hello" })
        XCTAssertEqual(bubble.alignRight!, b.element("message:a")!.rect.maxX - 12, accuracy: 1e-9)
        let overlay = try FrameOverlay(frame: b, measurer: FakeMeasurer())
        let line = try XCTUnwrap(
            overlay.lines.first { abs($0.box.maxX - bubble.alignRight!) < 1e-9 }, "\(overlay.lines)")
        XCTAssertEqual(line.box.width, 5 * 8.5, accuracy: 1e-9)
    }

    /// The composer's text is right-aligned in its (symmetric) box: a caret after "He" of "Hello"
    /// stands 17 pt into the line, which now ends at the box's right edge.
    func testTheComposerCaretFollowsItsLine() throws {
        let (ltr, rtl, _) = try layouts(
            #"{"kind": "composer", "height": 800, "text": "Hello", "selection": [2, 2], \#(rtl)}"#)
        let a = ltr.states[0].frames[0]
        let b = rtl.states[0].frames[0]
        let text = b.element("text")!.rect
        XCTAssertEqual(text, a.element("text")!.rect, "the text's box is symmetric, so it stays")
        XCTAssertEqual(a.element("caret")!.rect.minX, text.minX + 17, accuracy: 1e-9)
        XCTAssertEqual(b.element("caret")!.rect.minX, text.maxX - 42.5 + 17, accuracy: 1e-9)
        // The field and its suggestion strip are mirrored like everything else.
        XCTAssertEqual(b.element("field")!.rect, a.element("field")!.rect)
    }
}
