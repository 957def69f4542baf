import Foundation
import XCTest

/// The report of a real failing verify, opened in headless Chromium as a reader would open it.
final class ReportBrowserTests: XCTestCase {
    func chromium() throws -> URL {
        for path in [ProcessInfo.processInfo.environment["LAYOUTSNAP_CHROMIUM"], "/usr/bin/chromium", "/usr/bin/chromium-browser"].compactMap({ $0 })
        where FileManager.default.isExecutableFile(atPath: path) {
            return URL(fileURLWithPath: path)
        }
        let why = "chromium is not installed (bash .ci/install installs it)"
        if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail(why) }
        throw XCTSkip(why)
    }

    func browse(_ chromium: URL, _ arguments: [String], profile: URL) throws -> (status: Int32, stdout: String) {
        let process = Process()
        process.executableURL = chromium
        process.arguments = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                             "--user-data-dir=\(profile.path)", "--window-size=1280,1000", "--virtual-time-budget=3000"] + arguments
        let out = profile.deletingLastPathComponent().appendingPathComponent("chromium-stdout.txt")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        let handle = try FileHandle(forWritingTo: out)
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try handle.close()
        return (process.terminationStatus, (try? String(contentsOf: out, encoding: .utf8)) ?? "")
    }

    func testReportOfAChangedBundledFixtureShowsTheFailingFrame() throws {
        let chromium = try chromium()
        let dir = try TempDir()
        try dir.copyBundled("Fixtures/posts/no-image.json", to: "Fixtures/posts/no-image.json")
        try dir.copyBundled("Goldens/posts/no-image", to: "Goldens/posts/no-image")
        try dir.copyBundled("Goldens/manifest.json", to: "Goldens/manifest.json")
        let fixture = dir.path("Fixtures/posts/no-image.json")
        let text = try String(contentsOf: fixture, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "Moving one line fixed it.", with: "Moving one line fixed it, and then some.").utf8).write(to: fixture)
        let verify = try CLI.run(["verify", "--no-progress"], in: dir.url)
        XCTAssertEqual(verify.status, 1, verify.output)

        let page = dir.path(".layoutsnap/report/index.html").absoluteString
        let profile = dir.path("profile")
        let dom = try browse(chromium, ["--dump-dom", page], profile: profile)
        XCTAssertEqual(dom.status, 0)
        XCTAssertTrue(dom.stdout.contains("data-ready=\"true\""), "the report script did not finish")
        XCTAssertTrue(dom.stdout.contains("posts/no-image"), "the failing fixture is not shown")
        XCTAssertTrue(dom.stdout.contains("01-expand frame "), "no failing frame is shown")
        XCTAssertTrue(dom.stdout.contains("pixels differ"), "the failure message is not shown")
        XCTAssertTrue(dom.stdout.contains("diff/posts/no-image/01-expand/"), "the diff image is not on the page")

        let shot = dir.path("screenshot.png")
        _ = try browse(chromium, ["--screenshot=\(shot.path)", page], profile: profile)
        let png = try Data(contentsOf: shot)
        XCTAssertGreaterThan(png.count, 20_000, "the screenshot looks empty")
        // For looking at it by hand.
        if let keep = ProcessInfo.processInfo.environment["LAYOUTSNAP_KEEP_SCREENSHOT"] {
            try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(at: shot, to: URL(fileURLWithPath: keep))
        }
    }
}
