import XCTest
import LayoutSnapCore
import LayoutSnapRunner

/// When each frame of `preview --export` shows, worked by hand: an `initial` state (one frame)
/// and a 0.3 s expand at 60 fps (19 frames, t = k / 60), both settled, each last frame held 1 s.
final class ExportTimelineTests: XCTestCase {
    func state(_ name: String, frames: Int, fps: Double, interrupted: Bool = false) -> StateLayout {
        var s = StateLayout(
            name: name,
            frames: (0..<frames).map {
                LayoutFrame(index: $0, time: Double($0) / fps, progress: 0, elements: [], drawList: [])
            })
        s.interrupted = interrupted
        return s
    }

    var settled: [StateLayout] { [state("initial", frames: 1, fps: 60), state("01-expand", frames: 19, fps: 60)] }

    func testFramesShowUntilTheNextAndSettledStatesHold() {
        let frames = ExportTimeline.frames(settled, fps: 60, hold: 1)
        XCTAssertEqual(frames.count, 20)
        XCTAssertEqual(frames[0], .init(state: "initial", index: 0, seconds: 1, endsState: true))
        XCTAssertEqual(frames[1].seconds, 1.0 / 60, accuracy: 1e-12)
        XCTAssertEqual(frames[19], .init(state: "01-expand", index: 18, seconds: 1, endsState: true))
        // An interrupted state runs on: its last frame shows one frame's time, not the hold.
        let cut = ExportTimeline.frames([state("01-expand", frames: 7, fps: 60, interrupted: true)], fps: 60, hold: 1)
        XCTAssertEqual(cut.last!.seconds, 1.0 / 60, accuracy: 1e-12)
    }

    /// Video at 60 fps: the initial frame fills 60 video frames (1 s), frames 0-17 one each, the
    /// settled frame 18 another 60: 138 frames, 2.3 s.
    func testVideoRepeatsHeldFramesAtTheFixturesFPS() {
        let video = ExportTimeline.videoFrames(ExportTimeline.frames(settled, fps: 60, hold: 1), fps: 60)
        XCTAssertEqual(video.map(\.times), [60] + Array(repeating: 1, count: 18) + [60])
        XCTAssertEqual(video.reduce(0) { $0 + $1.times }, 138)
    }

    /// GIF at 60 fps: 1/60 s is under the 0.02 s a browser shows, so each odd frame merges into
    /// the even one before it (frames 0, 2, ..., 16 show 2/60 s), frame 17 into 16, and the
    /// settled frame 18 stays. Delays rounded on the running total (1.0333 s → 103 cs, ...):
    /// 100, then 3, 4, 3 repeating, then 100; 230 cs in all, the state's 2.3 s.
    func testGIFMergesFramesShorterThanABrowserShows() {
        let gif = ExportTimeline.gifFrames(ExportTimeline.frames(settled, fps: 60, hold: 1))
        XCTAssertEqual(gif.map(\.frame.index), [0, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18])
        XCTAssertEqual(gif.map(\.centiseconds), [100, 3, 4, 3, 3, 4, 3, 3, 4, 3, 100])
        // A state's last frame is never merged away: with 20 frames at 60 fps, frame 19 takes
        // frame 18's time instead.
        let twenty = ExportTimeline.gifFrames(
            ExportTimeline.frames([state("01-expand", frames: 20, fps: 60)], fps: 60, hold: 1))
        XCTAssertEqual(twenty.map(\.frame.index).suffix(2), [16, 19])
        XCTAssertEqual(twenty.last!.frame.seconds, 1 + 1.0 / 60, accuracy: 1e-12)
        // At 20 fps every frame is 5 cs: nothing merges.
        let slow = ExportTimeline.gifFrames(ExportTimeline.frames([state("s", frames: 7, fps: 20)], fps: 20, hold: 1))
        XCTAssertEqual(slow.map(\.centiseconds), [5, 5, 5, 5, 5, 5, 100])
    }
}
