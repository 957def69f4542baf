import Foundation
import LayoutSnapCore
import LayoutSnapReport
@testable import LayoutSnapRunner
import LayoutSnapTestSupport
import XCTest

/// `record --update changed|missing|all` on one small fixture, run through the library.
final class RecordModeTests: XCTestCase {
    var folder = ""
    var fixtures: String { folder + "/F" }
    var goldens: String { folder + "/G" }
    let frame = "card/initial/000.png"

    override func setUpWithError() throws {
        folder = try makeTemporaryFolder("runner-record").path
    }

    override func tearDown() {
        removeTemporaryFolder(folder)
    }

    func record(_ mode: RecordMode) throws -> RunResults {
        let settings = BatchSettings(paths: [fixtures], goldens: goldens, jobs: 1)
        return try RecordRun(settings: settings, mode: mode, allowCI: true, version: "test").run().results
    }

    func verify() throws -> RunResults {
        let settings = BatchSettings(paths: [fixtures], goldens: goldens, jobs: 1)
        return try VerifyRun(settings: settings, report: folder + "/report", version: "test").run()
    }

    func status(_ results: RunResults, _ key: String) -> FrameStatus? {
        results.fixtures.flatMap(\.states).flatMap(\.frames).first { $0.golden == key }?.status
    }

    /// Within the fixture's tolerance, `changed` keeps the golden's bytes (verify passes it as
    /// similar); `all` rewrites it.
    func testChangedKeepsAGoldenWithinToleranceAndAllRewritesIt() throws {
        try Support.write(Support.postFixture(tolerance: #"{"maxDiffPixels": 100}"#), to: fixtures + "/card.json")
        let first = try record(.changed)
        XCTAssertEqual(first.exitCode, 0)
        XCTAssertGreaterThan(first.summary.recorded, 1)
        try nudgeRed(URL(fileURLWithPath: goldens + "/" + frame), pixels: 20, levels: 40)
        let nudged = Support.bytes(goldens + "/" + frame)

        let changed = try record(.changed)
        XCTAssertEqual(status(changed, frame), .similar)
        XCTAssertEqual(changed.summary.recorded, 0)
        XCTAssertEqual(changed.exitCode, 0)
        XCTAssertEqual(Support.bytes(goldens + "/" + frame), nudged, "a golden within tolerance keeps its bytes")
        let verified = try verify()
        XCTAssertEqual(status(verified, frame), .similar)
        XCTAssertEqual(verified.exitCode, 0)

        let all = try record(.all)
        XCTAssertEqual(status(all, frame), .recorded)
        XCTAssertEqual(all.summary.recorded, 1)
        XCTAssertNotEqual(Support.bytes(goldens + "/" + frame), nudged)
        XCTAssertEqual(status(try verify(), frame), .passed)
    }

    /// Without a tolerance any changed pixel fails verification, so `changed` rewrites it.
    func testChangedRewritesAnyDifferenceWithoutATolerance() throws {
        try Support.write(Support.postFixture(), to: fixtures + "/card.json")
        _ = try record(.changed)
        try nudgeRed(URL(fileURLWithPath: goldens + "/" + frame), pixels: 1, levels: 1)
        let changed = try record(.changed)
        XCTAssertEqual(status(changed, frame), .recorded)
        XCTAssertEqual(changed.summary.recorded, 1)
        XCTAssertEqual(try verify().exitCode, 0)
    }

    /// `missing` writes only missing goldens and reports (exit 1) a difference it leaves alone.
    func testMissingWritesOnlyMissingGoldens() throws {
        try Support.write(Support.postFixture(), to: fixtures + "/card.json")
        _ = try record(.changed)
        let other = "card/01-expand/003.png"
        try FileManager.default.removeItem(atPath: goldens + "/" + other)
        try nudgeRed(URL(fileURLWithPath: goldens + "/" + frame), pixels: 5, levels: 30)
        let nudged = Support.bytes(goldens + "/" + frame)

        let missing = try record(.missing)
        XCTAssertEqual(status(missing, other), .recorded)
        XCTAssertEqual(status(missing, frame), .failed)
        XCTAssertEqual(missing.summary.recorded, 1)
        XCTAssertEqual(missing.exitCode, 1)
        XCTAssertEqual(Support.bytes(goldens + "/" + frame), nudged, "a differing golden is left alone")
        XCTAssertTrue(TerminalText.summaryLine(missing).contains("1 not updated"), TerminalText.summaryLine(missing))
        let verified = try verify()
        XCTAssertEqual(status(verified, other), .passed)
        XCTAssertEqual(status(verified, frame), .failed)
    }

    /// The layout.json describes the goldens beside it: `missing` leaves both as they were
    /// when the fixture's layout changed.
    func testMissingKeepsTheLayoutOfTheGoldensItKeeps() throws {
        try Support.write(Support.postFixture(), to: fixtures + "/card.json")
        _ = try record(.changed)
        let layout = goldens + "/card/layout.json"
        let before = Support.bytes(layout)
        try Support.write(
            Support.postFixture().replacingOccurrences(
                of: "Body text that wraps over two lines here.", with: "Body\\nsecond line\\nthird line"),
            to: fixtures + "/card.json")
        let missing = try record(.missing)
        XCTAssertEqual(missing.exitCode, 1)
        XCTAssertEqual(Support.bytes(layout), before, "layout.json stays with the old goldens")
        _ = try record(.changed)
        XCTAssertNotEqual(Support.bytes(layout), before, "and changes with them")
    }

    /// Overrides render frames unlike the fixture's: never into the canonical goldens folder.
    func testOverridesAreRefusedForTheCanonicalGoldens() throws {
        try Support.write(Support.postFixture(), to: fixtures + "/card.json")
        var settings = BatchSettings(paths: [fixtures], goldens: goldens, jobs: 1)
        settings.overrides = FixtureOverrides(scale: 2)
        var run = RecordRun(settings: settings, allowCI: true, version: "test")
        run.canonicalGoldens = goldens
        XCTAssertThrowsError(try run.run()) { error in
            XCTAssertTrue("\(error)".contains("--scale render frames unlike the fixtures' own"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: goldens), "nothing written")
        run.canonicalGoldens = folder + "/elsewhere"
        XCTAssertEqual(try run.run().results.exitCode, 0)
    }

    /// A second record on a locked folder stops before it touches anything.
    func testRecordTakesTheGoldensLock() throws {
        try Support.write(Support.postFixture(), to: fixtures + "/card.json")
        let lock = try GoldensLock.acquire(goldens: goldens)
        XCTAssertThrowsError(try record(.changed)) { error in
            XCTAssertTrue("\(error)".contains("is locked by process"), "\(error)")
        }
        withExtendedLifetime(lock) {}
        XCTAssertFalse(FileManager.default.fileExists(atPath: goldens + "/manifest.json"))
    }
}

/// `accept` through the library: it takes the goldens folder the verify run checked.
final class AcceptTests: XCTestCase {
    func testAcceptWritesIntoTheGoldensTheRunChecked() throws {
        let folder = try makeTemporaryFolder("runner-accept").path
        defer { removeTemporaryFolder(folder) }
        let fixtures = folder + "/F"
        let goldens = folder + "/G"
        let report = folder + "/R"
        try Support.write(Support.postFixture(), to: fixtures + "/card.json")
        let settings = BatchSettings(paths: [fixtures], goldens: goldens, jobs: 1)
        _ = try RecordRun(settings: settings, allowCI: true, version: "t").run()
        try Support.write(
            Support.postFixture().replacingOccurrences(of: "\"Title\"", with: "\"Changed\""),
            to: fixtures + "/card.json")
        let failing = try VerifyRun(settings: settings, report: report, version: "t").run()
        XCTAssertEqual(failing.exitCode, 1)
        XCTAssertEqual(failing.goldens, goldens)

        let outcome = try GoldenAcceptance(resultsPath: report + "/results.json", allowCI: true).run(ids: [])
        XCTAssertEqual(outcome.goldens, goldens)
        XCTAssertEqual(outcome.outcome, .passed)
        XCTAssertEqual(outcome.accepted.count, failing.summary.failed)
        XCTAssertEqual(try VerifyRun(settings: settings, report: report, version: "t").run().exitCode, 0)
        // While another writer holds the folder, accept stops.
        let lock = try GoldensLock.acquire(goldens: goldens)
        XCTAssertThrowsError(try GoldenAcceptance(resultsPath: report + "/results.json", allowCI: true).run(ids: []))
        withExtendedLifetime(lock) {}
    }
}
