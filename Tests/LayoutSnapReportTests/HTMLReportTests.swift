import Foundation
import LayoutSnapTestSupport
import XCTest
@testable import LayoutSnapReport

final class HTMLReportTests: XCTestCase {
    static let evilId = "evil/</script><script>alert(1)</script><!--<script>"

    /// The text of `<script type="application/json" id="layoutsnap-results">`.
    func embeddedJSON(_ html: String) throws -> String {
        let open = "<script type=\"application/json\" id=\"layoutsnap-results\">"
        let start = try XCTUnwrap(html.range(of: open))
        let end = try XCTUnwrap(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        return String(html[start.upperBound..<end.lowerBound])
    }

    func testWritesOnlyIndexHTMLAndCreatesTheFolder() throws {
        let dir = try makeTemporaryFolder("report-html")
        defer { removeTemporaryFolder(dir) }
        let folder = dir.appendingPathComponent("nested/report")
        try HTMLReport.write(Samples.small(), to: folder)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["index.html"])
        // Overwrites.
        try HTMLReport.write(Samples.large(fixtureCount: 2, framesPerAnimation: 3), to: folder)
        let html = try String(contentsOf: folder.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("screen-0001"))
    }

    func testSelfContainedWithoutNetworkReferences() throws {
        let html = try HTMLReport.html(Samples.small())
        let lower = html.lowercased()
        XCTAssertFalse(lower.contains("http:"), "http: reference")
        XCTAssertFalse(lower.contains("https:"), "https: reference")
        XCTAssertFalse(lower.contains("src=\"//"))
        XCTAssertFalse(lower.contains("url(//"))
        XCTAssertFalse(lower.contains("@import"))
        XCTAssertFalse(lower.contains("<link"))
        // One request function, for `layoutsnap review` serving the page (same-origin paths only).
        XCTAssertEqual(count("fetch(", in: lower), 1)
        XCTAssertFalse(lower.contains("://"))
        XCTAssertFalse(lower.contains("xmlhttprequest"))
        XCTAssertEqual(count("<script", in: lower), 2)  // the data blob and the inline script
        XCTAssertFalse(lower.contains("<script src"))
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        XCTAssertTrue(html.contains("<meta charset=\"utf-8\">"))
        XCTAssertTrue(html.contains("<title>layoutsnap verify ERROR: 1 failed, 1 missing, 2 errors</title>"))
    }

    func testEmbedsTheResults() throws {
        let results = Samples.small()
        let html = try HTMLReport.html(results)
        let json = try embeddedJSON(html)
        XCTAssertEqual(try ResultsJSON.decode(Data(json.utf8)), results)
        XCTAssertTrue(json.contains("\"01-expand\""))
        XCTAssertTrue(json.contains("2210 pixels differ (0.41%)"))
    }

    func testEmbeddedDataCannotBreakOutOfTheScriptElement() throws {
        var results = Samples.small()
        results.fixtures[0].id = Self.evilId
        results.fixtures[0].states[0].frames[0].message = "</SCRIPT > <!-- -->"
        results.environmentDifferences.append("</script>")
        let html = try HTMLReport.html(results)
        // Exactly the two real closing tags, case-insensitively.
        XCTAssertEqual(count("</script", in: html.lowercased()), 2)
        XCTAssertFalse(html.contains("<!--"))
        XCTAssertFalse(html.contains("alert(1)</script>"))
        let json = try embeddedJSON(html)
        XCTAssertFalse(json.contains("<"))
        XCTAssertTrue(json.contains("evil/\\u003c/script>"))
        // And the data survives unchanged.
        XCTAssertEqual(try ResultsJSON.decode(Data(json.utf8)), results)
    }

    func testDeterministic() {
        XCTAssertEqual(try HTMLReport.html(Samples.small()), try HTMLReport.html(Samples.small()))
    }

    func testTenThousandFramesStaySmall() throws {
        for (name, results) in [
            ("100 fixtures x 100 frames", Samples.large()), ("one 10,000-frame animation", Samples.longAnimation()),
        ] {
            XCTAssertEqual(results.summary.frames, 10_000)
            let dir = try makeTemporaryFolder("report-html-large")
            defer { removeTemporaryFolder(dir) }
            let start = Date()
            try HTMLReport.write(results, to: dir)
            let seconds = Date().timeIntervalSince(start)
            let size = try XCTUnwrap(
                FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("index.html").path)[.size]
                    as? Int)
            print(
                "10,000-frame report (\(name)): index.html is \(size) bytes (\(String(format: "%.2f", Double(size) / 1_048_576)) MiB), written in \(String(format: "%.2f", seconds)) s (debug build)"
            )
            XCTAssertLessThan(size, 5_000_000, name)
            XCTAssertLessThan(seconds, 30, name)
        }
    }
}
