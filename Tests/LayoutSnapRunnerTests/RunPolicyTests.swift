import Foundation
import LayoutSnapCore
import LayoutSnapReport
@testable import LayoutSnapRunner
import LayoutSnapTestSupport
import XCTest

/// The run-level policy: empty selections, orphans with explicit folders, environment drift,
/// missing shards, exact shard figures, and the exit code that follows from them.
final class RunPolicyTests: XCTestCase {
    var folder = ""

    override func setUpWithError() throws {
        folder = try makeTemporaryFolder("runner-policy").path
    }

    override func tearDown() {
        removeTemporaryFolder(folder)
    }

    func testAnEmptySelectionIsExitTwo() throws {
        try FileManager.default.createDirectory(atPath: folder + "/F", withIntermediateDirectories: true)
        let empty = try BatchSettings(paths: [folder + "/F"]).select()
        XCTAssertEqual(empty.empty?.kind, .emptySelection)
        try Support.write(Support.postFixture(), to: folder + "/F/card.json")
        let filtered = try BatchSettings(paths: [folder + "/F"], filter: "posts").select()
        XCTAssertEqual(filtered.empty?.kind, .emptySelection)
        XCTAssertTrue(filtered.empty!.message.contains("--filter 'posts'"), filtered.empty!.message)
        XCTAssertNil(try BatchSettings(paths: [folder + "/F"], filter: "c*").select().empty)

        let results = try VerifyRun(
            settings: BatchSettings(paths: [folder + "/F"], goldens: folder + "/G", filter: "posts"),
            report: folder + "/report", version: "test"
        ).run()
        XCTAssertEqual(results.exitCode, 2)
        XCTAssertEqual(TerminalText.summaryLine(results), "0 passed, 0 failed, no fixtures matched")
        XCTAssertTrue(JUnitWriter.xml(results).contains("errors=\"1\""))
    }

    func testOrphansAreJudgedWithAnExplicitFixturesFolder() throws {
        try Support.write(Support.postFixture(), to: folder + "/F/card.json")
        let settings = BatchSettings(paths: [folder + "/F"], goldens: folder + "/G", jobs: 1)
        XCTAssertTrue(settings.coversWholeSet)
        XCTAssertFalse(
            BatchSettings(paths: [TestPaths.packageRoot.path + "/Fixtures/posts"]).coversWholeSet, "a part of a root")
        _ = try RecordRun(settings: settings, allowCI: true, version: "test").run()
        try Support.write("x", to: folder + "/G/gone/initial/000.png")
        try Support.write("x", to: folder + "/G/card/09-removed/000.png")

        let results = try VerifyRun(settings: settings, report: folder + "/report", checkOrphans: true, version: "test")
            .run()
        XCTAssertEqual(results.summary.orphans, 2)
        XCTAssertEqual(results.exitCode, 1)
        XCTAssertEqual(results.summary.failed, 0)
        XCTAssertTrue(TerminalText.summaryLine(results).hasSuffix(", 2 orphans"), TerminalText.summaryLine(results))
        let xml = JUnitWriter.xml(results)
        XCTAssertTrue(xml.contains("<testcase classname=\"layoutsnap\" name=\"orphan card/09-removed/\""), xml)
        XCTAssertTrue(
            xml.contains("<testsuites name=\"layoutsnap verify\" tests=\"") && xml.contains("failures=\"2\""), xml)
        XCTAssertTrue(try HTMLReport.html(results).contains("<title>layoutsnap verify FAILED: 2 orphans</title>"))
        let decoded = try ResultsJSON.decode(ResultsJSON.encode(results))
        XCTAssertEqual(decoded.findings.filter { $0.kind == .orphan }.count, 2)
        XCTAssertEqual(decoded.exitCode, 1)
        XCTAssertEqual(decoded.goldens, folder + "/G")
    }

    func testEnvironmentDriftFailsOnlyWhenStrict() {
        XCTAssertNil(VerifyRun.environmentFinding([], strict: true))
        XCTAssertEqual(VerifyRun.environmentFinding(["pango 1.50 → 1.52"], strict: false)?.outcome, .passed)
        let strict = VerifyRun.environmentFinding(["pango 1.50 → 1.52"], strict: true)!
        XCTAssertEqual(strict.outcome, .failed)
        let run = RunResults(version: "t", durationSeconds: 0, fixtures: [], findings: [strict])
        XCTAssertEqual(run.exitCode, 1)
        XCTAssertEqual(TerminalText.summaryLine(run), "0 passed, 0 failed, environment differs")
    }

    /// The summary is derived from what a results.json lists, never from its own counts.
    func testTheSummaryIsDerivedNotRead() throws {
        let frame = FrameEntry(index: 0, time: 0, progress: 0, status: .failed, golden: "a/initial/000.png")
        var run = RunResults(
            version: "t", durationSeconds: 0,
            fixtures: [FixtureEntry(id: "a", file: "a.json", states: [StateEntry(name: "initial", frames: [frame])])])
        XCTAssertEqual(run.exitCode, 1)
        var json = String(decoding: ResultsJSON.encode(run), as: UTF8.self)
        json = json.replacingOccurrences(of: "\"failed\" : 1", with: "\"failed\" : 0").replacingOccurrences(
            of: "\"exitCode\" : 1", with: "\"exitCode\" : 0")
        XCTAssertEqual(try ResultsJSON.decode(Data(json.utf8)).exitCode, 1)
        run.fixtures[0].states[0].frames[0].status = .similar
        XCTAssertEqual(run.exitCode, 0, "the summary follows the frames")
    }

    func testAMissingShardFailsTheMerge() throws {
        func shard(_ i: Int, _ id: String) throws -> String {
            let frame = FrameEntry(index: 0, time: 0, progress: 0, status: .passed, golden: "\(id)/initial/000.png")
            let run = RunResults(
                version: "t", durationSeconds: 1,
                fixtures: [
                    FixtureEntry(id: id, file: "\(id).json", states: [StateEntry(name: "initial", frames: [frame])])
                ],
                shard: "\(i)/3")
            let dir = folder + "/report-\(i)"
            try Support.write(String(decoding: ResultsJSON.encode(run), as: UTF8.self), to: dir + "/results.json")
            return dir
        }
        let inputs = [try shard(1, "a"), try shard(3, "c")]
        let merged = try ReportMerger(inputs: inputs, output: folder + "/merged").run()
        XCTAssertEqual(merged.exitCode, 1)
        XCTAssertEqual(merged.findings.map(\.subject), ["2/3"])
        XCTAssertEqual(TerminalText.summaryLine(merged), "2 passed, 0 failed, 1 shard missing")
        let allowed = try ReportMerger(inputs: inputs, output: folder + "/merged", allowMissingShards: true).run()
        XCTAssertEqual(allowed.exitCode, 0)
        XCTAssertEqual(allowed.findings.first?.severity, .warning)
        // A merged report joined again with the missing shard is complete; one that is not a
        // shard's report among shards' reports fails.
        let again = try ReportMerger(inputs: [folder + "/merged", try shard(2, "b")], output: folder + "/merged2").run()
        XCTAssertEqual(again.exitCode, 0, "\(again.findings)")
        XCTAssertEqual(again.shard, "1/3,3/3,2/3")
        let whole = RunResults(version: "t", durationSeconds: 1, fixtures: [])
        try Support.write(
            String(decoding: ResultsJSON.encode(whole), as: UTF8.self), to: folder + "/whole/results.json")
        let mixed = try ReportMerger(
            inputs: inputs + [folder + "/whole"], output: folder + "/merged3", allowMissingShards: true
        ).run()
        XCTAssertEqual(mixed.exitCode, 1)
        XCTAssertTrue(mixed.findings.contains { $0.kind == .mixedShards }, "\(mixed.findings)")
    }

    /// The shard plan counts the frames the layouts really have: the parts add up to the suite
    /// (732 frames for the bundled fixtures) and differ by at most the largest fixture.
    func testShardFiguresAreTheRealFrameCounts() throws {
        let fixtures = TestPaths.packageRoot.path + "/Fixtures"
        let refs = try FixtureDiscovery.discover(paths: [fixtures], defaultRoot: fixtures)
        let counts = Sharding.frameCounts(refs, overrides: FixtureOverrides(), jobs: 2).map { $0.frames ?? 0 }
        XCTAssertEqual(counts.reduce(0, +), 732)
        var parts: [Int] = []
        var plans = Set<String>()
        for i in 1...3 {
            let selection = Sharding.select(
                refs, shard: try Shard.parse("\(i)/3").get(), overrides: FixtureOverrides(), jobs: 2)
            XCTAssertEqual(selection.totalFrames, 732)
            parts.append(selection.frames)
            plans.insert(selection.plan)
        }
        XCTAssertEqual(plans.count, 1, "every shard plans alike")
        XCTAssertEqual(parts.reduce(0, +), 732)
        XCTAssertLessThanOrEqual(parts.max()! - parts.min()!, counts.max()!)
    }
}
