import XCTest
import LayoutSnapCore
import LayoutSnapTestSupport
@testable import LayoutSnapDiff

/// Motion diffs of a post's expand with one thing changed at a time (docs/fixtures/post.md's card, the fake
/// measurer): the report names exactly the change made.
final class MotionTests: XCTestCase {
    let canvas = Canvas(width: 390, height: 700, scale: 2)

    func post(
        curve: AnimationCurve = .timing(.easeInOut, duration: 0.3), body: String = "Line one\nLine two",
        image: Bool = true,
        title: String = "Trip"
    ) -> PostFixture {
        PostFixture(
            title: title, summary: "A short summary", body: body,
            image: image ? PostImage(path: nil, aspectRatio: 1.5) : nil,
            author: "Maya", curve: curve, steps: [PostStep(event: .expand)])
    }

    func expand(_ p: PostFixture) throws -> StateMotion {
        StateMotion(
            try PostRules(post: p, canvas: canvas, measurer: FakeMeasurer()).states(fps: 60, palette: .light)[1].frames)
    }

    func testTheSameMotionIsNoChange() throws {
        XCTAssertNil(MotionAnalysis.compare(expected: try expand(post()), actual: try expand(post())))
    }

    /// Text that keeps every rect (same length, so the fake measurer gives the same widths) is
    /// not a motion change: pixels are the story.
    func testATextOnlyChangeIsNotMotion() throws {
        XCTAssertNil(
            MotionAnalysis.compare(expected: try expand(post(title: "Trip")), actual: try expand(post(title: "Trap"))))
    }

    /// 0.30 → 0.35 s: 19 → 22 frames, the same shape: only the duration changed.
    func testALongerDurationIsADurationChangeOnly() throws {
        let r = try XCTUnwrap(
            MotionAnalysis.compare(
                expected: try expand(post()),
                actual: try expand(post(curve: .timing(.easeInOut, duration: 0.35)))))
        XCTAssertEqual(r.kinds, ["duration"])
        XCTAssertEqual(r.frames, [19, 22])
        XCTAssertEqual(r.duration[0], 0.3, accuracy: 1e-9)
        XCTAssertEqual(r.duration[1], 0.35, accuracy: 1e-9)
        XCTAssertNil(r.shift)
        XCTAssertTrue(r.description.hasPrefix("duration 19 → 22 frames, 0.30 → 0.35 s"), r.description)
        // Every actual frame is paired, by the fraction of the animation done: first with
        // first, last with last.
        XCTAssertEqual(r.pairs.filter { $0[1] != nil }.count, 22)
        XCTAssertEqual(r.pairs.first!, [0, 0])
        XCTAssertEqual(r.pairs[21], [18, 21])
    }

    /// easeInOut → easeIn over the same 0.3 s: a curve change of every moving track, named.
    func testACurveSwapIsNamed() throws {
        let r = try XCTUnwrap(
            MotionAnalysis.compare(
                expected: try expand(post()), actual: try expand(post(curve: .timing(.easeIn, duration: 0.3)))))
        XCTAssertEqual(r.kinds, ["curve"])
        let height = try XCTUnwrap(r.changes.first { $0.element == "card" && $0.property == "height" })
        XCTAssertEqual(height.kind, "curve")
        XCTAssertEqual(height.curve, "easeIn")
        // easeIn lags easeInOut in the first half: the card is shorter there.
        XCTAssertLessThan(height.largest!, -5)
        XCTAssertTrue((1...17).contains(height.atFrame!))
        XCTAssertEqual(r.pairs, (0..<19).map { [$0, $0] })
        XCTAssertTrue(r.description.contains(": curve changed, largest -"), r.description)
        XCTAssertTrue(r.description.contains("(now easeIn)"), r.description)
    }

    /// A spring instead of a timing curve is named too.
    func testTheDefaultSpringIsRecognised() throws {
        let r = try XCTUnwrap(
            MotionAnalysis.compare(expected: try expand(post()), actual: try expand(post(curve: .spring(.default)))))
        XCTAssertTrue(r.kinds.contains("duration"))
        XCTAssertEqual(r.changes.first { $0.element == "card" && $0.property == "height" }?.curve, "the default spring")
    }

    /// A longer body moves the end state: body.height, card.height and author.y end higher.
    func testAnEndChangeNamesTheElements() throws {
        let r = try XCTUnwrap(
            MotionAnalysis.compare(
                expected: try expand(post()), actual: try expand(post(body: "Line one\nLine two\nLine three"))))
        XCTAssertTrue(r.kinds.contains("end"))
        let card = try XCTUnwrap(
            r.changes.first { $0.element == "card" && $0.property == "height" && $0.kind == "end" })
        XCTAssertEqual(card.largest!, 22, accuracy: 0.011)
        XCTAssertTrue(r.changes.contains { $0.element == "author" && $0.property == "y" && $0.kind == "end" })
        XCTAssertFalse(r.kinds.contains("duration"))
    }

    func testAnElementThatLeavesIsNamed() throws {
        let r = try XCTUnwrap(
            MotionAnalysis.compare(expected: try expand(post()), actual: try expand(post(image: false))))
        XCTAssertTrue(r.changes.contains(MotionChange(element: "image", kind: "disappeared")))
        XCTAssertTrue(r.kinds.contains("disappeared"))
    }

    /// The same motion three frames later: a shift of 3, frames paired across it.
    func testADelayIsAShift() {
        let move: [Double?] = [0, 0, 10, 40, 70, 90, 100, 100]
        let delayed: [Double?] = [0, 0, 0, 0, 0, 10, 40, 70, 90, 100, 100]
        let e = StateMotion(
            times: (0..<8).map { Double($0) / 60 }, tracks: ["card.y": move, "card.x": Array(repeating: 5, count: 8)])
        let a = StateMotion(
            times: (0..<11).map { Double($0) / 60 },
            tracks: ["card.y": delayed, "card.x": Array(repeating: 5, count: 11)])
        let r = MotionAnalysis.compare(expected: e, actual: a)!
        XCTAssertEqual(r.shift, 3)
        XCTAssertEqual(r.kinds, ["duration", "shift"])
        XCTAssertTrue(r.changes.isEmpty)
        XCTAssertEqual(r.pairs.count, 11)
        XCTAssertEqual(r.pairs[5], [2, 5])
        XCTAssertEqual(r.pairs[1], [nil, 1])
        XCTAssertTrue(r.description.contains("starts 3 frames later"), r.description)
    }

    /// The keyboard's own curve is recognised from its closed form.
    func testTheKeyboardSpringIsRecognised() {
        let times = (0..<38).map { Double($0) / 60 }
        let values: [Double?] = times.enumerated().map { i, t in
            i == 37 ? 516 : 852 - 336 * Keyboard.spring.step(at: t).position
        }
        XCTAssertEqual(MotionAnalysis.knownCurve(times: times, values: values), "the keyboard spring")
        XCTAssertNil(
            MotionAnalysis.knownCurve(
                times: times, values: times.map { 852 - 336 * $0 * $0 / (times.last! * times.last!) }))
    }

    /// Pairing is one to one: a longer motion has new frames, a shorter one removed golden
    /// frames, so another frame count never passes on pixels alone.
    func testPairingByProgressIsOneToOne() throws {
        let e = try expand(post())
        let longer = try expand(post(curve: .timing(.easeInOut, duration: 0.35)))
        let grown = try XCTUnwrap(MotionAnalysis.compare(expected: e, actual: longer))
        XCTAssertEqual(grown.pairs.filter { $0[1] != nil }.count, 22)
        XCTAssertEqual(grown.pairs.filter { $0[0] == nil }.count, 3, "22 frames for 19: three are new")
        XCTAssertEqual(grown.pairs.filter { $0[1] == nil }.count, 0)
        XCTAssertEqual(Set(grown.pairs.compactMap { $0[0] }).count, 19, "every golden frame once")
        let shrunk = try XCTUnwrap(MotionAnalysis.compare(expected: longer, actual: e))
        XCTAssertEqual(shrunk.pairs.filter { $0[1] == nil }.count, 3, "three golden frames are removed")
        XCTAssertEqual(shrunk.pairs.filter { $0[0] == nil }.count, 0)
        XCTAssertEqual(shrunk.pairs.first!, [0, 0])
        XCTAssertEqual(shrunk.pairs[18], [21, 18], "last with last")
    }

    func delayed(by k: Int) -> (StateMotion, StateMotion) {
        let move: [Double?] = [0, 10, 40, 70, 90, 100, 100, 100, 100]
        let later = Array(repeating: 0, count: k) + move.dropLast(k)
        let times = (0..<move.count).map { Double($0) / 60 }
        return (
            StateMotion(times: times, tracks: ["card.y": move]), StateMotion(times: times, tracks: ["card.y": later])
        )
    }

    /// `"tolerance": {"timing": {"frames": N}}`: the same motion up to N frames later, ending
    /// where it did, is tolerated; one frame more is not.
    func testATimingToleranceCoversAShiftThatEndsTheSame() {
        let (e, a) = delayed(by: 2)
        let within = MotionAnalysis.compare(expected: e, actual: a, timingFrames: 2)!
        XCTAssertEqual(within.shift, 2)
        XCTAssertTrue(within.tolerated)
        XCTAssertTrue(within.repaired)
        XCTAssertTrue(within.description.hasSuffix("within the timing tolerance (2 frames)"), within.description)
        XCTAssertFalse(MotionAnalysis.compare(expected: e, actual: a, timingFrames: 1)!.tolerated)
        XCTAssertFalse(MotionAnalysis.compare(expected: e, actual: a)!.tolerated)
        // Shifted so far that it no longer ends where it did: not tolerated, whatever the tolerance.
        let (e2, a2) = delayed(by: 5)
        let cut = MotionAnalysis.compare(expected: e2, actual: a2, timingFrames: 10)!
        XCTAssertFalse(cut.tolerated, cut.description)
    }

    /// A motion cut later (an interrupting step's `at` moved from 0.05 to 0.1 s) is the same
    /// motion for as long as both run: frames are paired by time, the extra ones are new, and
    /// the change is the duration and the end, not a curve.
    func testAMotionCutLaterIsPairedByTime() {
        let move: [Double?] = [0, 10, 40, 70, 90, 100, 100]
        let e = StateMotion(times: (0..<4).map { Double($0) / 60 }, tracks: ["card.height": Array(move[..<4])])
        let a = StateMotion(times: (0..<7).map { Double($0) / 60 }, tracks: ["card.height": move])
        let r = MotionAnalysis.compare(expected: e, actual: a)!
        XCTAssertEqual(r.pairs, [[0, 0], [1, 1], [2, 2], [3, 3], [nil, 4], [nil, 5], [nil, 6]])
        XCTAssertEqual(r.kinds, ["duration", "end"])
        XCTAssertEqual(r.changes, [MotionChange(element: "card", property: "height", kind: "end", largest: 30)])
        XCTAssertTrue(r.repaired)
        // The changed track is kept for the report's plot.
        XCTAssertEqual(r.tracks["card.height"]?[0], Array(move[..<4]))
        XCTAssertEqual(r.times[1].count, 7)
    }

    /// A curve swap keeps the frame count: frames stay paired by index, and the plot has the
    /// changed tracks, golden first.
    func testACurveSwapKeepsFramesPairedByIndex() throws {
        let r = try XCTUnwrap(
            MotionAnalysis.compare(
                expected: try expand(post()), actual: try expand(post(curve: .timing(.linear, duration: 0.3)))))
        XCTAssertFalse(r.repaired)
        let card = try XCTUnwrap(r.tracks["card.height"])
        XCTAssertEqual(card.count, 2)
        XCTAssertEqual(card[0].count, 19)
        XCTAssertEqual(card[0].first!, card[1].first!)
        XCTAssertNotEqual(card[0][5], card[1][5])
    }

    /// The timing tolerance is its own key: alone it keeps pixels exact (no pixel tolerance),
    /// and it is checked like every other field.
    func testTheTimingToleranceDecodes() throws {
        func decode(_ tolerance: String) throws -> Fixture {
            let json =
                #"{"kind": "post", "title": "T", "summary": "S", "body": "B", "author": "A", "tolerance": \#(tolerance)}"#
            return try FixtureDecoder.decode(bytes: Array(json.utf8), id: "t", file: "t.json", folder: .empty())
        }
        let timing = try decode(#"{"timing": {"frames": 2}}"#)
        XCTAssertEqual(timing.timingFrames, 2)
        XCTAssertNil(timing.tolerance, "a timing tolerance alone keeps pixels exact")
        let both = try decode(#"{"maxDiffPixels": 5, "timing": {"frames": 1}}"#)
        XCTAssertEqual(both.tolerance?.maxDiffPixels, 5)
        XCTAssertEqual(both.timingFrames, 1)
        XCTAssertNotNil(try decode("{}").tolerance, "an empty tolerance is the default pixel tolerance, as before")
        XCTAssertEqual(try decode("{}").timingFrames, 0)
        for (bad, message) in [
            (#"{"timing": {"frames": -1}}"#, "$.tolerance.timing.frames"),
            (#"{"timing": {"frames": 1.5}}"#, "$.tolerance.timing.frames"),
            (#"{"timing": {"frame": 1}}"#, "frame"), (#"{"timing": 1}"#, "$.tolerance.timing"),
        ] {
            XCTAssertThrowsError(try decode(bad), bad) { error in
                XCTAssertTrue("\(error)".contains(message), "\(bad): \(error)")
            }
        }
    }
}
