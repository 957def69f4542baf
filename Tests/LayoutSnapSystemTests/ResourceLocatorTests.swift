import Foundation
import LayoutSnapSystem
import LayoutSnapTestSupport
import XCTest

/// The resources are found installed (`../share/layoutsnap` from the binary), beside the binary
/// (the build tree), or through `LAYOUTSNAP_RESOURCES`, in that order; otherwise the error names
/// every place looked.
final class ResourceLocatorTests: XCTestCase {
    private func make(_ folder: URL, _ relative: String, marker: String) throws -> String {
        let url = folder.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: url.appendingPathComponent(marker))
        return url.path
    }

    func testTheOrderIsInstalledThenBesideThenEnvironment() throws {
        let root = try makeTemporaryFolder("resources")
        defer { removeTemporaryFolder(root) }
        let executable = root.appendingPathComponent("prefix/bin/layoutsnap").path
        let environment = root.appendingPathComponent("elsewhere").path
        for folder in [ResourceFolder.fonts, .page] {
            XCTAssertEqual(
                ResourceLocator.candidates(folder, executable: executable, environmentValue: environment),
                [
                    root.appendingPathComponent("prefix/share/layoutsnap/\(folder.name)").path,
                    root.appendingPathComponent("prefix/bin/\(folder.buildPath)").path,
                    environment + "/" + folder.name,
                ])
            let fromEnvironment = try make(root, "elsewhere/\(folder.name)", marker: folder.marker)
            XCTAssertEqual(
                try ResourceLocator.locate(folder, executable: executable, environmentValue: environment),
                fromEnvironment)
            let beside = try make(root, "prefix/bin/\(folder.buildPath)", marker: folder.marker)
            XCTAssertEqual(
                try ResourceLocator.locate(folder, executable: executable, environmentValue: environment), beside)
            // A folder without the marker file is not taken.
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent("prefix/share/layoutsnap/\(folder.name)"),
                withIntermediateDirectories: true)
            XCTAssertEqual(
                try ResourceLocator.locate(folder, executable: executable, environmentValue: environment), beside)
            let installed = try make(root, "prefix/share/layoutsnap/\(folder.name)", marker: folder.marker)
            XCTAssertEqual(
                try ResourceLocator.locate(folder, executable: executable, environmentValue: environment), installed)
        }
    }

    func testTheInstalledLayoutIsUsrShareForUsrBin() {
        XCTAssertEqual(
            ResourceLocator.candidates(.fonts, executable: "/usr/bin/layoutsnap", environmentValue: nil),
            ["/usr/share/layoutsnap/fonts", "/usr/bin/layoutsnap_LayoutSnapRender.resources/Fonts"])
        XCTAssertEqual(
            ResourceLocator.candidates(.page, executable: "/usr/local/bin/layoutsnap", environmentValue: "")
                .first, "/usr/local/share/layoutsnap/page")
    }

    func testNoPlaceIsAnErrorNamingEveryPlace() throws {
        let root = try makeTemporaryFolder("resources-missing")
        defer { removeTemporaryFolder(root) }
        let executable = root.appendingPathComponent("bin/layoutsnap").path
        XCTAssertThrowsError(try ResourceLocator.locate(.fonts, executable: executable, environmentValue: nil)) {
            let message = String(describing: $0)
            XCTAssertTrue(message.contains(root.appendingPathComponent("share/layoutsnap/fonts").path), message)
            XCTAssertTrue(
                message.contains(root.appendingPathComponent("bin/layoutsnap_LayoutSnapRender.resources/Fonts").path),
                message)
            XCTAssertTrue(message.contains("$LAYOUTSNAP_RESOURCES/fonts (not set)"), message)
            XCTAssertTrue(message.contains("Inter-Regular.otf"), message)
        }
        XCTAssertThrowsError(try ResourceLocator.locate(.page, executable: nil, environmentValue: "/nowhere")) {
            let message = String(describing: $0)
            XCTAssertTrue(message.contains("its path is unknown"), message)
            XCTAssertTrue(message.contains("/nowhere/page"), message)
        }
    }

    /// This test process's own executable (the test bundle, built beside its resource bundles).
    func testTheExecutablePathIsThisProcesssOwn() throws {
        let path = try XCTUnwrap(ResourceLocator.executablePath())
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: path), path)
        XCTAssertNoThrow(try ResourceLocator.locate(.fonts))
        XCTAssertNoThrow(try ResourceLocator.locate(.page))
    }
}
