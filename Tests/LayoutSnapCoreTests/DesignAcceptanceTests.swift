import XCTest
@testable import LayoutSnapCore
import LayoutSnapTestSupport

/// The built-in design's accepted findings (docs/decisions.md "The design accepts its own
/// findings"): a finding is the design's only with the design's rule, kind, element and its very
/// colours or its animated geometry; the same element in other colours is linted in full.
final class DesignAcceptanceTests: XCTestCase {
    func contrast(_ element: String, text: Color, on background: Color) -> LintFinding {
        LintFinding(
            rule: .contrast, elements: [element], detail: "", rect: Rect(x: 0, y: 0, width: 1, height: 1), amount: 0.5,
            colors: LintColors(text: text, background: background))
    }

    func accepted(_ f: LintFinding, _ kind: String, _ palette: Palette = .light, settled: Bool = true) -> Bool {
        BuiltInDesign.acceptance(for: f, kind: kind, palette: palette, settled: settled) != nil
    }

    func testContrastIsTheDesignsOnlyInTheDesignsColours() {
        let white = Color(hex: 0xFFFFFF)
        // White on the light accent #007AFF (4.02:1) and on the dark one #0A84FF (3.65:1).
        XCTAssertTrue(accepted(contrast("message:m1", text: white, on: Color(hex: 0x007AFF)), "chat"))
        XCTAssertTrue(accepted(contrast("message:m1", text: white, on: Color(hex: 0x0A84FF)), "chat", .dark))
        // Each appearance's own accent only.
        XCTAssertFalse(accepted(contrast("message:m1", text: white, on: Color(hex: 0x0A84FF)), "chat", .light))
        // A green accent of the user's own (#34C759: 2.22:1 under white) is the user's to fix.
        XCTAssertFalse(accepted(contrast("message:m1", text: white, on: Color(hex: 0x34C759)), "chat"))
        // The same colours on another element or kind are not the design's.
        XCTAssertFalse(accepted(contrast("status", text: white, on: Color(hex: 0x007AFF)), "chat"))
        XCTAssertFalse(accepted(contrast("message:m1", text: white, on: Color(hex: 0x007AFF)), "composer"))
        // Within half an 8-bit level is the same colour once drawn; 0.6 of a level is not.
        XCTAssertTrue(
            accepted(
                contrast("message:m1", text: Color(red: 1 - 0.4 / 255, green: 1, blue: 1), on: Color(hex: 0x007AFF)),
                "chat"))
        XCTAssertFalse(
            accepted(
                contrast("message:m1", text: Color(red: 1 - 0.6 / 255, green: 1, blue: 1), on: Color(hex: 0x007AFF)),
                "chat"))
        // The placeholder: #3C3C43 at 60% on the field's white, in the composer and the chat's input.
        let secondary = Color(hex: 0x3C3C4399, hasAlpha: true)
        XCTAssertTrue(accepted(contrast("placeholder", text: secondary, on: white), "composer"))
        XCTAssertTrue(accepted(contrast("input", text: secondary, on: white), "chat"))
        XCTAssertFalse(accepted(contrast("placeholder", text: secondary.opacity(0.5), on: white), "composer"))
        // "Thinking" on the canvas #F2F2F7, the banner on the bubble grey #E9E9EB.
        XCTAssertTrue(accepted(contrast("status", text: secondary, on: Color(hex: 0xF2F2F7)), "chat"))
        XCTAssertTrue(accepted(contrast("banner", text: secondary, on: Color(hex: 0xE9E9EB)), "chat"))
        // The post's author: 50% black on the card, white at 90% over #F2F2F7: 0.9 + 0.1 x 242/255
        // = 0.994902 in red and green, 0.9 + 0.1 x 247/255 = 0.996863 in blue.
        let card = Color(red: 0.9 + 0.1 * 242 / 255, green: 0.9 + 0.1 * 242 / 255, blue: 0.9 + 0.1 * 247 / 255)
        XCTAssertTrue(accepted(contrast("author", text: Color.black.opacity(0.5), on: card), "post"))
        XCTAssertFalse(accepted(contrast("author", text: Color.black.opacity(0.5), on: white), "post"))
    }

    func testTheAuthorBelowTheCardIsTheDesignsOnlyWhileItAnimates() {
        let below = LintFinding(
            rule: .outsideContainer, elements: ["author", "card"], detail: "author reaches 25.7 pt below card",
            rect: Rect(x: 0, y: 0, width: 1, height: 1), amount: 25.7)
        XCTAssertTrue(accepted(below, "post", settled: false))
        XCTAssertFalse(accepted(below, "post", settled: true), "a settled card that does not hold its author")
        var body = below
        body.elements = ["body", "card"]
        XCTAssertTrue(accepted(body, "post", settled: false))
        var canvas = below
        canvas.elements = ["card", "canvas"]
        XCTAssertFalse(accepted(canvas, "post", settled: false), "a card below the canvas is the fixture's")
    }

    /// The whole way, from the rules' colours: a chat's user bubble drawn in the built-in light
    /// palette is found (4.02:1) and accepted; the same chat with a green accent is found and kept.
    func testAChatInOtherColoursKeepsItsFinding() throws {
        let chat = ChatFixture(messages: [ChatMessage(id: "m1", role: .user, text: "Hello")])
        let canvas = Canvas(width: 390, height: 640, scale: 1)
        var green = Palette.light
        green.accent = Color(hex: 0x34C759)
        for (palette, kept) in [(Palette.light, false), (green, true)] {
            let frame = try ChatRules(chat: chat, canvas: canvas, device: Device.named("iphone-15")!)
                .states(fps: 60, palette: palette, measurer: FakeMeasurer())[0].frames[0]
            let findings = try LayoutLinter(kind: .chat, canvas: canvas, measurer: FakeMeasurer())
                .lint(frame, settled: true).filter { $0.elements == ["message:m1"] }
            XCTAssertEqual(findings.count, 1)
            XCTAssertEqual(findings.first?.colors?.background, palette.accent)
            let survives = findings.filter {
                BuiltInDesign.acceptance(for: $0, kind: "chat", palette: .light, settled: true) == nil
            }
            XCTAssertEqual(survives.count, kept ? 1 : 0)
        }
    }
}
