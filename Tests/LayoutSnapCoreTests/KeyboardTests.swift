import XCTest
@testable import LayoutSnapCore
import LayoutSnapTestSupport

/// The drawn keyboard (Keyboard.ops) against numbers worked out by hand.
///
/// 375 pt wide: a letter key is (375 - 2 x 3 - 9 x 6) / 10 = 31.5 wide. Below the 44 pt predictive
/// bar, rows of 42 pt keys start 8 pt down and 54 pt apart: y = 52, 106, 160, 214 on an unscaled
/// keyboard. The fake measurer gives 0.5 x size per character: a letter (22.5 pt) is 11.25 wide,
/// "123" 24, "space" 40, "return" 48 (16 pt).
final class KeyboardTests: XCTestCase {
    let labels = try! Keyboard.Labels(measurer: FakeMeasurer())

    /// The keycaps (not their shadows, not the panel or the bar's dividers), in drawing order.
    func keys(_ ops: [DrawOp], palette: Palette = .light) -> [(rect: Rect, fill: Color)] {
        ops.compactMap {
            if case .roundedRect(let r, 5, let fill, false) = $0, fill == palette.key || fill == palette.functionKey {
                (r, fill)
            } else {
                nil
            }
        }
    }

    func labelDraws(_ ops: [DrawOp]) -> [TextDraw] {
        ops.compactMap { if case .text(let d) = $0 { d } else { nil } }
    }

    /// An iPhone SE's keyboard (260 pt): the 216 pt key area at full size.
    func testRowsKeysAndLabelsAtFullSize() {
        let ops = Keyboard.ops(Rect(x: 0, y: 0, width: 375, height: 260), palette: .light, labels: labels)
        let k = keys(ops)
        // 26 letters, then shift, delete, 123, emoji, space, return.
        XCTAssertEqual(k.count, 32)
        XCTAssertEqual(k[0].rect, Rect(x: 3, y: 52, width: 31.5, height: 42))  // Q
        XCTAssertEqual(k[9].rect.x, 340.5, accuracy: 1e-9)  // P: 375 - 3 - 31.5
        // A row: 9 x 31.5 + 8 x 6 = 331.5 wide, centred from 21.75.
        XCTAssertEqual(k[10].rect.x, 21.75, accuracy: 1e-9)
        XCTAssertEqual(k[10].rect.y, 106)
        // Z row: 7 x 31.5 + 6 x 6 = 256.5, centred from 59.25; shift and delete 1.3 keys (40.95) at the edges.
        XCTAssertEqual(k[19].rect.x, 59.25, accuracy: 1e-9)
        XCTAssertEqual(k[26].rect, Rect(x: 3, y: 160, width: 40.95, height: 42))
        XCTAssertEqual(k[27].rect.x, 375 - 3 - 40.95, accuracy: 1e-9)
        // Bottom row: 123 and emoji 40.95, return 2.75 x 31.5 = 86.625, space the rest.
        XCTAssertEqual(k[28].rect, Rect(x: 3, y: 214, width: 40.95, height: 42))
        XCTAssertEqual(k[29].rect.x, 49.95, accuracy: 1e-9)
        XCTAssertEqual(k[30].rect.x, 96.9, accuracy: 1e-9)
        XCTAssertEqual(k[30].rect.width, 285.375 - 6 - 96.9, accuracy: 1e-9)
        XCTAssertEqual(k[31].rect.x, 285.375, accuracy: 1e-9)
        XCTAssertEqual(k[31].rect.width, 86.625, accuracy: 1e-9)
        // Letters and space are white keys, the rest grey.
        XCTAssertEqual(k.filter { $0.fill == Palette.light.key }.count, 27)
        // Every key has its 1 pt shadow drawn just before it.
        for key in k {
            let i = ops.firstIndex { if case .roundedRect(key.rect, 5, key.fill, false) = $0 { true } else { false } }!
            XCTAssertEqual(
                ops[i - 1],
                .roundedRect(
                    Rect(x: key.rect.x, y: key.rect.y + 1, width: key.rect.width, height: 42), cornerRadius: 5,
                    fill: Palette.light.keyShadow, continuous: false))
        }
        // Labels: 26 letters, 123, space, return, centred on their keys in the text colour.
        let texts = labelDraws(ops)
        XCTAssertEqual(texts.map(\.text.plainText).joined(), "QWERTYUIOPASDFGHJKLZXCVBNM123spacereturn")
        XCTAssertEqual(texts[0].origin.x, 3 + (31.5 - 11.25) / 2, accuracy: 1e-9)
        // A 22.5 pt line is 1.1934 x 22.5 = 26.8515 tall, centred in the 42 pt key.
        XCTAssertEqual(texts[0].origin.y, 52 + (42 - 26.8515) / 2, accuracy: 1e-9)
        XCTAssertEqual(texts[28].origin.x, 285.375 + (86.625 - 48) / 2, accuracy: 1e-9)
        XCTAssertTrue(texts.allSatisfy { $0.color == Palette.light.text && $0.element == nil })
        // The predictive bar's two dividers, 0.5 pt wide at a third and two thirds, 24 pt tall.
        XCTAssertEqual(
            ops[1],
            .roundedRect(
                Rect(x: 124.75, y: 10, width: 0.5, height: 24), cornerRadius: 0, fill: Palette.light.functionKey,
                continuous: false))
        XCTAssertEqual(
            ops[2],
            .roundedRect(
                Rect(x: 249.75, y: 10, width: 0.5, height: 24), cornerRadius: 0, fill: Palette.light.functionKey,
                continuous: false))
    }

    /// A taller keyboard keeps the keys' size (the room below is the bottom bar); a shorter one
    /// scales them: 44 + 108 pt is half the key area, so rows are 21 pt from 44 + 4, 27 pt apart.
    func testKeysScaleWithTheKeyboard() {
        let tall = keys(Keyboard.ops(Rect(x: 0, y: 100, width: 393, height: 336), palette: .light, labels: labels))
        XCTAssertEqual(tall[0].rect.y, 152)
        XCTAssertEqual(tall[0].rect.height, 42)
        XCTAssertEqual(tall[0].rect.width, (393 - 6 - 54) / 10.0, accuracy: 1e-9)
        let short = keys(Keyboard.ops(Rect(x: 0, y: 0, width: 375, height: 152), palette: .light, labels: labels))
        XCTAssertEqual(short[0].rect, Rect(x: 3, y: 48, width: 31.5, height: 21))
        XCTAssertEqual(short[28].rect.y, 44 + (8 + 3 * 54) * 0.5, accuracy: 1e-9)
        // Too narrow for a key: only the panel and the bar.
        XCTAssertEqual(Keyboard.ops(Rect(x: 0, y: 0, width: 50, height: 260), palette: .light, labels: labels).count, 3)
    }

    func testDarkColours() {
        let ops = Keyboard.ops(Rect(x: 0, y: 0, width: 375, height: 260), palette: .dark, labels: labels)
        XCTAssertEqual(
            ops[0],
            .roundedRect(
                Rect(x: 0, y: 0, width: 375, height: 260), cornerRadius: 0, fill: Color(hex: 0x2C2C2E),
                continuous: false))
        let k = keys(ops, palette: .dark)
        XCTAssertEqual(k[0].fill, Color(hex: 0x6B6B6E))
        XCTAssertEqual(k[26].fill, Color(hex: 0x464649))
        XCTAssertTrue(labelDraws(ops).allSatisfy { $0.color == Color(hex: 0xFFFFFF) })
    }

    /// Under a right-to-left layout the keyboard is drawn pre-mirrored: once the frame is mirrored
    /// it is the left-to-right keyboard again, Q on the left, each label where it was.
    func testRightToLeftStaysQwerty() {
        let rect = Rect(x: 0, y: 0, width: 375, height: 260)
        let ltr = Keyboard.ops(rect, palette: .light, labels: labels)
        let mirrored = Keyboard.ops(rect, palette: .light, mirrorWidth: 375, labels: labels)
            .map { RightToLeft.mirror($0, width: 375) }
        XCTAssertEqual(keys(mirrored).count, keys(ltr).count)
        for (a, b) in zip(keys(mirrored), keys(ltr)) {
            XCTAssertEqual(a.rect.x, b.rect.x, accuracy: 1e-9)
            XCTAssertEqual(a.rect.width, b.rect.width, accuracy: 1e-9)
            XCTAssertEqual(a.rect.y, b.rect.y)
        }
        XCTAssertNotEqual(
            keys(Keyboard.ops(rect, palette: .light, mirrorWidth: 375, labels: labels)).first?.rect.x, 3)
        let measurer = FakeMeasurer()
        for (a, b) in zip(labelDraws(ltr), labelDraws(mirrored)) {
            let line = try! measurer.measure(b.text).lines[0]
            XCTAssertEqual(b.lineX(line), a.lineX(line), accuracy: 1e-9, a.text.plainText)
        }
    }

    /// The geometry and fonts are the theme's `KeyboardStyle`: rounder keys, a 2 pt shadow and
    /// 30 pt letters (15 fake points wide) move exactly what they name.
    func testTheKeyboardStyleDrivesTheDrawing() throws {
        var style = KeyboardStyle.default
        style.keyRadius = 8
        style.shadowOffset = 2
        style.letterFont = FontSpec(size: 30)
        let labels = try Keyboard.Labels(measurer: FakeMeasurer(), style: style)
        let ops = Keyboard.ops(Rect(x: 0, y: 0, width: 375, height: 260), palette: .light, style: style, labels: labels)
        let q = Rect(x: 3, y: 52, width: 31.5, height: 42)
        XCTAssertTrue(ops.contains(.roundedRect(q, cornerRadius: 8, fill: Palette.light.key, continuous: false)))
        XCTAssertTrue(
            ops.contains(
                .roundedRect(
                    Rect(x: 3, y: 54, width: 31.5, height: 42), cornerRadius: 8, fill: Palette.light.keyShadow,
                    continuous: false)))
        let first = try XCTUnwrap(labelDraws(ops).first)
        XCTAssertEqual(first.text.font.size, 30)
        XCTAssertEqual(first.origin.x, 3 + (31.5 - 15) / 2, accuracy: 1e-9)
        // The default style is the built-in design's.
        XCTAssertEqual(Theme.default.keyboard, KeyboardStyle())
        XCTAssertEqual(Theme.default.palette(.dark), Palette.dark)
    }
}
