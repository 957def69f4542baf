import XCTest
@testable import LayoutSnapCore
import LayoutSnapTestSupport

/// Chat rules (docs/fixtures/chat.md) against numbers worked out by hand.
///
/// Canvas 390 x 852 (iPhone 15: safe areas 59 / 34, keyboard 336). Bubbles are at most
/// 0.75 x (390 - 24) = 274.5 wide, their text 250.5 (29 fake characters of 8.5 pt a line). A one-line
/// bubble is 20.2878 + 16 = 36.2878 tall. The empty input bar is one line: 36.2878 + 16 = 52.2878,
/// so its top is 852 - 34 - 52.2878 = 765.7122 without the keyboard, 463.7122 with it, and the list
/// (from 59) is 706.7122 or 404.7122 tall. Content: 8 + bubbles and 8 between + 8 + 20 + 8.
final class ChatRulesTests: XCTestCase {
    let canvas = Canvas(width: 390, height: 852, scale: 2)
    let device = Device.named("iphone-15")!
    let bubble = 36.2878

    func messages(_ n: Int) -> [ChatMessage] {
        (1...n).map { ChatMessage(id: "m\($0)", role: $0 % 2 == 0 ? .user : .assistant, text: "Hi") }
    }

    func states(_ c: ChatFixture) throws -> [StateLayout] {
        try ChatRules(chat: c, canvas: canvas, device: device).states(
            fps: 60, palette: .light, measurer: FakeMeasurer())
    }

    func rect(_ f: LayoutFrame, _ id: String) -> Rect? { f.element(id)?.rect }
    func unseen(_ f: LayoutFrame) -> LayoutValue? { f.element("list")?["unseen"] }

    /// One message sits at the bottom of a taller viewport: offset 80.2878 - 706.7122.
    func testShortContentSitsAtTheBottom() throws {
        let f = try states(ChatFixture(messages: messages(1)))[0].frames[0]
        XCTAssertEqual(f.scroll!.contentHeight, 80.2878, accuracy: 1e-9)
        XCTAssertEqual(f.scroll!.viewportHeight, 706.7122, accuracy: 1e-9)
        XCTAssertEqual(f.scroll!.offset, 80.2878 - 706.7122, accuracy: 1e-9)
        XCTAssertTrue(f.scroll!.following)
        let m = rect(f, "message:m1")!
        XCTAssertEqual(m.x, 12)
        XCTAssertEqual(m.width, 41)  // "Hi": 17 + 24
        XCTAssertEqual(m.maxY, 765.7122 - 36, accuracy: 1e-9)
        XCTAssertEqual(rect(f, "list")!.y, 59)
        XCTAssertEqual(rect(f, "input")!.y, 765.7122, accuracy: 1e-9)
    }

    /// 500 messages open at the absolute bottom, with and without the keyboard; only the
    /// messages on screen are reported.
    func testFiveHundredMessagesOpenAtTheBottom() throws {
        for keyboard in [false, true] {
            let f = try states(ChatFixture(messages: messages(500), keyboard: keyboard))[0].frames[0]
            let content = 36 + 500 * (bubble + 8)
            let viewport = keyboard ? 404.7122 : 706.7122
            XCTAssertEqual(f.scroll!.contentHeight, content, accuracy: 1e-6)
            XCTAssertEqual(f.scroll!.offset, content - viewport, accuracy: 1e-6)
            let last = rect(f, "message:m500")!
            XCTAssertEqual(last.maxY, (keyboard ? 463.7122 : 765.7122) - 36, accuracy: 1e-6)
            XCTAssertEqual(last.x, 390 - 12 - 41)  // a user bubble, right-aligned
            let shown = f.elements.filter { $0.id.hasPrefix("message:") }.count
            // Counting up from the last bubble (its bottom 36 above the list's end), bubble k ends at
            // viewport - 36 - k x 44.2878: those that end below the list's top are drawn.
            XCTAssertEqual(
                shown, Int(((viewport - 36) / (bubble + 8)).rounded(.down)) + 1, "only what intersects the list")
        }
    }

    func testNewMessagesWhileScrolledUpHoldTheOffsetAndCountUnseen() throws {
        let s = try states(
            ChatFixture(
                messages: messages(40),
                steps: [
                    ChatStep(event: .scrollBy(-300)),
                    ChatStep(event: .receive(ChatMessage(id: "a", role: .assistant, text: "one"))),
                    ChatStep(event: .status(.thinking)),
                    ChatStep(event: .receive(ChatMessage(id: "b", role: .assistant, text: "two"))),
                    ChatStep(event: .scrollBy(10_000)),
                    ChatStep(event: .receive(ChatMessage(id: "c", role: .assistant, text: "three"))),
                ]))
        let content40 = 36 + 40 * (bubble + 8)
        let bottom40 = content40 - 706.7122
        XCTAssertEqual(s[1].frames[0].scroll!.offset, bottom40 - 300, accuracy: 1e-6)
        XCTAssertFalse(s[1].frames[0].scroll!.following)
        for i in 2...4 {
            XCTAssertEqual(s[i].frames.count, 1)
            XCTAssertEqual(s[i].frames[0].scroll!.offset, bottom40 - 300, accuracy: 1e-6, "state \(i) holds")
        }
        XCTAssertEqual(unseen(s[2].frames[0]), .int(1))
        XCTAssertEqual(unseen(s[3].frames[0]), .int(1))  // a status row is not a message
        XCTAssertEqual(unseen(s[4].frames[0]), .int(2))
        // Back at the bottom (clamped): following again, nothing unseen; the next one is pinned.
        let content42 = content40 + 2 * (bubble + 8) + 17.901 + 8
        XCTAssertEqual(s[5].frames[0].scroll!.offset, content42 - 706.7122, accuracy: 1e-6)
        XCTAssertTrue(s[5].frames[0].scroll!.following)
        XCTAssertEqual(unseen(s[5].frames[0]), .int(0))
        XCTAssertEqual(s[6].frames[0].scroll!.offset, content42 + bubble + 8 - 706.7122, accuracy: 1e-6)
        // The status row (17.901) and its spacing follow the last message.
        XCTAssertEqual(rect(s[6].frames[0], "message:c")!.maxY, 765.7122 - 36 - 17.901 - 8, accuracy: 1e-6)
    }

    /// Within 1 pt of the bottom re-engages; `send` always scrolls to the bottom, with the
    /// default spring, every frame rendered.
    func testReengageWithinOnePointAndSendScrollsDown() throws {
        let s = try states(
            ChatFixture(
                messages: messages(40),
                steps: [
                    ChatStep(event: .scrollBy(-200)),
                    ChatStep(event: .scrollBy(199.5)),
                    ChatStep(event: .scrollBy(-200)),
                    ChatStep(event: .receive(ChatMessage(id: "x", role: .assistant, text: "unseen"))),
                    ChatStep(event: .send("Hello")),
                ]))
        XCTAssertTrue(s[2].frames[0].scroll!.following)
        XCTAssertFalse(s[3].frames[0].scroll!.following)
        XCTAssertEqual(unseen(s[4].frames[0]), .int(1))
        let send = s[5].frames
        XCTAssertGreaterThan(send.count, 10)
        let content = 36 + 42 * (bubble + 8)
        XCTAssertEqual(send.last!.scroll!.offset, content - 706.7122, accuracy: 0.01)
        XCTAssertTrue(send.last!.scroll!.following)
        XCTAssertEqual(unseen(send[0]), .int(0))
        XCTAssertEqual(send[0].progress, 0)
        XCTAssertEqual(send.last!.progress, 1, accuracy: 1e-3)
        let offsets = send.map { $0.scroll!.offset }
        XCTAssertEqual(offsets, offsets.sorted())
    }

    /// Following: in every frame of the keyboard's spring the last message stays in view, its
    /// bottom 36 pt above the input bar (status-free list: 8 + 20 + 8).
    func testKeyboardKeepsTheLastMessageAboveTheInputBarInEveryFrame() throws {
        for many in [3, 60] {
            let s = try states(
                ChatFixture(
                    messages: messages(many),
                    steps: [
                        ChatStep(event: .keyboard(show: true)), ChatStep(event: .keyboard(show: false), at: 0.2),
                    ]))
            let frames = s[1].frames + s[2].frames
            XCTAssertGreaterThan(frames.count, 40)
            for f in frames {
                let last = rect(f, "message:m\(many)")!
                let input = rect(f, "input")!
                XCTAssertEqual(last.maxY, input.y - 36, accuracy: 1e-6)
                XCTAssertGreaterThanOrEqual(last.y, rect(f, "list")!.y - 1e-9)
                XCTAssertEqual(input.y, 852 - max(852 - rect(f, "keyboard")!.y, 34) - 52.2878, accuracy: 1e-6)
            }
        }
    }

    /// Scrolled up, the keyboard keeps the content's position: the offset does not move.
    func testKeyboardWhileScrolledUpKeepsTheOffset() throws {
        let s = try states(
            ChatFixture(
                messages: messages(60),
                steps: [ChatStep(event: .scrollBy(-400)), ChatStep(event: .keyboard(show: true))]))
        let held = s[1].frames[0].scroll!.offset
        XCTAssertTrue(s[2].frames.allSatisfy { abs($0.scroll!.offset - held) < 1e-9 })
        XCTAssertFalse(s[2].frames.last!.scroll!.following)
    }

    func testStreamingStatusBannerAndReopen() throws {
        let s = try states(
            ChatFixture(
                messages: messages(30), status: .idle,
                steps: [
                    ChatStep(event: .status(.thinking)),
                    ChatStep(event: .status(.streaming)),
                    ChatStep(event: .receive(ChatMessage(id: "r", role: .assistant, text: "Streaming"))),
                    ChatStep(event: .stream(" grows into a reply that takes two lines")),
                    ChatStep(event: .online(false)),
                    ChatStep(event: .scrollBy(-500)),
                    ChatStep(event: .open),
                ]))
        let base = 36 + 30 * (bubble + 8)
        XCTAssertEqual(s[1].frames[0].scroll!.contentHeight, base + 17.901 + 8, accuracy: 1e-6)
        XCTAssertEqual(s[1].frames[0].element("status")!["state"], .string("thinking"))
        XCTAssertEqual(s[4].frames[0].element("message:r")!["lines"], .int(2))
        XCTAssertEqual(rect(s[4].frames[0], "message:r")!.height, 20.2878 + 22 + 16, accuracy: 1e-9)
        // Its widest line is "Streaming grows into a reply" (28 characters): 238 + 24.
        XCTAssertEqual(rect(s[4].frames[0], "message:r")!.width, 262, accuracy: 1e-9)
        // Pinned through all of it: the status row's bottom 8 + 20 + 8 above the bar.
        for i in 1...4 { XCTAssertTrue(s[i].frames[0].scroll!.following) }
        XCTAssertEqual(rect(s[4].frames[0], "status")!.maxY, 765.7122 - 36, accuracy: 1e-6)
        // Offline: a 32 pt banner under the safe area; the list starts below it.
        XCTAssertEqual(rect(s[5].frames[0], "banner"), Rect(x: 0, y: 59, width: 390, height: 32))
        XCTAssertEqual(rect(s[5].frames[0], "list")!.y, 91)
        XCTAssertNil(s[4].frames[0].element("banner"))
        // Reopening goes back to the absolute bottom at once.
        XCTAssertFalse(s[6].frames[0].scroll!.following)
        XCTAssertEqual(s[7].frames.count, 1)
        XCTAssertEqual(s[7].frames[0].scroll!.offset, s[5].frames[0].scroll!.offset, accuracy: 1e-9)
    }

    /// The send button is arrow.up.circle.fill: a 32 pt circle right of the field (x = 8 + 334 +
    /// 8 = 350, centred on the one-line field: y = 765.7122 + 8 + (36.2878 - 32) / 2 = 775.8561),
    /// the accent colour with a draft and systemGray3 without, and a white up-arrow inside it:
    /// a shaft from 8 pt below the centre to 8 pt above and a head to 7.04 pt either side.
    func testSendButtonIsAnArrowInACircleGreyWithoutADraft() throws {
        for (draft, fill) in [("", Palette.light.sendDisabled), ("Hello", Palette.light.accent)] {
            let f = try states(ChatFixture(messages: messages(1), input: draft))[0].frames[0]
            let send = rect(f, "send")!
            XCTAssertEqual(send.x, 350, accuracy: 1e-9)
            XCTAssertEqual(send.y, 775.8561, accuracy: 1e-9)
            XCTAssertEqual(send.width, 32)
            XCTAssertEqual(f.element("send")!["enabled"], .bool(!draft.isEmpty))
            let circle = f.drawList.firstIndex {
                if case .roundedRect(let r, let radius, _, _) = $0 { r == send && radius == 16 } else { false }
            }!
            guard case .roundedRect(_, _, let circleFill, _) = f.drawList[circle],
                case .strokeLines(let lines, let color, let width) = f.drawList[circle + 1]
            else { return XCTFail("no arrow after the circle") }
            XCTAssertEqual(circleFill, fill)
            XCTAssertEqual(color, Color(hex: 0xFFFFFF))
            XCTAssertEqual(width, 3.008, accuracy: 1e-9)
            let cx = 366.0
            let cy = 775.8561 + 16
            XCTAssertEqual(lines.count, 2)
            XCTAssertEqual(lines[0].map(\.x), [cx, cx])
            XCTAssertEqual(lines[0][0].y, cy + 8, accuracy: 1e-9)
            XCTAssertEqual(lines[0][1].y, cy - 8, accuracy: 1e-9)
            XCTAssertEqual(lines[1][0].x, cx - 7.04, accuracy: 1e-9)
            XCTAssertEqual(lines[1][2].x, cx + 7.04, accuracy: 1e-9)
            // The arrow with its round ends stays well inside the circle.
            for p in lines.joined() {
                XCTAssertLessThan(((p.x - cx) * (p.x - cx) + (p.y - cy) * (p.y - cy)).squareRoot() + width / 2, 16)
            }
        }
    }

    /// An image fills its bubble's width with no frame: 274.5 wide, 274.5 / 1.5 = 183 tall, then the
    /// text's padded line below (36.2878); the bubble's fill starts 1 pt under the picture's bottom
    /// edge, cut to the bubble's shape. A picture alone (0.75: 366 tall) is its own bubble, unfilled.
    func testImagesFillTheBubbleWithoutAFrame() throws {
        let c = ChatFixture(messages: [
            ChatMessage(id: "a", role: .user, text: "Hi", imageAspectRatio: 1.5),
            ChatMessage(id: "b", role: .user, text: "", imageAspectRatio: 0.75),
        ])
        let f = try states(c)[0].frames[0]
        let a = rect(f, "message:a")!
        let b = rect(f, "message:b")!
        XCTAssertEqual(a.width, 274.5)
        XCTAssertEqual(a.height, 183 + bubble, accuracy: 1e-9)
        XCTAssertEqual(b.width, 274.5)
        XCTAssertEqual(b.height, 366, accuracy: 1e-9)
        XCTAssertEqual(b.y - a.maxY, 8, accuracy: 1e-9)
        let gradients = f.drawList.compactMap { op -> (Rect, Color, Color, Rect, Double)? in
            if case .gradient(let r, let top, let bottom, let clip, let radius) = op {
                (r, top, bottom, clip, radius)
            } else {
                nil
            }
        }
        XCTAssertEqual(gradients.count, 3)
        // a: the accent under its text, from 182 down, then the picture, both cut to the bubble.
        XCTAssertEqual(gradients[0].0, Rect(x: a.x, y: a.y + 182, width: 274.5, height: a.height - 182))
        XCTAssertEqual(gradients[0].1, Palette.light.accent)
        XCTAssertEqual(gradients[0].2, Palette.light.accent)
        XCTAssertEqual(gradients[1].0, Rect(x: a.x, y: a.y, width: 274.5, height: 183))
        XCTAssertEqual(gradients[1].1, Palette.light.placeholderTop)
        XCTAssertEqual(gradients[1].2, Palette.light.placeholderBottom)
        XCTAssertEqual(gradients[2].0, b)
        for g in gradients { XCTAssertEqual(g.4, 18) }
        XCTAssertEqual(gradients[0].3, a)
        XCTAssertEqual(gradients[2].3, b)
        // No bubble fill as a rounded rectangle for either, and no coloured frame.
        XCTAssertFalse(
            f.drawList.contains { if case .roundedRect(let r, 18, _, _) = $0 { r == a || r == b } else { false } })
        // a's text sits 8 under the picture.
        let text = f.drawList.compactMap { if case .text(let d) = $0, d.element == "message:a" { d } else { nil } }
        XCTAssertEqual(text.first?.origin.y ?? 0, a.y + 183 + 8, accuracy: 1e-9)
    }

    /// The geometry is the theme's `ChatStyle`: 16 pt bubble padding makes "Hi" 17 + 32 = 49 wide
    /// and 20.2878 + 24 tall, with 10 pt corners; the default is the built-in design's.
    func testTheChatStyleDrivesTheBubbles() throws {
        var theme = Theme.default
        theme.chat.bubblePaddingH = 16
        theme.chat.bubblePaddingV = 12
        theme.chat.bubbleRadius = 10
        let f = try ChatRules(chat: ChatFixture(messages: messages(1)), canvas: canvas, device: device, theme: theme)
            .states(fps: 60, palette: .light, measurer: FakeMeasurer())[0].frames[0]
        let m = rect(f, "message:m1")!
        XCTAssertEqual(m.width, 49)
        XCTAssertEqual(m.height, 20.2878 + 24, accuracy: 1e-9)
        XCTAssertTrue(
            f.drawList.contains {
                if case .roundedRect(m, 10, Palette.light.bubbleGray, true) = $0 { true } else { false }
            })
        XCTAssertEqual(Theme.default.chat, ChatStyle())
    }
}
