import Foundation
import LayoutSnapTestSupport
import XCTest
@testable import LayoutSnapReport

/// A reviewer's keys and clicks in a real browser, driven by Selenium (Tests/ReviewBrowser/).
/// Skipped when python3-selenium or chromium-driver is not installed, except on CI, which installs
/// them (.ci/install).
final class ReviewBrowserTests: XCTestCase {
    /// Chromium, a python3 that imports selenium, and chromedriver.
    func selenium() throws -> (chromium: URL, python: URL, driver: URL) {
        guard let chromium = TestTools.chromium() else {
            if TestTools.required { XCTFail(TestTools.chromiumMissing) }
            throw XCTSkip(TestTools.chromiumMissing)
        }
        guard let (python, driver) = TestTools.selenium() else {
            if TestTools.required { XCTFail(TestTools.seleniumMissing) }
            throw XCTSkip(TestTools.seleniumMissing)
        }
        return (chromium, python, driver)
    }

    /// j, a, j, r, "Approve all of cause 1", a reload, "Download approvals.json": the file holds
    /// every frame of cause 1 with its goldenHash, and the rejected frames.
    func testStaticApprovalsWithSelenium() throws {
        let tools = try selenium()
        let dir = try makeReviewReport("report-selenium")
        defer { removeTemporaryFolder(dir) }
        let downloads = dir.appendingPathComponent(".downloads")
        let script = TestPaths.packageRoot.appendingPathComponent("Tests/ReviewBrowser/static_approvals.py")
        let run = try TestProcess.run(
            tools.python,
            [
                script.path, dir.path, downloads.path, "--chromium", tools.chromium.path,
                "--chromedriver", tools.driver.path,
            ], timeout: 180)
        XCTAssertFalse(run.timedOut, "the Selenium driver timed out")
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertTrue(run.stdout.hasSuffix("ok\n"), run.output)
        print(run.stdout, terminator: "")
        // The file itself, as accept --approvals reads it.
        let data = try Data(contentsOf: downloads.appendingPathComponent("approvals.json"))
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let approvals = try XCTUnwrap(json["approvals"] as? [[String: String]])
        let results = Samples.review()
        let cause1 = results.fixtures.flatMap { $0.states.flatMap(\.frames) }.filter { results.cause(of: $0)?.id == 1 }
        for frame in cause1 {
            XCTAssertTrue(
                approvals.contains { $0["golden"] == frame.golden && $0["goldenHash"] == frame.goldenHash },
                frame.golden)
        }
        // j on from the cause's frames: the composer frame, cause 2.
        XCTAssertEqual(json["rejected"] as? [String], ["chats/a/02-send/004.png"])
    }

    /// Served by a stand-in for `layoutsnap review` (Tests/ReviewBrowser/served_review.py): the
    /// decisions the server has are shown, a cause is approved by one POST with the token header,
    /// a refusal is shown beside its frame, and `event: results` redraws without a reload.
    func testServedReviewWithSelenium() throws {
        let tools = try selenium()
        let dir = try makeReviewReport("report-served")
        defer { removeTemporaryFolder(dir) }
        try ResultsJSON.encode(Samples.review()).write(to: dir.appendingPathComponent("results.json"))
        let script = TestPaths.packageRoot.appendingPathComponent("Tests/ReviewBrowser/served_review.py")
        let run = try TestProcess.run(
            tools.python,
            [script.path, dir.path, "--chromium", tools.chromium.path, "--chromedriver", tools.driver.path],
            timeout: 180)
        XCTAssertFalse(run.timedOut, "the Selenium driver timed out")
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertTrue(run.stdout.hasSuffix("ok\n"), run.output)
        print(run.stdout, terminator: "")
    }
}
