import Foundation
import XCTest

/// When a state's timing changed, verify compares each frame with the golden frame at the same
/// point of the motion (not the same index), marks frames without a counterpart new or removed,
/// honours a timing tolerance, and `accept` writes the whole new motion.
extension MotionDiffTests {
    /// 7 → 8 frames: each frame is compared with the golden frame at the same point of the
    /// motion, and shown beside it; the report plots every moving track.
    func testALongerExpandIsComparedFrameByFrameAtTheSameProgress() throws {
        let dir = try TempDir()
        let (r, results) = try verify(after: post(duration: 0.35), in: dir)
        XCTAssertEqual(r.status, 1, r.output)
        let state = try XCTUnwrap(results.fixtures[0].states.first { $0.name == "01-expand" })
        let m = try XCTUnwrap(state.motion)
        XCTAssertEqual(m.pairs.compactMap { $0[1] }, Array(0..<8), "pairs list every actual frame in order")
        for pair in m.pairs {
            guard let i = pair[1] else { continue }
            let frame = try XCTUnwrap(state.frames.first { $0.index == i && $0.pairing != "removed" })
            if let j = pair[0], j != i {
                XCTAssertEqual(frame.pairedWith, j, "frame \(i)")
                // Shown beside the golden it was compared with.
                XCTAssertEqual(frame.expected, "expected/cards/motion/01-expand/\(String(format: "%03d", j)).png")
            } else {
                XCTAssertNil(frame.pairedWith)
            }
            XCTAssertNotNil(frame.actual, "frame \(i) has an actual image")
        }
        // The first and last frames are the same views: the first passes against its
        // counterpart; the last, the same view as golden frame 6, has no golden of its own yet.
        XCTAssertEqual(state.frames.first { $0.index == 0 }?.status, "passed")
        XCTAssertEqual(state.frames.first { $0.index == 7 }?.status, "missing")
        XCTAssertEqual(state.frames.first { $0.index == 7 }?.pairedWith, 6)
        // One to one: one more frame than the golden, so one is new, and it fails.
        XCTAssertEqual(state.frames.filter { $0.pairing == "new" }.map(\.status), ["failed"])
        let paired = m.pairs.compactMap { $0[0] }
        XCTAssertEqual(paired.count, Set(paired).count, "no golden frame is paired twice")
        // Plots: every moving track, golden and now.
        XCTAssertEqual(m.times.map(\.count), [7, 8])
        XCTAssertEqual(m.tracks["card.height"]?.map(\.count), [7, 8])

        let chromium = try Browser.chromium()
        let dom = try Browser.run(
            chromium, ["--dump-dom", dir.path(".layoutsnap/report/index.html").absoluteString],
            profile: dir.path("profile"))
        Browser.assertMotionPlot(dom.stdout, track: "card.height")
        XCTAssertTrue(dom.stdout.contains("compared with golden frame "), "the pairing is not shown")
    }

    /// 0.30 → 0.20 s: 7 → 5 frames. Golden frames without a counterpart are removed (failing);
    /// accept deletes them, and the next verify passes with no orphans.
    func testAShorterExpandRemovesGoldenFramesAndAcceptDeletesThem() throws {
        let dir = try TempDir()
        let (r, results) = try verify(after: post(duration: 0.2), in: dir)
        XCTAssertEqual(r.status, 1, r.output)
        let state = try XCTUnwrap(results.fixtures[0].states.first { $0.name == "01-expand" })
        let removed = state.frames.filter { $0.pairing == "removed" }
        XCTAssertEqual(removed.count, 2, r.output)
        XCTAssertTrue(removed.allSatisfy { $0.status == "failed" && $0.actual == nil && $0.expected != nil })
        XCTAssertTrue(r.stdout.contains("removed (the new motion has no frame at their point)"), r.output)
        let accept = try CLI.run(["accept", "--allow-ci"], in: dir.url)
        XCTAssertEqual(accept.status, 0, accept.output)
        XCTAssertTrue(accept.stdout.contains("2 golden frames the new motion no longer has removed"), accept.output)
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path("Goldens/cards/motion/01-expand").path)
            .filter { $0.hasSuffix(".png") }
        XCTAssertEqual(left.sorted(), (0..<5).map { String(format: "%03d.png", $0) })
        let again = try CLI.run(["verify", "--no-progress", "--check-orphans"], in: dir.url)
        XCTAssertEqual(again.status, 0, again.output)
    }

    /// Records `post()`, then rewrites the golden of state 01-expand: `frames` maps the golden
    /// layout's frames (renumbered at 20 fps after), `pngs` the index each new golden PNG is
    /// copied from. The manifest goes, so every golden is read from its file.
    func recordThenRewriteGolden(_ dir: TempDir, frames change: ([[String: Any]]) -> [[String: Any]], pngs: [Int])
        throws
    {
        try dir.write("Fixtures/cards/motion.json", post())
        XCTAssertEqual(try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url).status, 0)
        let folder = dir.path("Goldens/cards/motion/01-expand")
        let old = try (0..<7).map {
            try Data(contentsOf: folder.appendingPathComponent(String(format: "%03d.png", $0)))
        }
        for (k, source) in pngs.enumerated() {
            try old[source].write(to: folder.appendingPathComponent(String(format: "%03d.png", k)))
        }
        let url = dir.path("Goldens/cards/motion/layout.json")
        var layout = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var states = try XCTUnwrap(layout["states"] as? [[String: Any]])
        let s = try XCTUnwrap(states.firstIndex { $0["name"] as? String == "01-expand" })
        var frames = change(try XCTUnwrap(states[s]["frames"] as? [[String: Any]]))
        for i in frames.indices {
            frames[i]["index"] = i
            frames[i]["time"] = Double(i) / 20
        }
        states[s]["frames"] = frames
        layout["states"] = states
        try JSONSerialization.data(withJSONObject: layout).write(to: url)
        try FileManager.default.removeItem(at: dir.path("Goldens/manifest.json"))
    }

    /// The golden held its settled view one frame longer, and every frame that is rendered
    /// matches: the state still fails, on the golden frame past the new end.
    func testAnAnimationThatOnlyLostItsLastFrameFails() throws {
        let dir = try TempDir()
        try recordThenRewriteGolden(dir, frames: { $0 + [$0.last!] }, pngs: [0, 1, 2, 3, 4, 5, 6, 6])
        let r = try CLI.run(["verify", "--no-progress"], in: dir.url)
        XCTAssertEqual(r.status, 1, r.output)
        XCTAssertTrue(r.stdout.contains("MOTION cards/motion 01-expand: duration 8 → 7 frames"), r.output)
        XCTAssertTrue(r.stdout.contains("golden frame 7 removed"), r.output)
        // Without a golden layout.json to compare motion with, the frame past the end still fails.
        try FileManager.default.removeItem(at: dir.path("Goldens/cards/motion/layout.json"))
        let blind = try CLI.run(["verify", "--no-progress"], in: dir.url)
        XCTAssertEqual(blind.status, 1, blind.output)
        XCTAssertTrue(blind.stdout.contains("FAIL cards/motion 01-expand: golden frame 7 removed"), blind.output)
    }

    /// Goldens of the same motion one frame later (a frame of rest first): now it starts one
    /// frame earlier. With `"tolerance": {"timing": {"frames": 1}}` that is similar (exit 0,
    /// reported); without, it fails.
    func testATimingToleranceMakesAOneFrameShiftSimilar() throws {
        for tolerance in [0, 1] {
            let dir = try TempDir()
            try recordThenRewriteGolden(dir, frames: { [$0[0]] + $0 }, pngs: [0, 0, 1, 2, 3, 4, 5, 6])
            let extra = tolerance > 0 ? #", "tolerance": {"timing": {"frames": 1}}"# : ""
            try dir.write(
                "Fixtures/cards/motion.json", smallPost(extra: #", "duration": 0.3, "curve": "easeInOut""# + extra))
            let r = try CLI.run(["verify", "--no-progress"], in: dir.url)
            XCTAssertTrue(
                r.stdout.contains(
                    "MOTION cards/motion 01-expand: duration 8 → 7 frames, 0.35 → 0.30 s; starts 1 frame earlier"),
                r.output)
            let results = try JSONDecoder().decode(
                Results.self, from: Data(contentsOf: dir.path(".layoutsnap/report/results.json")))
            let s = try XCTUnwrap(results.fixtures[0].states.first { $0.name == "01-expand" })
            XCTAssertEqual(s.motion?.shift, -1)
            XCTAssertEqual(s.motion?.tolerated, tolerance > 0)
            // Every new frame is its golden's one frame on, and the same; the golden's first has no counterpart.
            XCTAssertEqual(s.frames.filter { $0.pairing == nil }.map(\.pairedWith), (0..<7).map { $0 + 1 })
            XCTAssertTrue(s.frames.filter { $0.pairing == nil }.allSatisfy { $0.status == "passed" })
            let removed = try XCTUnwrap(s.frames.first { $0.pairing == "removed" })
            XCTAssertEqual(removed.index, 0)
            if tolerance > 0 {
                XCTAssertEqual(r.status, 0, r.output)
                XCTAssertEqual(removed.status, "similar")
                XCTAssertTrue(r.stdout.contains("within the timing tolerance (1 frame)"), r.output)
                XCTAssertTrue(r.stdout.contains("1 similar"), r.output)
            } else {
                XCTAssertEqual(r.status, 1, r.output)
                XCTAssertEqual(removed.status, "failed")
            }
        }
    }

    /// An interrupting collapse moved from 0.1 to 0.2 s: the expand before it is the same motion
    /// for as long as both run, so its frames are paired by time and the later ones are new.
    func testAnInterruptionMovedLaterPairsTheExpandByTime() throws {
        let steps = #""steps": [{"expand": true}, {"collapse": true, "at": AT}]"#
        let base = smallPost().replacingOccurrences(of: #""steps": [{"expand": true}]"#, with: steps)
        let dir = try TempDir()
        try dir.write("Fixtures/cards/motion.json", base.replacingOccurrences(of: "AT", with: "0.1"))
        XCTAssertEqual(try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url).status, 0)
        let (r, results) = try verify(after: base.replacingOccurrences(of: "AT", with: "0.2"), in: dir, recorded: true)
        XCTAssertEqual(r.status, 1, r.output)
        let expand = try XCTUnwrap(results.fixtures[0].states.first { $0.name == "01-expand" })
        let m = try XCTUnwrap(expand.motion)
        // At 20 fps the expand runs frames t = 0, 0.05 before the collapse at 0.1; then 0 to 0.15.
        XCTAssertEqual(m.frames, [2, 4])
        XCTAssertEqual(m.pairs, [[0, 0], [1, 1], [nil, 2], [nil, 3]])
        XCTAssertTrue(m.kinds.contains("duration") && m.kinds.contains("end"), "\(m.kinds)")
        XCTAssertFalse(m.kinds.contains("curve"), "\(m.kinds)")
        XCTAssertEqual(expand.frames.filter { $0.pairing == "new" }.map(\.index), [2, 3])
        XCTAssertTrue(
            expand.frames.filter { $0.index < 2 }.allSatisfy { $0.status == "passed" }, "the shared part is the same")
    }
}
