import XCTest
@testable import LayoutSnapCore
import LayoutSnapTestSupport

/// Dynamic Type (reference/dynamic-type.md): a variant's text size scales every text style,
/// size and leading, in every kind; the first line stays the natural line of the scaled size
/// (1.1934 x size), each further line adds the scaled leading; explicit sizes stay fixed.
final class DynamicTypeTests: XCTestCase {
    /// (category, body size, body leading, subheadline size) from the table.
    let sizes: [(ContentSizeCategory, Double, Double, Double)] = [
        (.xSmall, 14, 19, 12), (.large, 17, 22, 15), (.ax1, 28, 34, 25), (.ax3, 40, 48, 36), (.ax5, 53, 62, 49),
    ]

    /// The variant's first frame, or with `last` its last state's last frame.
    func layout(_ json: String, variant: String, last: Bool = false) throws -> LayoutFrame {
        let base = try FixtureDecoder.decode(bytes: Array(json.utf8), id: "t", file: "t.json", folder: .empty())
        let v = try XCTUnwrap(base.variants.first { $0.name == variant }, "\(base.variants.map(\.name))")
        let fixture = v.apply(to: base)
        XCTAssertEqual(fixture.id, "t@" + variant)
        let states = try LayoutEngine.layout(fixture, measurer: FakeMeasurer()).states
        return last ? states.last!.frames.last! : states[0].frames[0]
    }

    let matrix = #""variants": {"textSize": ["xSmall", "Large", "AX1", "AX3", "AX5"]}"#

    func testTheTableAndItsNames() {
        XCTAssertEqual(TextStyle.body.font(at: .ax3).size, 40)
        XCTAssertEqual(TextStyle.body.font(at: .ax3).leading, 48)
        XCTAssertEqual(TextStyle.caption2.font(at: .xSmall).leading, 13)
        XCTAssertEqual(TextStyle.headline.font(at: .ax5).weight, .semibold, "the weight does not change with the size")
        for style in TextStyle.allCases { XCTAssertEqual(style.font(at: .large), style.font, "\(style)") }
        XCTAssertEqual(ContentSizeCategory.named("ax3"), .ax3)
        XCTAssertEqual(ContentSizeCategory.named("Large"), .large)
        XCTAssertEqual(ContentSizeCategory.named("accessibility5"), .ax5)
        XCTAssertEqual(ContentSizeCategory.named("XXXLARGE"), .xxxLarge)
        XCTAssertNil(ContentSizeCategory.named("huge"))
        XCTAssertEqual(FontSpec(size: 22).at(.ax5).size, 22, "an explicit size stays fixed")
    }

    /// Transcript: three lines of body are 1.1934 x size + 2 x leading.
    func testTranscriptLinesScale() throws {
        let json = #"{"kind": "transcript", "width": 390, "height": 600, "text": "Line 1\nLine 2\nLine 3", \#(matrix)}"#
        for (category, size, leading, _) in sizes {
            let frame = try layout(json, variant: category.rawValue)
            XCTAssertEqual(
                frame.element("viewport")!.rect.height, 1.1934 * size + 2 * leading, accuracy: 1e-9, "\(category)")
        }
        // An explicit size does not scale.
        let fixed =
            #"{"kind": "transcript", "width": 390, "height": 600, "text": "Line 1\nLine 2", "font": {"size": 20}, \#(matrix)}"#
        XCTAssertEqual(
            try layout(fixed, variant: "AX5").element("viewport")!.rect.height, 2 * 1.1934 * 20, accuracy: 1e-9)
    }

    /// Composer: two lines are 8 + 1.1934 x size + (leading + 2) + 8 (UITextView's insets,
    /// lineSpacing 2).
    func testComposerLinesScale() throws {
        let json = #"{"kind": "composer", "height": 900, "text": "One\nTwo", \#(matrix)}"#
        for (category, size, leading, _) in sizes {
            let frame = try layout(json, variant: category.rawValue)
            XCTAssertEqual(
                frame.element("field")!.rect.height, 16 + 1.1934 * size + leading + 2, accuracy: 1e-9, "\(category)")
        }
    }

    /// Chat: a two-line bubble is 8 + 1.1934 x size + leading + 8; the status row's subheadline
    /// scales too.
    func testChatBubblesScale() throws {
        let json =
            #"{"kind": "chat", "messages": [{"id": "a", "role": "assistant", "text": "Hi\nthere"}], "steps": [{"status": "thinking"}], \#(matrix)}"#
        for (category, size, leading, sub) in sizes {
            let frame = try layout(json, variant: category.rawValue, last: true)
            XCTAssertEqual(
                frame.element("message:a")!.rect.height, 16 + 1.1934 * size + leading, accuracy: 1e-9, "\(category)")
            XCTAssertEqual(frame.element("status")!.rect.height, 1.1934 * sub, accuracy: 1e-6, "\(category)")
        }
    }

    /// Post: the title (22 pt) and summary (15 pt) are explicit sizes and stay; the body and the
    /// author line scale.
    func testPostScalesItsTextStylesOnly() throws {
        let json =
            #"{"kind": "post", "title": "T", "summary": "S", "body": "B", "author": "A", "expanded": true, \#(matrix)}"#
        let large = try layout(json, variant: "large")
        let ax3 = try layout(json, variant: "AX3")
        XCTAssertEqual(ax3.element("author")!.rect.height, 1.1934 * 36, accuracy: 1e-9)
        XCTAssertEqual(large.element("author")!.rect.height, 1.1934 * 15, accuracy: 1e-9)
        XCTAssertEqual(ax3.element("body")!.rect.height, 1.1934 * 40, accuracy: 1e-9)
        XCTAssertEqual(
            ax3.element("title")!.rect.height, large.element("title")!.rect.height, "the title's explicit size stays")
    }
}
