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

    func testAReportInsideEqualToOrContainingTheGoldensIsRefused() throws {
        let folder = try makeTemporaryFolder("runner-out").path
        defer { removeTemporaryFolder(folder) }
        let goldens = folder + "/Goldens"
        try FileManager.default.createDirectory(atPath: goldens, withIntermediateDirectories: true)
        for report in [
            goldens, goldens + "/rep", goldens + "/./rep/../x", folder,
            folder + "/../" + (folder as NSString).lastPathComponent,
        ] {
            XCTAssertThrowsError(try OutputPaths.reportOutsideGoldens(report: report, goldens: goldens), report)
        }
        // Through a link to the goldens folder, too.
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: goldens)
        XCTAssertThrowsError(try OutputPaths.reportOutsideGoldens(report: folder + "/link/rep", goldens: goldens))
        for report in [folder + "/report", folder + "/Goldens-report", folder + "/Golden"] {
            XCTAssertNoThrow(try OutputPaths.reportOutsideGoldens(report: report, goldens: goldens), report)
        }
    }
}
