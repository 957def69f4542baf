import Foundation
@testable import LayoutSnapRunner
import LayoutSnapTestSupport
import XCTest

final class OutputPathsTests: XCTestCase {
    func testAFileWhereAFolderIsNeededIsOneError() throws {
        let folder = try makeTemporaryFolder("runner-out").path
        defer { removeTemporaryFolder(folder) }
        try Support.write("x", to: folder + "/F")
        XCTAssertThrowsError(try OutputPaths.folder(folder + "/F", option: "--out")) { error in
            XCTAssertEqual("\(error)", "--out \(folder)/F: a file is there, and a folder is needed")
        }
        XCTAssertThrowsError(try OutputPaths.folder(folder + "/F/sub", option: "--out"))
        XCTAssertThrowsError(try OutputPaths.file(folder, option: "--junit"))
        XCTAssertNoThrow(try OutputPaths.folder(folder + "/new/deeper", option: "--out"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/new"), "a check creates nothing")
        XCTAssertNoThrow(try OutputPaths.folder("relative/new", option: "--out"))
    }

    /// An earlier report is cleared only when its results.json is layoutsnap's, told from its
    /// ends: `{` first, `"tool" : "layoutsnap"` among its last 4 KB, however it is spaced.
    func testOnlyLayoutsnapsResultsMarkAReportFolder() throws {
        let folder = try makeTemporaryFolder("runner-results").path
        defer { removeTemporaryFolder(folder) }
        let filler = String(repeating: "x", count: 5000)
        for (text, expected) in [
            ("{\n  \"a\" : \"\(filler)\",\n  \"tool\" : \"layoutsnap\",\n  \"version\" : \"1\"\n}\n", true),
            ("{\"tool\":\"layoutsnap\"}", true), (" \r\n\t{ \"tool\"\t:\r\n \"layoutsnap\" }", true),
            ("{\"tool\" : \"layoutsnap\", \"a\" : \"\(filler)\"}", false), ("{\"tool\" : \"other\"}", false),
            ("[\"tool\",\"layoutsnap\"]", false), ("", false),
        ] {
            try Support.write(text, to: folder + "/results.json")
            XCTAssertEqual(
                ReportBuilder.isLayoutsnapResults(folder + "/results.json"), expected, text.prefix(80).description)
        }
        XCTAssertFalse(ReportBuilder.isLayoutsnapResults(folder + "/none.json"))
    }

    func testAReportInsideEqualToOrContainingTheGoldensIsRefused() throws {
        let folder = try makeTemporaryFolder("runner-out").path
        defer { removeTemporaryFolder(folder) }
        let goldens = folder + "/Goldens"
        try FileManager.default.createDirectory(atPath: goldens, withIntermediateDirectories: true)
        for report in [
            goldens, goldens + "/rep", goldens + "/./rep/../x", folder, "/", "/..",
            folder + "/../" + (folder as NSString).lastPathComponent,
        ] {
            XCTAssertThrowsError(try OutputPaths.reportOutsideGoldens(report: report, goldens: goldens), report)
        }
        // Through a link to the goldens folder, too.
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: goldens)
        XCTAssertThrowsError(try OutputPaths.reportOutsideGoldens(report: folder + "/link/rep", goldens: goldens))
        XCTAssertThrowsError(try OutputPaths.reportOutsideGoldens(report: folder + "/link", goldens: goldens))
        XCTAssertThrowsError(try OutputPaths.reportOutsideGoldens(report: folder + "/link/..", goldens: goldens))
        for report in [folder + "/report", folder + "/Goldens-report", folder + "/Golden"] {
            XCTAssertNoThrow(try OutputPaths.reportOutsideGoldens(report: report, goldens: goldens), report)
        }
    }
}
