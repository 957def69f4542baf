import Foundation
import LayoutSnapTestSupport
import XCTest

/// Package.swift loads on a machine without pkg-config or the rendering headers (so `swift package
/// resolve` and the like work there); only the build then stops, saying what to install.
final class PackageManifestTests: XCTestCase {
    func testTheManifestLoadsWithoutPkgConfig() throws {
        guard let swift = TestTools.find(["swift", "/opt/swift/usr/bin/swift", "/usr/bin/swift"]) else {
            throw XCTSkip("swift is not on PATH")
        }
        let tools = try makeTemporaryFolder("no-pkg-config")
        defer { removeTemporaryFolder(tools) }
        // Every tool of /usr/bin (the linker the manifest needs) but pkg-config.
        for name in try FileManager.default.contentsOfDirectory(atPath: "/usr/bin")
        where !name.contains("pkg-config") && !name.hasPrefix("pkgconf") {
            try? FileManager.default.createSymbolicLink(
                atPath: tools.appendingPathComponent(name).path, withDestinationPath: "/usr/bin/" + name)
        }
        let scratch = tools.appendingPathComponent(".scratch")
        let path = swift.deletingLastPathComponent().path + ":" + tools.path
        let run = try TestProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "PATH=" + path, swift.path, "package", "--scratch-path", scratch.path, "--manifest-cache", "none",
                "dump-package",
            ],
            in: TestPaths.packageRoot, timeout: 300)
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertTrue(run.stdout.contains("\"name\" : \"layoutsnap\""), run.output)
        // And the header the build would stop at says what to install.
        let header = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent(
                "Sources/CRenderLibraries/include/CRenderLibraries.h"), encoding: .utf8)
        XCTAssertTrue(
            header.contains(
                "#error \"the Cairo and Pango development headers were not found: install pkg-config libcairo2-dev libpango1.0-dev"
            ))
    }
}
