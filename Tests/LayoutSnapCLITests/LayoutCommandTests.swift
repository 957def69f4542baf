import XCTest

/// `layoutsnap layout` on fixtures written from docs/fixtures/ alone, checked against rects worked out by
/// hand from docs/fixtures/post.md (only the text-independent numbers: Pango decides the line counts).
final class LayoutCommandTests: XCTestCase {
    struct Layout: Decodable {
        struct State: Decodable {
            var name: String
            var frames: [Frame]
        }
        struct Frame: Decodable {
            var index: Int
            var time: Double
            var progress: Double
            var elements: [Element]
        }
        struct Element: Decodable {
            var id: String
            var rect: [Double]
            var lines: Int?
            var truncated: Bool?
            var revealed: Double?
            var opacity: Double?
        }
        var fixture: String
        var states: [State]
    }

    func layout(_ text: String, _ extra: [String] = []) throws -> Layout {
        let dir = try TempDir()
        try dir.copyBundled("Fixtures/posts/images/landscape-3x2.png", to: "cards/images/landscape-3x2.png")
        let file = try dir.write("cards/spec.json", text)
        let r = try CLI.run(["layout", file.path] + extra, in: dir.url)
        XCTAssertEqual(r.status, 0, r.output)
        return try JSONDecoder().decode(Layout.self, from: Data(r.stdout.utf8))
    }

    /// A 3:2 image on the default iPhone 15 canvas (393 wide): card x = (393 - 370) / 2 = 11.5.
    func testThreeTwoImageRects() throws {
        let l = try layout(
            """
            {"kind": "post", "title": "T", "summary": "S", "body": "B", "author": "A",
             "image": {"path": "images/landscape-3x2.png"}, "steps": [{"expand": true}]}
            """)
        XCTAssertEqual(l.states.map(\.name), ["initial", "01-expand"])
        let expand = l.states[1].frames
        XCTAssertEqual(expand.count, 19)
        func el(_ f: Layout.Frame, _ id: String) -> [Double] { f.elements.first { $0.id == id }?.rect ?? [] }
        XCTAssertEqual(el(expand[0], "card"), [11.5, 12, 370, 100])
        XCTAssertEqual(el(expand[0], "image"), [11.5 + 278, 12 + 18, 80, 80])
        // One-line title (26.25) and summary (17.9): titleSummaryHeight = 8 + 26.2548 + 4 + 17.901 + 8 = 64.1558.
        XCTAssertEqual(el(expand[18], "image"), [21.5, 84.16, 350, 233.33])  // y = 12 + 64.1558 + 8
        XCTAssertEqual(el(expand[9], "image"), [155.5, 57.08, 215, 156.67])  // lerp(278, 10), 12 + lerp(18, 72.1558)
        XCTAssertEqual(el(expand[18], "body")[1], 333.49)  // 12 + 72.1558 + 233.3333 + 16
        XCTAssertEqual(expand[9].progress, 0.5)
        XCTAssertEqual(expand[9].time, 0.15)
    }

    func testFrameOutOfRangeIsAnError() throws {
        let dir = try TempDir()
        let file = try dir.write("cards/one.json", #"{"kind": "post", "title": "T"}"#)
        let r = try CLI.run(["layout", file.path, "--frame", "5"], in: dir.url)
        XCTAssertEqual(r.status, 2, r.output)
        XCTAssertTrue(r.stderr.contains("has no frame 5 (initial has 1)"), r.output)
    }

    func testStateAndFrameFilters() throws {
        let l = try layout(
            #"{"kind": "post", "title": "T", "steps": [{"expand": true}]}"#, ["--state", "01-expand", "--frame", "9"])
        XCTAssertEqual(l.states.count, 1)
        XCTAssertEqual(l.states[0].frames.map(\.index), [9])
    }
}

/// A transcript written from docs/fixtures/transcript.md alone, through the real command: offsets worked out by hand.
final class TranscriptLayoutCommandTests: XCTestCase {
    func testStickyTranscriptOffsets() throws {
        let dir = try TempDir()
        let file = try dir.write(
            "t/live.json",
            """
            {"kind": "transcript", "width": 390, "height": 200,
             "text": "1\\n2\\n3\\n4\\n5\\n6\\n7\\n8\\n9",
             "steps": [{"scrollBy": -50}, {"append": "\\n10"}, {"scrollToBottom": true}]}
            """)
        let r = try CLI.run(["layout", file.path], in: dir.url)
        XCTAssertEqual(r.status, 0, r.output)
        struct L: Decodable {
            struct S: Decodable {
                var name: String
                var frames: [F]
            }
            struct F: Decodable {
                var scroll: Scroll
                var elements: [E]
            }
            struct E: Decodable {
                var id: String
                var rect: [Double]
                var lines: Int?
            }
            struct Scroll: Decodable {
                var offset: Double
                var contentHeight: Double
                var viewportHeight: Double
                var following: Bool
            }
            var states: [S]
        }
        let l = try JSONDecoder().decode(L.self, from: Data(r.stdout.utf8))
        XCTAssertEqual(l.states.map(\.name), ["initial", "01-scroll", "02-append", "03-scrollToBottom"])
        // 9 body lines: content 20.29 + 8 x 22 = 196.29, viewport 4 lines = 86.29, at the bottom: 110.
        XCTAssertEqual(l.states[0].frames[0].scroll.offset, 110)
        XCTAssertEqual(l.states[0].frames[0].scroll.viewportHeight, 86.29)
        XCTAssertEqual(l.states[0].frames[0].elements.first { $0.id == "view" }?.rect, [16, 16, 358, 118.29])
        XCTAssertEqual(l.states[1].frames[0].scroll.offset, 60)
        XCTAssertFalse(l.states[1].frames[0].scroll.following)
        // Sticky and scrolled up: the new line does not move the view.
        XCTAssertEqual(l.states[2].frames.count, 1)
        XCTAssertEqual(l.states[2].frames[0].scroll.offset, 60)
        XCTAssertEqual(l.states[2].frames[0].scroll.contentHeight, 218.29)
        XCTAssertEqual(l.states[2].frames[0].elements.first { $0.id == "text" }?.lines, 10)
        XCTAssertEqual(l.states[3].frames.last?.scroll.offset, 132)
        XCTAssertEqual(l.states[3].frames.last?.scroll.following, true)
    }

    /// A composer written from docs/fixtures/composer.md alone: 9 lines of body with lineSpacing 2 in a 5-line
    /// field (20.29 + 4 x 24 + 16 = 132.29 tall at (16, 16), 361 wide on an iPhone 15). The caret
    /// at the end (line 8: 8 + 8 x 24 = 200 in the content) wants 200 + 20.29 + 18 - 132.29 = 106
    /// of scroll; the content (228.29) allows 96.
    func testComposerCaretAndScroll() throws {
        let dir = try TempDir()
        let file = try dir.write(
            "c/field.json",
            """
            {"kind": "composer", "text": "1\\n2\\n3\\n4\\n5\\n6\\n7\\n8\\n9", "suggestions": ["ten"],
             "steps": [{"select": [8, 8]}, {"scrollBy": -100}, {"compose": "x"}, {"insertSuggestion": "ten"}, {"commit": true}]}
            """)
        let r = try CLI.run(["layout", file.path], in: dir.url)
        XCTAssertEqual(r.status, 0, r.output)
        struct L: Decodable {
            struct S: Decodable {
                var name: String
                var note: String?
                var frames: [F]
            }
            struct F: Decodable {
                var scroll: Scroll
                var elements: [E]
            }
            struct E: Decodable {
                var id: String
                var rect: [Double]
                var value: String?
                var selection: [Int]?
                var marked: [Int]?
                var visible: Bool?
                var words: [String]?
            }
            struct Scroll: Decodable {
                var offset: Double
                var contentHeight: Double
                var viewportHeight: Double
                var following: Bool
            }
            var states: [S]
        }
        let l = try JSONDecoder().decode(L.self, from: Data(r.stdout.utf8))
        func el(_ s: Int, _ id: String) -> L.E { l.states[s].frames[0].elements.first { $0.id == id }! }
        func scroll(_ s: Int) -> L.Scroll { l.states[s].frames[0].scroll }
        XCTAssertEqual(
            l.states.map(\.name),
            ["initial", "01-select", "02-scroll", "03-compose", "04-insertSuggestion", "05-commit"])
        XCTAssertEqual(el(0, "field").rect, [16, 16, 361, 132.29])
        XCTAssertEqual(scroll(0).offset, 96)
        XCTAssertEqual(scroll(0).contentHeight, 228.29)
        XCTAssertEqual(scroll(0).viewportHeight, 132.29)
        XCTAssertEqual(el(0, "caret").rect[1], 16 + 200 - 96)
        XCTAssertEqual(el(0, "caret").rect[2...], [2, 20.29])
        // Line 4 ("5" at offset 8) is at 8 + 96 = 104: with 12 pt of room it scrolls to 92.
        XCTAssertEqual(scroll(1).offset, 92)
        XCTAssertEqual(el(1, "caret").rect[1], 16 + 104 - 92)
        // The drag is clamped at the top and kept; marked text brings the caret back, from below
        // this time: 104 + 20.29 + 18 - 132.29 = 10.
        XCTAssertEqual(scroll(2).offset, 0)
        XCTAssertFalse(scroll(2).following)
        XCTAssertEqual(scroll(3).offset, 10)
        XCTAssertTrue(scroll(3).following)
        XCTAssertEqual(el(3, "text").value, "1\n2\n3\n4\nx5\n6\n7\n8\n9")
        XCTAssertEqual(el(3, "text").marked, [8, 9])
        XCTAssertEqual(l.states[4].note, "insertSuggestion ignored: marked text is active")
        XCTAssertEqual(el(4, "text").value, el(3, "text").value)
        XCTAssertNil(el(5, "text").marked)
        XCTAssertEqual(el(5, "suggestions").words, ["ten"])
        // The keyboard is up: 852 - 336; the strip sits on it.
        XCTAssertEqual(el(0, "keyboard").rect, [0, 516, 393, 336])
        XCTAssertEqual(el(0, "suggestions").rect, [0, 472, 393, 44])
    }

    /// A chat written from docs/fixtures/chat.md alone, on an iPhone 15 (safe areas 59 / 34, keyboard 336):
    /// the empty input bar is one line of body (20.29 + 16) plus 8 + 8 = 52.29 tall. Following, in
    /// every frame of the keyboard's spring, the last bubble ends 8 + 20 + 8 = 36 pt above the bar.
    func testChatKeyboardKeepsTheLastMessageAboveTheInputInEveryFrame() throws {
        let dir = try TempDir()
        let file = try dir.write(
            "c/chat.json",
            """
            {"kind": "chat", "messages": [{"id": "a", "role": "assistant", "text": "Hi"}, {"id": "b", "role": "user", "text": "Hello"}],
             "steps": [{"keyboard": "show"}, {"scrollBy": -10}, {"receive": {"id": "c", "text": "New"}}]}
            """)
        let r = try CLI.run(["layout", file.path], in: dir.url)
        XCTAssertEqual(r.status, 0, r.output)
        struct L: Decodable {
            struct S: Decodable {
                var name: String
                var frames: [F]
            }
            struct F: Decodable {
                var time: Double
                var scroll: Scroll
                var elements: [E]
            }
            struct E: Decodable {
                var id: String
                var rect: [Double]
                var unseen: Int?
            }
            struct Scroll: Decodable {
                var offset: Double
                var contentHeight: Double
                var viewportHeight: Double
                var following: Bool
            }
            var states: [S]
        }
        let l = try JSONDecoder().decode(L.self, from: Data(r.stdout.utf8))
        func el(_ f: L.F, _ id: String) -> L.E? { f.elements.first { $0.id == id } }
        XCTAssertEqual(l.states.map(\.name), ["initial", "01-keyboard-show", "02-scroll", "03-receive"])
        let first = l.states[0].frames[0]
        XCTAssertEqual(el(first, "input")?.rect, [0, 765.71, 393, 52.29])
        XCTAssertEqual(el(first, "list")?.rect, [0, 59, 393, 706.71])
        // Two one-line bubbles: 8 + 36.29 + 8 + 36.29 + 8 + 20 + 8 = 124.58, at the bottom.
        XCTAssertEqual(first.scroll.contentHeight, 124.58)
        XCTAssertEqual(first.scroll.offset, 124.58 - 706.71, accuracy: 0.011)
        XCTAssertEqual(el(first, "message:b")!.rect[1] + el(first, "message:b")!.rect[3], 765.71 - 36, accuracy: 0.011)
        // The keyboard's critically damped spring settles in about 0.61 s: 38 frames at 60 fps.
        let frames = l.states[1].frames
        XCTAssertEqual(frames.count, 38)
        XCTAssertLessThanOrEqual(frames.last!.time, 0.62)
        for f in frames {
            let last = el(f, "message:b")!.rect
            let input = el(f, "input")!.rect
            XCTAssertEqual(last[1] + last[3], input[1] - 36, accuracy: 0.011)
            XCTAssertTrue(f.scroll.following)
        }
        XCTAssertEqual(el(frames.last!, "input")!.rect[1], 852 - 336 - 52.29, accuracy: 0.011)
        // Short content cannot scroll: the drag changes nothing, and it stays following.
        XCTAssertTrue(l.states[2].frames[0].scroll.following)
        XCTAssertEqual(el(l.states[3].frames[0], "list")?.unseen, 0)
    }
}
