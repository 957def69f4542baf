import XCTest
@testable import LayoutSnapReport

/// The Markdown summary stays under GitHub's 1 MiB, cut with a note; workflow commands escape
/// what would end a property or a line.
final class CIReportUnitTests: XCTestCase {
    func testAHugeRunIsCutUnderTheLimitWithANote() {
        let failing = (0..<20_000).map { i in
            FixtureEntry(id: "generated/fixture-\(i)", file: "Fixtures/generated/fixture-\(i).json", states: [
                StateEntry(name: "01-expand", frames: [FrameEntry(index: 3, time: 0.05, progress: 0.2, status: .failed,
                                                                  message: "2210 pixels differ (0.41%)", golden: "g/\(i)/01-expand/003.png")]),
            ])
        }
        let results = RunResults(version: "test", durationSeconds: 1, fixtures: failing)
        let markdown = CIReport.markdown(results, report: ".layoutsnap/report")
        XCTAssertLessThanOrEqual(markdown.utf8.count, CIReport.maxSummaryBytes)
        XCTAssertTrue(markdown.contains("more rows, cut to keep this summary under 1024 KiB; results.json has them all."), String(markdown.suffix(400)))
        XCTAssertTrue(markdown.hasSuffix("(actual, expected and diff images of each frame).\n"))
        XCTAssertTrue(markdown.contains("20000 frames of 20000 fixtures: 0 passed, 20000 failed"))
    }

    func testWorkflowCommandsEscapeTheirData() {
        let line = CIReport.command("error", [("file", "a,b:c.json"), ("title", "100% done")], "two\nlines\r with 50%")
        XCTAssertEqual(line, "::error file=a%2Cb%3Ac.json,title=100%25 done::two%0Alines%0D with 50%25")
        XCTAssertEqual(CIReport.repositoryPath("Fixtures/a.json", workspace: "/repo", cwd: "/repo/app"), "app/Fixtures/a.json")
        XCTAssertEqual(CIReport.repositoryPath("Fixtures/a.json", workspace: nil, cwd: "/repo"), "Fixtures/a.json")
        XCTAssertEqual(CIReport.repositoryPath("/elsewhere/a.json", workspace: "/repo", cwd: "/repo"), "/elsewhere/a.json")
    }
}
