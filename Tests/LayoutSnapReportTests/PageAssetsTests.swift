import Foundation
import LayoutSnapTestSupport
import XCTest
@testable import LayoutSnapReport

/// The pages' CSS and JavaScript files (Sources/LayoutSnapReport/Resources), as the build
/// bundles them: all there, read by a real JavaScript parser, and inlined unchanged.
final class PageAssetsTests: XCTestCase {
    func bundledFolder() throws -> URL {
        try PageAssets.folder()
    }

    func testTheBundleHoldsExactlyTheFilesThePagesUse() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: bundledFolder().path)
        XCTAssertEqual(Set(names), Set(PageAssets.fileNames))
        XCTAssertNoThrow(try PageAssets.loaded.get())
    }

    /// `node --check` parses without running: a syntax error in any script, or in a page's
    /// inline script as the pages join them, fails here rather than in a reader's browser.
    func testNodeParsesEveryScriptAndEachPagesInlineScript() throws {
        guard let node = TestTools.find(["node", "/usr/bin/node", "nodejs"]) else {
            let missing = "node not found on PATH; on Debian: apt-get install -y nodejs (bash .ci/install does)"
            // On CI a missing tool is a failure, never a silent skip.
            if TestTools.required { XCTFail(missing) }
            throw XCTSkip(missing)
        }
        let dir = try makeTemporaryFolder("report-node-check")
        defer { removeTemporaryFolder(dir) }
        var scripts: [URL] = []
        for name in PageAssets.fileNames where name.hasSuffix(".js") {
            scripts.append(try bundledFolder().appendingPathComponent(name))
        }
        let pages = [
            ("report-inline.js", try HTMLReport.html(Samples.small())),
            ("preview-inline.js", try PreviewPage.html(title: "t", dataJSON: "{}", buildID: "b", watching: false)),
        ]
        for (name, html) in pages {
            let open = try XCTUnwrap(html.range(of: "<script>\n"), name)
            let close = try XCTUnwrap(html.range(of: "</script>", range: open.upperBound..<html.endIndex), name)
            let url = dir.appendingPathComponent(name)
            try Data(html[open.upperBound..<close.lowerBound].utf8).write(to: url)
            scripts.append(url)
        }
        for script in scripts {
            let r = try TestProcess.run(node, ["--check", script.path], timeout: 60)
            XCTAssertEqual(r.status, 0, "node --check \(script.lastPathComponent): \(r.stderr)")
        }
    }

    func testPagesInlineEachFileAsItIs() throws {
        let folder = try bundledFolder()
        func file(_ name: String) throws -> String {
            var text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            XCTAssertTrue(text.hasSuffix("\n"), "\(name) ends with a newline")
            text.removeLast()
            return text
        }
        let report = try HTMLReport.html(Samples.small())
        let preview = try PreviewPage.html(title: "t", dataJSON: "{}", buildID: "b", watching: false)
        for name in ["report.css", "report.js", "motion-plot.css", "motion-plot.js", "words.js"] {
            XCTAssertTrue(report.contains(try file(name)), "the report inlines \(name)")
        }
        for name in ["preview.css", "preview.js", "motion-plot.css", "motion-plot.js", "words.js"] {
            XCTAssertTrue(preview.contains(try file(name)), "the preview inlines \(name)")
        }
        // The pages open from disk: no file may name the network. The report's one request
        // function is for `layoutsnap review`, which serves the page: same-origin paths only
        // (/api/review, /api/decisions, /api/events, results.json), never a URL with a host; the
        // preview's one request is for `preview --serve`'s zoomed regions (`zoom?...`).
        for name in PageAssets.fileNames {
            let text = try file(name).lowercased()
            for reference in ["http:", "https:", "url(//", "@import", "xmlhttprequest", "websocket"] {
                XCTAssertFalse(text.contains(reference), "\(name) contains \(reference)")
            }
            if name.hasPrefix("report") { XCTAssertFalse(text.contains("://"), "\(name) names a URL with a host") }
            XCTAssertEqual(
                count("fetch(", in: text), name == "report.js" || name == "preview.js" ? 1 : 0,
                "\(name): fetch( outside the review server's api() and the preview's regions")
        }
        XCTAssertTrue(
            try file("preview.js").contains("fetch('zoom?' + q, "), "the preview's only request is a region's")
        let js = try file("report.js")
        XCTAssertTrue(js.contains("return fetch(path, o)"), "the report's only request is api()'s")
        for call in js.components(separatedBy: "api(").dropFirst() {
            let argument = call.prefix { $0 != "," && $0 != ")" }
            guard argument.first == "'" else { continue }  // the definition, `api(path, options)`
            XCTAssertTrue(
                ["'/api/review'", "'/api/decisions'", "'results.json'"].contains(String(argument)), "api(\(argument))")
        }
    }

    func testAMissingFileIsNamedWithTheWayToFixIt() throws {
        let dir = try makeTemporaryFolder("report-assets")
        defer { removeTemporaryFolder(dir) }
        for name in PageAssets.fileNames where name != "preview.js" {
            try FileManager.default.copyItem(
                at: bundledFolder().appendingPathComponent(name), to: dir.appendingPathComponent(name))
        }
        XCTAssertThrowsError(try PageAssets(folder: dir)) { error in
            let message = String(describing: error)
            XCTAssertTrue(message.contains(dir.appendingPathComponent("preview.js").path), message)
            XCTAssertTrue(message.contains("layoutsnap_LayoutSnapReport.resources"), message)
            XCTAssertTrue(message.contains("LAYOUTSNAP_RESOURCES"), message)
        }
        try FileManager.default.copyItem(
            at: bundledFolder().appendingPathComponent("preview.js"), to: dir.appendingPathComponent("preview.js"))
        XCTAssertEqual(try PageAssets(folder: dir).previewJS, try PageAssets.loaded.get().previewJS)
    }
}
