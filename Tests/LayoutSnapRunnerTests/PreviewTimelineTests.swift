import XCTest
import LayoutSnapCore
import LayoutSnapRunner

/// The preview's timeline worked by hand, on states placed as the kinds place them: each state's
/// frames at k / fps from its step's start.
final class PreviewTimelineTests: XCTestCase {
    func state(_ name: String, start: Double, frames: Int, fps: Double = 60, interrupted: Bool = false) -> StateLayout {
        var s = StateLayout(
            name: name,
            frames: (0..<frames).map {
                LayoutFrame(index: $0, time: Double($0) / fps, progress: 0, elements: [], drawList: [])
            })
        s.start = start
        s.interrupted = interrupted
        return s
    }

    /// posts/interrupted-collapse: the expand starts at 0 and the collapse arrives at 0.1 s, so
    /// the expand keeps its frames before 0.1 s (0 to 5/60) and the collapse runs from 0.1 s.
    func testAnInterruptionCutsTheStateWhereTheNextStepArrives() {
        let timeline = PreviewTimeline(
            [
                state("initial", start: 0, frames: 1), state("01-expand", start: 0, frames: 6, interrupted: true),
                state("02-collapse", start: 0.1, frames: 19),
            ], hold: 1)
        XCTAssertEqual(timeline.segments.map(\.state), ["initial", "01-expand", "02-collapse"])
        XCTAssertEqual(timeline.segments.map(\.start), [0, 0, 0.1])
        XCTAssertEqual(timeline.segments[0].duration, 0, "the next step begins at once")
        XCTAssertEqual(timeline.segments[1].duration, 0.1, accuracy: 1e-12)
        XCTAssertEqual(timeline.segments[2].duration, 18.0 / 60, accuracy: 1e-12)
        XCTAssertEqual(timeline.segments[1].frameTimes.last!, 5.0 / 60, accuracy: 1e-12)
        XCTAssertEqual(timeline.segments[2].frameTimes[1], 0.1 + 1.0 / 60, accuracy: 1e-12)
        XCTAssertEqual(timeline.end, 0.1 + 18.0 / 60, accuracy: 1e-12)
        XCTAssertEqual(timeline.instants.map(\.state), ["initial"])
        XCTAssertEqual(timeline.instants.map(\.time), [0])
        XCTAssertEqual(timeline.cuts.map(\.state), ["01-expand"])
        XCTAssertEqual(timeline.cuts[0].time, 0.1, accuracy: 1e-12)
        XCTAssertEqual(timeline.hold, 1)
        let all = timeline.segments.flatMap(\.frameTimes)
        XCTAssertEqual(all, all.sorted(), "the timeline never goes back")
    }

    /// A spring settles at 0.583 s between two frames: its last frame is sampled at 35/60 =
    /// 0.58333 s, after the next step began; it shows from that step's start.
    func testASettledLastFrameNeverShowsAfterTheNextStepBegins() {
        let timeline = PreviewTimeline(
            [state("01-expand", start: 0, frames: 36), state("02-collapse", start: 0.583, frames: 10)], hold: 1)
        XCTAssertEqual(timeline.segments[0].frameTimes.last, 0.583)
        XCTAssertEqual(timeline.segments[0].frameTimes[34], 34.0 / 60, accuracy: 1e-12)
        XCTAssertTrue(timeline.cuts.isEmpty)
    }

    /// An instant step (one frame, nothing moved) is marked at its moment and lasts until the
    /// next step: here a keyboard shown 0.3 s after the fixture opens.
    func testAnInstantLastsUntilTheNextStep() {
        let timeline = PreviewTimeline(
            [state("initial", start: 0, frames: 1), state("01-keyboard", start: 0.3, frames: 21)], hold: 1)
        XCTAssertEqual(timeline.segments[0].duration, 0.3, accuracy: 1e-12)
        XCTAssertTrue(timeline.segments[0].instant)
        XCTAssertFalse(timeline.segments[1].instant)
        XCTAssertEqual(timeline.segments[1].frameTimes[0], 0.3)
        XCTAssertEqual(timeline.end, 0.3 + 20.0 / 60, accuracy: 1e-12)
    }
}
