import Foundation
import LayoutSnapTestSupport
import XCTest

/// Headless Chromium, as docs/report.md and docs/commands.md tell users to open reports and previews. CI installs it
/// (.ci/install), so there a missing browser is a failure; elsewhere the test is skipped.
enum Browser {
    static func chromium() throws -> URL {
        if let url = TestTools.chromium() { return url }
        if TestTools.required { XCTFail(TestTools.chromiumMissing) }
        throw XCTSkip(TestTools.chromiumMissing)
    }

    /// Runs Chromium headless with `arguments` (a page and --dump-dom or --screenshot) and
    /// returns what it printed. Virtual time makes timers (the scrubber's playback) run the same
    /// on a busy machine.
    static func run(_ chromium: URL, _ arguments: [String], profile: URL) throws -> TestProcess.Output {
        try TestProcess.run(
            chromium,
            TestTools.headlessChromium(profile: profile)
                + ["--window-size=1280,1000", "--virtual-time-budget=3000"] + arguments)
    }

    /// The value of `name="..."` in dumped HTML.
    static func attribute(_ name: String, in html: String) -> String? {
        guard let start = html.range(of: "\(name)=\"") else { return nil }
        let rest = html[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end]).replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(
            of: "&quot;", with: "\"")
    }

    /// A page (report or preview) that finished its script and drew `track` as a motion plot:
    /// the golden's path, the new one and a cursor line.
    static func assertMotionPlot(_ dom: String, track: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(dom.contains("data-ready=\"true\""), "the page script did not finish", file: file, line: line)
        XCTAssertTrue(dom.contains("data-track=\"\(track)\""), "no plot of \(track)", file: file, line: line)
        XCTAssertTrue(
            dom.contains("<path class=\"expected\" d=\"M"), "the golden track is not drawn", file: file, line: line)
        XCTAssertTrue(
            dom.contains("<path class=\"actual\" d=\"M"), "the new track is not drawn", file: file, line: line)
        XCTAssertTrue(dom.contains("<line class=\"cursor\""), "no cursor line", file: file, line: line)
    }
}
