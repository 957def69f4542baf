import LayoutSnapCore
import LayoutSnapRunner
import XCTest

/// Which of side B's frames the compare page shows beside each of A's, worked by hand on states
/// placed as the kinds place them (frames at k / fps from the step's start).
final class PreviewPairingTests: XCTestCase {
    /// A state whose frames have these progress values, at k / 10 s.
    func state(_ name: String, start: Double = 0, _ progress: [Double]) -> StateLayout {
        var s = StateLayout(
            name: name,
            frames: progress.enumerated().map { k, p in
                LayoutFrame(index: k, time: Double(k) / 10, progress: p, elements: [], drawList: [])
            })
        s.start = start
        return s
    }

    func pairing(_ a: [StateLayout], _ b: [StateLayout]) -> PreviewPairing {
        PreviewPairing(a: PreviewPairing.Side(a, hold: 1), b: PreviewPairing.Side(b, hold: 1))
    }

    /// An expand on easeInOut against the same expand at twice the duration: by time B shows the
    /// frame of the same moment (and goes on after A ends), by progress the frame that shows the
    /// same point of the motion.
    func testTwoDurationsPairByTimeAndByProgress() {
        let a = [state("initial", [0]), state("01-expand", [0, 0.25, 0.75, 1])]
        let b = [state("initial", [0]), state("01-expand", [0, 0.1, 0.25, 0.5, 0.75, 0.9, 1])]
        let p = pairing(a, b)
        let expand = p.states[1]
        XCTAssertEqual(expand.state, 1)
        XCTAssertEqual(expand.tail, [0.4, 0.5, 0.6], "B runs on after A's last frame at 0.3 s")
        XCTAssertEqual(expand.byTime, [0, 1, 2, 3, 4, 5, 6])
        XCTAssertEqual(expand.byProgress, [0, 2, 4, 6, 6, 6, 6], "0.25 is B's frame 2, 0.75 its frame 4")
        // On the timeline: A's initial beside B's initial (both at 0, before B's expand at 0).
        XCTAssertEqual(p.timeline.byTime.first, 0)
        XCTAssertEqual(p.timeline.byTime[1], 1, "A's expand frame 0 beside B's")
        XCTAssertEqual(p.timeline.byProgress, [0, 1, 3, 5, 7, 7, 7, 7])
        XCTAssertEqual(p.timeline.tail.count, 3)
    }

    /// Two frames equally near in progress: the one nearer in time.
    func testAProgressTieGoesToTheNearerTime() {
        XCTAssertEqual(
            PreviewPairing.byProgress(
                [0, 0.5], times: [0, 0.3], in: [0.4, 0.6, 0.6, 0.4], times: [0, 0.1, 0.2, 0.3]), [0, 3])
    }

    /// A state where nothing moves has no progress to pair: both modes pair by time.
    func testAStillStatePairsByTimeInBothModes() {
        let p = pairing([state("01-note", [0, 0, 0])], [state("01-note", [0, 0.5, 1])])
        XCTAssertEqual(p.states[0].byProgress, p.states[0].byTime)
        XCTAssertEqual(p.states[0].byTime, [0, 1, 2])
    }

    /// States pair by name; another fixture's states with other names pair by place; a state B
    /// lacks has nothing beside it.
    func testStatesPairByNameThenByPlace() {
        XCTAssertEqual(
            PreviewPairing.pairStates(["initial", "01-expand", "02-collapse"], ["initial", "01-open", "02-collapse"]),
            [0, 1, 2])
        XCTAssertEqual(PreviewPairing.pairStates(["initial", "01-a", "02-b"], ["02-b", "initial"]), [1, nil, 0])
        let p = pairing([state("initial", [0]), state("01-a", [0, 1])], [state("initial", [0])])
        XCTAssertNil(p.states[1].state)
        XCTAssertEqual(p.states[1].byTime, [nil, nil])
        XCTAssertEqual(p.timeline.byTime, [0, 0, 0], "on the timeline B holds its last frame")
    }

    /// By time, B's last frame that has begun: before its first frame, its first.
    func testByTimeTakesTheLastFrameBegun() {
        XCTAssertEqual(PreviewPairing.byTime([0, 0.05, 0.1, 0.35], in: [0, 0.1, 0.2, 0.3]), [0, 0, 1, 3])
        XCTAssertEqual(PreviewPairing.byTime([0, 0.1], in: [0.05, 0.2]), [0, 0])
        XCTAssertEqual(PreviewPairing.byTime([0], in: []), [nil])
    }
}
