import Foundation
import XCTest

@testable import LayoutSnapReport

/// The directly written JSON of a plain entry is byte for byte what `ResultsJSON`'s compact
/// encoder writes, over every optional field, awkward strings and awkward numbers; the shapes
/// it does not write are left to the encoder.
final class PassEntryJSONTests: XCTestCase {
    let encoder = ResultsJSON.makeEncoder(pretty: false)

    static let strings = [
        "", "posts/x", "a\"b\\c/d", "say \"hi\"", "back\\slash", "tab\tline\nreturn\rback\u{8}feed\u{C}",
        "\u{0}\u{1}\u{1F}\u{7F}",
        "émoji 😀 עברית 中文", "\u{2028}\u{2029}", "</script><!--",
    ]
    static let numbers: [Double] = [
        // A 20-digit integer no Double holds exactly, and the least subnormal: not written as
        // literals, which the compiler warns about.
        0, -0.0, 1, 100, 0.1, 1.0 / 60, 1e-7, 1e15, 1e16, 1e20, Double("12345678901234567890")!,
        .leastNonzeroMagnitude, .greatestFiniteMagnitude, 0.5, -2.25, .infinity, -.infinity, .nan,
    ]

    func entries() -> [FixtureEntry] {
        var out: [FixtureEntry] = []
        var generator = SystemRandomNumberGenerator()
        for i in 0..<400 {
            func text() -> String { Self.strings[Int.random(in: 0..<Self.strings.count, using: &generator)] }
            func number() -> Double { Self.numbers[Int.random(in: 0..<Self.numbers.count, using: &generator)] }
            func maybe<T>(_ value: T) -> T? { Bool.random(using: &generator) ? value : nil }
            var states: [StateEntry] = []
            for s in 0..<(i % 4) {
                var frames: [FrameEntry] = []
                for f in 0..<(i + s) % 5 {
                    var frame = FrameEntry(
                        index: [f * 7 - 3, Int.max, Int.min, 10, 1_000_000_000][(i + f) % 5], time: number(),
                        progress: number(),
                        status: FrameStatus.allCases[(i + f) % FrameStatus.allCases.count], golden: text())
                    frame.message = maybe(text())
                    frame.expected = maybe(text())
                    frame.actual = maybe(text())
                    frame.diff = maybe(text())
                    frame.goldenHash = maybe(text())
                    frame.pairedWith = maybe([f + 1, 0, 99, -12][i % 4])
                    frame.layoutChanges = (0..<(f % 3)).map { _ in text() }
                    frames.append(frame)
                }
                states.append(StateEntry(name: text(), frames: frames, durationSeconds: maybe(number())))
            }
            var entry = FixtureEntry(id: text(), file: text(), states: states, durationSeconds: maybe(number()))
            entry.canvas = maybe([number(), number()])
            entry.cached = maybe(Bool.random(using: &generator))
            out.append(entry)
        }
        return out
    }

    func testWritesWhatTheEncoderWrites() throws {
        for entry in entries() {
            let direct = try XCTUnwrap(PassEntryJSON.bytes(entry), "\(entry)")
            let encoded = try encoder.encode(entry)
            XCTAssertEqual(
                String(decoding: direct, as: UTF8.self), String(decoding: encoded, as: UTF8.self), "\(entry)")
        }
    }

    func testLeavesOtherShapesToTheEncoder() {
        var entry = FixtureEntry(
            id: "a", file: "a.json",
            states: [
                StateEntry(
                    name: "s", frames: [FrameEntry(index: 0, time: 0, progress: 0, status: .passed, golden: "g")])
            ])
        XCTAssertNotNil(PassEntryJSON.bytes(entry))
        var withLints = entry
        withLints.states[0].frames[0].lints = []
        XCTAssertNil(PassEntryJSON.bytes(withLints))
        var withCause = entry
        withCause.states[0].frames[0].cause = 1
        XCTAssertNil(PassEntryJSON.bytes(withCause))
        var withPairing = entry
        withPairing.states[0].frames[0].pairing = .new
        XCTAssertNil(PassEntryJSON.bytes(withPairing))
        entry.diagnostic = .init(.error, .fixture, message: "broken")
        XCTAssertNil(PassEntryJSON.bytes(entry))
    }
}
