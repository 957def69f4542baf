import Foundation
import LayoutSnapImaging
import LayoutSnapTestSupport
import XCTest

/// Cairo, Pango and the libraries beneath them are loaded on first use, not linked: the commands
/// that never draw start without them, the ones that draw load them, and a library that cannot be
/// loaded is an error that names it. glibc's `LD_DEBUG=files` lists every object the process loads.
final class RenderLibraryLoadingTests: XCTestCase {
    static let renderingLibraries = [
        "libpangocairo-1.0.so", "libpango-1.0.so", "libcairo.so", "libglib-2.0.so", "libfontconfig.so",
        "libharfbuzz.so",
    ]

    /// The shared objects the run loaded, as glibc's loader reports them on stderr.
    private func loaded(_ r: CLI.Result) -> [String] {
        r.stderr.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "file=") else { return nil }
            return String(line[range.upperBound...].prefix(while: { $0 != " " && $0 != ";" }))
        }
    }

    private func writePNGs(_ dir: TempDir) throws -> (String, String) {
        let a = PixelImage(width: 8, height: 8, pixels: [UInt32](repeating: 0xFFFF_FFFF, count: 64))
        var b = a
        b.pixels[9] = 0xFF00_0000
        try Data(a.encodePNG()).write(to: dir.path("a.png"))
        try Data(b.encodePNG()).write(to: dir.path("b.png"))
        return (dir.path("a.png").path, dir.path("b.png").path)
    }

    func testCommandsThatDoNotDrawLoadNoRenderingLibrary() throws {
        let dir = try TempDir()
        let (a, b) = try writePNGs(dir)
        for arguments in [
            ["--version"], ["diff", a, b], ["diff", a, b, "--threshold", "0.1", "--json"], ["schema", "fixture"],
        ] {
            let r = try CLI.run(arguments, environment: ["LD_DEBUG": "files"])
            XCTAssertTrue([0, 1].contains(r.status), "\(arguments): \(r.stderr.suffix(2000))")
            let objects = loaded(r)
            XCTAssertFalse(
                objects.isEmpty, "LD_DEBUG=files listed nothing for \(arguments): the check would see nothing")
            for library in Self.renderingLibraries {
                XCTAssertFalse(objects.contains { $0.contains(library) }, "\(arguments) loaded \(library): \(objects)")
            }
        }
    }

    func testDrawingLoadsThem() throws {
        let dir = try TempDir()
        try dir.write("card.json", smallPost())
        let r = try CLI.run(
            ["render", dir.path("card.json").path, "--out", dir.path("out").path], environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(r.status, 0, String(r.stderr.suffix(2000)))
        let objects = loaded(r)
        for library in Self.renderingLibraries {
            XCTAssertTrue(objects.contains { $0.contains(library) }, "render did not load \(library): \(objects)")
        }
    }

    /// A library that the loader finds but cannot use (here a file of text under its soname, first on
    /// LD_LIBRARY_PATH): the fixture fails with an error naming it, nothing crashes, and diff still works.
    func testALibraryThatCannotLoadIsAnErrorNamingIt() throws {
        let dir = try TempDir()
        try dir.write("lib/libpangocairo-1.0.so.0", "not a shared object\n")
        try dir.write("card.json", smallPost())
        let environment = ["LD_LIBRARY_PATH": dir.path("lib").path]
        let r = try CLI.run(
            ["render", dir.path("card.json").path, "--out", dir.path("out").path], environment: environment)
        XCTAssertEqual(r.status, 2, r.output)
        XCTAssertTrue(r.stderr.contains("rendering libraries: cannot load libpangocairo-1.0.so.0"), r.stderr)
        XCTAssertFalse(r.stderr.contains("Fatal error") || r.stderr.contains("abort"), r.stderr)

        let (a, b) = try writePNGs(dir)
        let diff = try CLI.run(["diff", a, b], environment: environment)
        XCTAssertEqual(diff.status, 1, diff.output)
        XCTAssertTrue(diff.stdout.contains("1 pixel differs ("), diff.stdout)
    }
}
