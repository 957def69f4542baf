import Foundation
import LayoutSnapTestSupport
import XCTest

/// Core is the model and the rules; what it knows of files arrives as bytes or through
/// `InputFiles` (docs/architecture.md). A file-reading API in its sources fails here.
final class CoreReadsNoFilesTests: XCTestCase {
    func testNoSourceOfCoreTouchesTheFileSystem() throws {
        let root = TestPaths.packageRoot.appendingPathComponent("Sources/LayoutSnapCore")
        let forbidden = [
            "FileManager", "FileHandle", "Data(contentsOf", "String(contentsOf", "contentsOfFile", "fopen(", "opendir(",
            "import Glibc",
            "import LayoutSnapSystem",
        ]
        let files = try XCTUnwrap(FileManager.default.subpathsOfDirectory(atPath: root.path))
            .filter { $0.hasSuffix(".swift") }
        XCTAssertGreaterThan(files.count, 50)
        for file in files {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for api in forbidden where text.contains(api) {
                XCTFail("Sources/LayoutSnapCore/\(file) uses \(api); pass bytes or an InputFiles instead")
            }
        }
    }
}
