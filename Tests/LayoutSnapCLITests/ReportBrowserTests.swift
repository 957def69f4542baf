import Foundation
import XCTest

/// The report of a real failing verify, opened in headless Chromium as a reader would open it.
final class ReportBrowserTests: XCTestCase {
    func testReportOfAChangedBundledFixtureShowsTheFailingFrame() throws {
        let chromium = try Browser.chromium()
        let dir = try TempDir()
        try dir.copyBundled("Fixtures/posts/no-image.json", to: "Fixtures/posts/no-image.json")
        try dir.copyBundled("Goldens/posts/no-image", to: "Goldens/posts/no-image")
        try dir.copyBundled("Goldens/manifest.json", to: "Goldens/manifest.json")
        let fixture = dir.path("Fixtures/posts/no-image.json")
        let text = try String(contentsOf: fixture, encoding: .utf8)
        try Data(
            text.replacingOccurrences(
                of: "Moving one line fixed it.",
                with: "Moving one line fixed it, and then some.\\nIt needed one more line."
            ).utf8
        ).write(to: fixture)
        let verify = try CLI.run(["verify", "--no-progress"], in: dir.url)
        XCTAssertEqual(verify.status, 1, verify.output)

        let page = dir.path(".layoutsnap/report/index.html").absoluteString
        let profile = dir.path("profile")
        let dom = try Browser.run(chromium, ["--dump-dom", page], profile: profile)
        XCTAssertEqual(dom.status, 0)
        XCTAssertTrue(dom.stdout.contains("data-ready=\"true\""), "the report script did not finish")
        XCTAssertTrue(dom.stdout.contains("posts/no-image"), "the failing fixture is not shown")
        XCTAssertTrue(dom.stdout.contains("01-expand frame "), "no failing frame is shown")
        XCTAssertTrue(dom.stdout.contains("pixels differ"), "the failure message is not shown")
        XCTAssertTrue(dom.stdout.contains("diff/posts/no-image/01-expand/"), "the diff image is not on the page")
        // A body a line longer is a motion change too: the end state moved, shown above the frames
        // (in the terminal only with --verbose: by default the cause says it).
        XCTAssertTrue(
            verify.stdout.contains("1 cause explains 36 of 36 failing frames: body height +22.00"), verify.output)
        XCTAssertTrue(dom.stdout.contains(">Motion<"), "the motion line is not on the page")
        XCTAssertTrue(dom.stdout.contains("body.height end +22.00"), "the motion change is not on the page")

        let shot = dir.path("screenshot.png")
        _ = try Browser.run(chromium, ["--screenshot=\(shot.path)", page], profile: profile)
        let png = try Data(contentsOf: shot)
        XCTAssertGreaterThan(png.count, 20_000, "the screenshot looks empty")
        // For looking at it by hand.
        if let keep = ProcessInfo.processInfo.environment["LAYOUTSNAP_KEEP_SCREENSHOT"] {
            try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(at: shot, to: URL(fileURLWithPath: keep))
        }
    }
}
