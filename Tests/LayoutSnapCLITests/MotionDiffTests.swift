import Foundation
import XCTest

/// verify explains a changed animation in motion terms: the terminal's MOTION line and the
/// state's `motion` block in results.json, and nothing of the kind for a change that is not motion.
final class MotionDiffTests: XCTestCase {
    func post(duration: Double = 0.3, curve: String = "easeInOut", title: String = "Small card") -> String {
        smallPost(title: title, extra: #", "duration": \#(duration), "curve": "\#(curve)""#)
    }

    struct Results: Decodable {
        struct Fixture: Decodable { var states: [State] }
        struct State: Decodable {
            var name: String
            var frames: [Frame]
            var motion: Motion?
        }
        struct Frame: Decodable {
            var index: Int
            var status: String
            var pairedWith: Int?
            var pairing: String?
            var expected: String?
            var actual: String?
        }
        struct Motion: Decodable {
            var frames: [Int]
            var duration: [Double]
            var shift: Int?
            var pairs: [[Int?]]
            var kinds: [String]
            var changes: [Change]
            var summary: String
            var tolerated: Bool
            var times: [[Double]]
            var tracks: [String: [[Double?]]]
        }
        struct Change: Decodable {
            var element: String
            var property: String?
            var kind: String
            var largest: Double?
            var atFrame: Int?
            var curve: String?
        }
        var fixtures: [Fixture]
    }

    /// Records `post()` (unless `recorded`), then verifies `text` in its place.
    func verify(after text: String, in given: TempDir? = nil, recorded: Bool = false) throws -> (CLI.Result, Results) {
        let dir = try given ?? TempDir()
        if !recorded {
            try dir.write("Fixtures/cards/motion.json", post())
            XCTAssertEqual(try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url).status, 0)
        }
        try dir.write("Fixtures/cards/motion.json", text)
        let r = try CLI.run(["verify", "--no-progress"], in: dir.url)
        let data = try Data(contentsOf: dir.path(".layoutsnap/report/results.json"))
        return (r, try JSONDecoder().decode(Results.self, from: data))
    }

    /// 0.30 → 0.35 s at 20 fps: 7 → 8 frames; the shape is the same, so only the duration.
    func testALongerExpandIsReportedAsALongerDuration() throws {
        let (r, results) = try verify(after: post(duration: 0.35))
        XCTAssertEqual(r.status, 1, r.output)
        XCTAssertTrue(
            r.stdout.contains("MOTION cards/motion 01-expand: duration 7 → 8 frames, 0.30 → 0.35 s\n"), r.output)
        // The motion line comes before the pixel counts.
        let motion = r.stdout.range(of: "MOTION cards/motion 01-expand")!
        let fail = r.stdout.range(of: "FAIL cards/motion 01-expand")!
        XCTAssertLessThan(motion.lowerBound, fail.lowerBound)
        let m = try XCTUnwrap(results.fixtures[0].states.first { $0.name == "01-expand" }?.motion)
        XCTAssertEqual(m.frames, [7, 8])
        XCTAssertEqual(m.kinds, ["duration"])
        XCTAssertNil(m.shift)
        XCTAssertEqual(Set(m.pairs.compactMap { $0[1] }), Set(0..<8), "every actual frame is paired")
        XCTAssertTrue(m.changes.isEmpty)
        // The report shows the terminal's line (its `summary`).
        XCTAssertEqual(m.summary, "duration 7 → 8 frames, 0.30 → 0.35 s")
    }

    /// The same 0.3 s with easeIn instead of easeInOut: a curve change, named.
    func testACurveSwapIsNamed() throws {
        let (r, results) = try verify(after: post(curve: "easeIn"))
        XCTAssertEqual(r.status, 1, r.output)
        XCTAssertTrue(r.stdout.contains("MOTION cards/motion 01-expand: "), r.output)
        XCTAssertTrue(r.stdout.contains(": curve changed, largest "), r.output)
        let m = try XCTUnwrap(results.fixtures[0].states.first { $0.name == "01-expand" }?.motion)
        XCTAssertEqual(m.kinds, ["curve"])
        let card = try XCTUnwrap(m.changes.first { $0.element == "card" && $0.property == "height" })
        XCTAssertEqual(card.curve, "easeIn")
        XCTAssertEqual(m.pairs.count, 7)
    }

    /// A new title of the same length moves nothing: the frames fail on pixels alone, and no
    /// motion is reported.
    func testATextChangeIsNotMotion() throws {
        let (r, results) = try verify(after: post(title: "Small cart"))
        XCTAssertEqual(r.status, 1, r.output)
        XCTAssertTrue(r.stdout.contains("FAIL cards/motion"), r.output)
        XCTAssertFalse(r.stdout.contains("MOTION"), r.output)
        XCTAssertTrue(results.fixtures[0].states.allSatisfy { $0.motion == nil })
    }

    /// A longer message in the bundled chat widens its bubble in every state. Five of its states
    /// are one frame each: no motion there (it is the FAIL line's layout change), so no MOTION
    /// line even with --verbose and no `motion` block; the scrolling state keeps its line. Every
    /// output writes its minus sign as ASCII '-' (docs/decisions.md).
    func testAOneFrameStateHasNoMotionAndEveryMinusIsASCII() throws {
        let dir = try TempDir()
        try dir.copyBundled("Fixtures/chats/new-message.json")
        try dir.copyBundled("Goldens/chats/new-message")
        let fixture = try String(contentsOf: dir.path("Fixtures/chats/new-message.json"), encoding: .utf8)
        XCTAssertTrue(fixture.contains("What pace is steady?"))
        try dir.write(
            "Fixtures/chats/new-message.json",
            fixture.replacingOccurrences(of: "What pace is steady?", with: "What pace is steady, exactly?"))
        let r = try CLI.run(["verify", "--no-progress", "--verbose"], in: dir.url)
        XCTAssertEqual(r.status, 1, r.output)
        let results = try JSONDecoder().decode(
            Results.self, from: Data(contentsOf: dir.path(".layoutsnap/report/results.json")))
        let states = results.fixtures[0].states
        let oneFrame = states.filter { $0.frames.count == 1 }
        XCTAssertEqual(oneFrame.count, 5, states.map(\.name).joined(separator: ", "))
        for state in oneFrame {
            XCTAssertNil(state.motion, state.name)
            XCTAssertFalse(r.stdout.contains("MOTION chats/new-message \(state.name):"), r.stdout)
            XCTAssertTrue(r.stdout.contains("FAIL chats/new-message \(state.name): frame 0 differs"), r.stdout)
        }
        XCTAssertTrue(r.stdout.contains("  layout: message:m9.x -66.75, message:m9.width +66.75 in initial frame 0"))
        let scroll = try XCTUnwrap(states.first { $0.frames.count > 1 })
        XCTAssertTrue(scroll.motion?.summary.contains("message:m9.x end -66.75") == true, r.stdout)
        XCTAssertTrue(r.stdout.contains("MOTION chats/new-message \(scroll.name): "), r.stdout)
        let report = try String(contentsOf: dir.path(".layoutsnap/report/index.html"), encoding: .utf8)
        let json = try String(contentsOf: dir.path(".layoutsnap/report/results.json"), encoding: .utf8)
        for (name, text) in [("terminal", r.output), ("results.json", json), ("index.html", report)] {
            XCTAssertFalse(text.contains("\u{2212}"), "\(name) writes a Unicode minus")
        }
    }
}

/// verify spools each fixture's results to a temporary file; without a usable temporary folder
/// it keeps them in memory and gives the same verdict and report. No audit: an audited hit is
/// rendered, so one run's "(N from cache)" would differ from the other's by chance.
final class ResultSpoolTests: XCTestCase {
    func testVerifyWithoutATemporaryFolderGivesTheSameReport() throws {
        let dir = try TempDir()
        try dir.write("Fixtures/cards/a.json", smallPost())
        try dir.write("Fixtures/cards/b.json", smallPost(title: "Other card"))
        XCTAssertEqual(try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url).status, 0)
        try dir.write("Fixtures/cards/b.json", smallPost(title: "Changed card"))
        let spooled = try CLI.run(
            ["verify", "--no-progress", "--cache-audit", "0", "--json", "spooled.json"], in: dir.url)
        let unspooled = try CLI.run(
            ["verify", "--no-progress", "--cache-audit", "0", "--json", "unspooled.json"], in: dir.url,
            environment: ["TMPDIR": dir.path("no-such-folder").path])
        XCTAssertEqual(spooled.status, 1, spooled.output)
        XCTAssertEqual(unspooled.status, 1, unspooled.output)
        XCTAssertEqual(spooled.stdout, unspooled.stdout)
        func withoutDuration(_ name: String) throws -> String {
            try String(contentsOf: dir.path(name), encoding: .utf8).split(separator: "\n").filter {
                !$0.contains("durationSeconds")
            }.joined(separator: "\n")
        }
        XCTAssertEqual(try withoutDuration("spooled.json"), try withoutDuration("unspooled.json"))
    }
}
