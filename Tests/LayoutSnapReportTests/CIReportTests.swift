import XCTest
@testable import LayoutSnapReport

/// The Markdown summary stays under GitHub's 1 MiB, cut with a note; workflow commands escape
/// what would end a property or a line.
final class CIReportUnitTests: XCTestCase {
    func testAHugeRunIsCutUnderTheLimitWithANote() {
        let failing = (0..<20_000).map { i in
            FixtureEntry(
                id: "generated/fixture-\(i)", file: "Fixtures/generated/fixture-\(i).json",
                states: [
                    StateEntry(
                        name: "01-expand",
                        frames: [
                            FrameEntry(
                                index: 3, time: 0.05, progress: 0.2, status: .failed,
                                message: "2210 pixels differ (0.41%)", golden: "g/\(i)/01-expand/003.png")
                        ])
                ])
        }
        let results = RunResults(version: "test", durationSeconds: 1, fixtures: failing)
        let markdown = CIReport.markdown(results, report: ".layoutsnap/report")
        XCTAssertLessThanOrEqual(markdown.utf8.count, CIReport.maxSummaryBytes)
        XCTAssertTrue(
            markdown.contains("more rows, cut to keep this summary under 1024 KiB; results.json has them all."),
            String(markdown.suffix(400)))
        XCTAssertTrue(markdown.hasSuffix("(actual, expected and diff images of each frame).\n"))
        XCTAssertTrue(markdown.contains("20000 frames of 20000 fixtures: 0 passed, 20000 failed"))
    }

    func testWorkflowCommandsEscapeTheirData() {
        let line = CIReport.command("error", [("file", "a,b:c.json"), ("title", "100% done")], "two\nlines\r with 50%")
        XCTAssertEqual(line, "::error file=a%2Cb%3Ac.json,title=100%25 done::two%0Alines%0D with 50%25")
        XCTAssertEqual(
            CIReport.repositoryPath("Fixtures/a.json", workspace: "/repo", cwd: "/repo/app"), "app/Fixtures/a.json")
        XCTAssertEqual(CIReport.repositoryPath("Fixtures/a.json", workspace: nil, cwd: "/repo"), "Fixtures/a.json")
        XCTAssertEqual(
            CIReport.repositoryPath("/elsewhere/a.json", workspace: "/repo", cwd: "/repo"), "/elsewhere/a.json")
    }

    /// A fixture whose frames are only similar passes, and CI still hears of it.
    func testSimilarOnlyFixturesAreMentioned() {
        let similar = FixtureEntry(
            id: "cards/s", file: "Fixtures/cards/s.json",
            states: [
                StateEntry(
                    name: "initial",
                    frames: [
                        FrameEntry(
                            index: 0, time: 0, progress: 1, status: .similar, message: "3 pixels differ", golden: "g")
                    ])
            ])
        let results = RunResults(version: "test", durationSeconds: 1, fixtures: [similar])
        XCTAssertEqual(results.exitCode, 0)
        let annotations = CIReport.githubAnnotations(results, workspace: nil, cwd: "/repo")
        XCTAssertEqual(annotations.count, 1)
        XCTAssertTrue(
            annotations[0].hasPrefix(
                "::warning file=Fixtures/cards/s.json,title=layoutsnap%3A cards/s within tolerance::initial: 1 similar"),
            annotations[0])
        XCTAssertTrue(CIReport.markdown(results).contains("| `cards/s` | `initial` | similar | 1 of 1 |"))
    }
}
