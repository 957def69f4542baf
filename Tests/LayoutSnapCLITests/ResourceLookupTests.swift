import Foundation
import LayoutSnapTestSupport
import XCTest

/// A binary copied away from the build tree finds its fonts and page resources installed
/// (`../share/layoutsnap`, as the Debian package lays them out), beside itself, or through
/// `LAYOUTSNAP_RESOURCES`, in that order; with none, it names every place it looked.
final class ResourceLookupTests: XCTestCase {
    /// `prefix/bin/layoutsnap`, a copy of the built binary with nothing beside it.
    private func relocatedBinary(_ dir: TempDir) throws -> URL {
        let bin = dir.path("prefix/bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let copy = bin.appendingPathComponent("layoutsnap")
        try FileManager.default.copyItem(at: CLI.binary, to: copy)
        return copy
    }

    /// The build's resource bundles copied into `folder` as the package lays them out.
    private func layOutResources(in folder: URL) throws {
        let built = CLI.binary.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, buildPath) in [
            ("fonts", "layoutsnap_LayoutSnapRender.resources/Fonts"),
            ("page", "layoutsnap_LayoutSnapReport.resources/Resources"),
        ] {
            try FileManager.default.copyItem(
                at: built.appendingPathComponent(buildPath), to: folder.appendingPathComponent(name))
        }
    }

    private func run(_ binary: URL, _ arguments: [String], environment: [String: String] = [:]) throws -> CLI.Result {
        try TestProcess.run(
            binary, arguments, environment: environment, removing: ["LAYOUTSNAP_RESOURCES"], timeout: 300)
    }

    func testARelocatedBinaryNamesEveryPlaceItLooked() throws {
        let dir = try TempDir()
        let binary = try relocatedBinary(dir)
        try dir.write("card.json", smallPost())
        let prefix = dir.path("prefix").resolvingSymlinksInPath().path
        let r = try run(binary, ["render", dir.path("card.json").path, "--out", dir.path("out").path])
        XCTAssertEqual(r.status, 2, r.output)
        for place in [
            prefix + "/share/layoutsnap/fonts", prefix + "/bin/layoutsnap_LayoutSnapRender.resources/Fonts",
            "$LAYOUTSNAP_RESOURCES/fonts (not set)",
        ] {
            XCTAssertTrue(r.stderr.contains(place), "\(place) not in: \(r.stderr)")
        }
        XCTAssertFalse(r.stderr.contains("Fatal error"), r.stderr)
        // Commands that need no resource do not look for one.
        XCTAssertEqual(try run(binary, ["--version"]).status, 0)
    }

    func testInstalledBesideAndEnvironmentEachGiveTheBuildsPixels() throws {
        let dir = try TempDir()
        let binary = try relocatedBinary(dir)
        try dir.write("card.json", smallPost())
        let reference = try CLI.run(["render", dir.path("card.json").path, "--out", dir.path("reference").path])
        XCTAssertEqual(reference.status, 0, reference.output)

        func renders(_ name: String, environment: [String: String] = [:]) throws {
            let r = try run(
                binary, ["render", dir.path("card.json").path, "--out", dir.path(name).path], environment: environment)
            XCTAssertEqual(r.status, 0, "\(name): \(r.output)")
            let frames = try FileManager.default.subpathsOfDirectory(atPath: dir.path("reference").path)
                .filter { $0.hasSuffix(".png") }
            XCTAssertFalse(frames.isEmpty)
            for frame in frames {
                XCTAssertEqual(
                    FileManager.default.contents(atPath: dir.path(name + "/" + frame).path),
                    FileManager.default.contents(atPath: dir.path("reference/" + frame).path), "\(name): \(frame)")
            }
        }
        try layOutResources(in: dir.path("elsewhere"))
        try renders("environment", environment: ["LAYOUTSNAP_RESOURCES": dir.path("elsewhere").path])
        try layOutResources(in: dir.path("prefix/share/layoutsnap"))
        try renders("installed", environment: ["LAYOUTSNAP_RESOURCES": dir.path("nowhere").path])
        // The page resources too: preview inlines them.
        let preview = try run(binary, ["preview", dir.path("card.json").path, "--out", dir.path("preview").path])
        XCTAssertEqual(preview.status, 0, preview.output)
    }
}
