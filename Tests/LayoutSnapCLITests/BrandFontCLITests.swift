import Foundation
import XCTest

/// layoutsnap.json's `fonts` through the binary: a family resolves to the project's file, the
/// file's bytes are in the environment fingerprint (the manifest; the result cache checks them for
/// the renderings that name a brand family), and a file that cannot be used is one error naming
/// it and its key.
final class BrandFontCLITests: XCTestCase {
    static let dejaVuSerif = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
    static let liberationSerif = "/usr/share/fonts/truetype/liberation2/LiberationSerif-Regular.ttf"
    static let interDisplayVariable = "/usr/share/fonts/truetype/inter-vf/InterDisplay-roman.var.ttf"
    static let cjkCollection = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"

    /// A project in `app/` with one small fixture and `Fonts/Brand.ttf`, a copy of `font`.
    static func project(_ dir: TempDir, font: String = dejaVuSerif, fonts: String) throws -> URL {
        try dir.write(
            "app/Fixtures/a.json", #"{"kind": "transcript", "width": 200, "height": 120, "scale": 1, "text": "One"}"#)
        try dir.write("app/layoutsnap.json", #"{"fonts": "# + fonts + "}")
        try replaceBrandFile(dir, with: font)
        return dir.path("app")
    }

    static func replaceBrandFile(_ dir: TempDir, with font: String) throws {
        try FileManager.default.createDirectory(at: dir.path("app/Fonts"), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: dir.path("app/Fonts/Brand.ttf"))
        try FileManager.default.copyItem(atPath: font, toPath: dir.path("app/Fonts/Brand.ttf").path)
    }

    static func manifestFonts(_ dir: TempDir) throws -> [String: String] {
        let data = try Data(contentsOf: dir.path("app/Goldens/manifest.json"))
        let manifest = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let environment = try XCTUnwrap(manifest["environment"] as? [String: Any])
        return try XCTUnwrap(environment["fonts"] as? [String: String])
    }

    func testABrandFamilyResolvesToTheProjectsFileAndItsBytesAreInTheFingerprint() throws {
        let dir = try TempDir()
        let app = try Self.project(dir, fonts: #"{"Brand Sans": "Fonts/Brand.ttf"}"#)
        try FileManager.default.createDirectory(at: dir.path("app/sub"), withIntermediateDirectories: true)

        // Relative to layoutsnap.json's folder, wherever the command runs.
        let config = try CLI.run(["config"], in: app)
        XCTAssertEqual(config.status, 0, config.output)
        XCTAssertTrue(
            config.stdout.contains("  Brand Sans: Fonts/Brand.ttf; regular text: Brand.ttf  [layoutsnap.json]"),
            config.stdout)
        let below = try CLI.run(["config"], in: dir.path("app/sub"))
        XCTAssertTrue(
            below.stdout.contains("/app/Fonts/Brand.ttf; regular text: Brand.ttf  [/")
                && below.stdout.contains("/app/layoutsnap.json]"), below.stdout)

        // The user's fontconfig never joins: one that sends the family to the system's fonts
        // changes nothing.
        let userConfig = try dir.write(
            "fonts.conf",
            #"<?xml version="1.0"?><fontconfig><dir>/usr/share/fonts</dir><alias binding="strong"><family>Brand Sans</family><prefer><family>DejaVu Sans</family></prefer></alias></fontconfig>"#
        )
        let user = try CLI.run(["config"], in: app, environment: ["FONTCONFIG_FILE": userConfig.path])
        XCTAssertTrue(user.stdout.contains("  Brand Sans: Fonts/Brand.ttf; regular text: Brand.ttf  ["), user.output)

        let record = try CLI.run(["record", "--no-progress", "--allow-ci"], in: app)
        XCTAssertEqual(record.status, 0, record.output)
        let recorded = try Self.manifestFonts(dir)
        let first = try XCTUnwrap(recorded["Brand Sans: Brand.ttf"], "\(recorded)")
        XCTAssertNotNil(recorded["Inter-Regular.otf"], "the bundled fonts are still there")

        let verify = try CLI.run(["verify", "--no-progress"], in: app)
        XCTAssertEqual(verify.status, 0, verify.output)
        // No audit: its random sample would render the one fixture now and then.
        let cached = try CLI.run(["verify", "--no-progress", "--cache-audit", "0"], in: app)
        XCTAssertTrue(cached.stdout.contains("1 passed (1 from cache)"), cached.output)

        // Other bytes under the same name: another environment, and a warning. The fixture names
        // no brand family, so its pixels cannot depend on the file, and its cache entry holds.
        try Self.replaceBrandFile(dir, with: Self.liberationSerif)
        let changed = try CLI.run(["verify", "--no-progress", "--cache-audit", "0"], in: app)
        XCTAssertTrue(changed.stdout.contains("1 passed (1 from cache)"), changed.output)
        XCTAssertTrue(
            changed.stderr.contains("environment differs")
                && changed.stderr.contains("font Brand Sans: Brand.ttf hash "),
            changed.output)
        let again = try CLI.run(["record", "--no-progress", "--allow-ci"], in: app)
        XCTAssertEqual(again.status, 0, again.output)
        let second = try XCTUnwrap(try Self.manifestFonts(dir)["Brand Sans: Brand.ttf"])
        XCTAssertNotEqual(first, second)
    }

    /// A brand file changed: only the fixtures whose texts name its family are rendered again, and
    /// every verdict is the one a run without the cache gives. The Armenian fixture names no
    /// brand family: DejaVu Serif has Armenian and no bundled font does, yet its text never falls
    /// back to the brand font, so its pixels hold when the file changes (with and without cache).
    func testAChangedBrandFileRendersOnlyTheFixturesThatNameItsFamily() throws {
        let dir = try TempDir()
        let app = try Self.project(dir, fonts: #"{"Brand Serif": "Fonts/Brand.ttf"}"#)
        try dir.write(
            "app/Fixtures/brand.json",
            #"{"kind": "transcript", "width": 200, "height": 120, "scale": 1, "text": "Two", "theme": {"textStyles": {"family": "Brand Serif"}}}"#
        )
        try dir.write(
            "app/Fixtures/armenian.json",
            #"{"kind": "transcript", "width": 200, "height": 120, "scale": 1, "text": "Three \u0532\u0561\u0580\u0565\u0582"}"#
        )
        let record = try CLI.run(["record", "--no-progress", "--allow-ci"], in: app)
        XCTAssertEqual(record.status, 0, record.output)
        func verify(_ extra: [String]) throws -> (status: Int32, cached: [String: Bool], passed: [String: Bool]) {
            let r = try CLI.run(
                ["verify", "--no-progress", "--cache-audit", "0", "--json", "out.json"] + extra, in: app)
            let json = try XCTUnwrap(
                JSONSerialization.jsonObject(with: Data(contentsOf: app.appendingPathComponent("out.json")))
                    as? [String: Any])
            var cached: [String: Bool] = [:]
            var passed: [String: Bool] = [:]
            for f in try XCTUnwrap(json["fixtures"] as? [[String: Any]]) {
                let id = try XCTUnwrap(f["id"] as? String)
                cached[id] = (f["cached"] as? Bool) ?? false
                let states = try XCTUnwrap(f["states"] as? [[String: Any]])
                let frames = states.flatMap { ($0["frames"] as? [[String: Any]]) ?? [] }
                passed[id] = !frames.isEmpty && frames.allSatisfy { ($0["status"] as? String) == "passed" }
            }
            return (r.status, cached, passed)
        }
        XCTAssertEqual(try verify([]).cached, ["a": true, "brand": true, "armenian": true])

        try Self.replaceBrandFile(dir, with: Self.liberationSerif)
        let changed = try verify([])
        XCTAssertEqual(changed.cached, ["a": true, "brand": false, "armenian": true])
        let uncached = try verify(["--no-cache"])
        XCTAssertEqual(changed.status, 1)
        XCTAssertEqual(uncached.status, changed.status)
        XCTAssertEqual(uncached.passed, ["a": true, "brand": false, "armenian": true])
        XCTAssertEqual(changed.passed, uncached.passed)
        XCTAssertEqual(
            try verify([]).cached, ["a": true, "brand": false, "armenian": true], "a failing fixture renders")
        // The rendering with the first file is kept beside the second's: going back is a hit.
        try Self.replaceBrandFile(dir, with: Self.dejaVuSerif)
        XCTAssertEqual(try verify([]).cached, ["a": true, "brand": true, "armenian": true])
    }

    /// One `error:` line, at the key's place in layoutsnap.json, naming the file; exit 2.
    func assertOneError(_ result: CLI.Result, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.status, 2, result.output, file: file, line: line)
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") }
        XCTAssertEqual(errors, ["error: " + expected], result.output, file: file, line: line)
    }

    func testAMissingFileAFolderAndANonFontAreEachOneErrorNamingTheFileAndItsKey() throws {
        let dir = try TempDir()
        let app = try Self.project(dir, fonts: #"{"Brand Sans": "Fonts/Brand.ttf"}"#)
        try dir.write("app/Fonts/notes.ttf", "not a font\n")
        try FileManager.default.createDirectory(at: dir.path("app/Fonts/Family"), withIntermediateDirectories: true)
        let cases: [(entry: String, message: String)] = [
            ("Fonts/Missing.ttf", "Fonts/Missing.ttf: no such file"),
            ("Fonts/Family", "Fonts/Family is a folder, not a font file"),
            ("Fonts/notes.ttf", "Fonts/notes.ttf is not a font file: expected TrueType or OpenType (.ttf, .otf, .ttc)"),
        ]
        for (entry, message) in cases {
            try dir.write(
                "app/layoutsnap.json", "{\n  \"fonts\": {\"Brand Sans\": [\"Fonts/Brand.ttf\", \"\(entry)\"]}\n}\n")
            for command in [["verify", "--no-progress"], ["config"]] {
                let result = try CLI.run(command, in: app)
                assertOneError(result, #"layoutsnap.json:2:47: $.fonts["Brand Sans"][1]: "# + message)
            }
        }
    }

    func testAnUnreadableFileIsOneError() throws {
        let dir = try TempDir()
        let app = try Self.project(dir, fonts: #"{"Brand Sans": "Fonts/Brand.ttf"}"#)
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o000], ofItemAtPath: dir.path("app/Fonts/Brand.ttf").path)
        defer {
            try? FileManager.default.setAttributes(
                [.posixPermissions: 0o644], ofItemAtPath: dir.path("app/Fonts/Brand.ttf").path)
        }
        // Root reads any file: run as nobody, who still reads the rest of the world-readable project.
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.url.path)
        let launcher = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        let result = try CLI.run(["config"], in: app, launcher: launcher)
        assertOneError(result, #"layoutsnap.json:1:26: $.fonts["Brand Sans"]: Fonts/Brand.ttf: cannot be read"#)
    }

    func testAMisspelledFieldOfAFontEntrySuggestsTheField() throws {
        let dir = try TempDir()
        let app = try Self.project(dir, fonts: #"{"Brand Sans": {"fil": "Fonts/Brand.ttf"}}"#)
        let result = try CLI.run(["verify", "--no-progress"], in: app)
        assertOneError(
            result, #"layoutsnap.json:1:27: $.fonts["Brand Sans"].fil: unknown field "fil"; did you mean "file"?"#)
        try dir.write("app/layoutsnap.json", #"{"fonts": {"Brand Sans": {"file": "Fonts/Brand.ttf", "fase": "Book"}}}"#)
        let face = try CLI.run(["config"], in: app)
        assertOneError(
            face, #"layoutsnap.json:1:54: $.fonts["Brand Sans"].fase: unknown field "fase"; did you mean "face"?"#)
        try dir.write("app/layoutsnap.json", #"{"fonts": {"Inter": "Fonts/Brand.ttf"}}"#)
        assertOneError(
            try CLI.run(["config"], in: app),
            #"layoutsnap.json:1:21: $.fonts.Inter: "Inter" is a bundled family; give the brand font a name of its own"#)
        // Family names as fontconfig compares them (case and spaces aside), and brand files as
        // the environment names them (family, file name, face): two that would be one are refused.
        let cases: [(fonts: String, error: String)] = [
            (
                #"{"In ter": "Fonts/Brand.ttf"}"#,
                #"layoutsnap.json:1:22: $.fonts["In ter"]: "Inter" is a bundled family; give the brand font a name of its own"#
            ),
            (
                #"{"Brand Sans": "Fonts/Brand.ttf", "brandsans": "Fonts/Brand.ttf"}"#,
                #"layoutsnap.json:1:58: $.fonts.brandsans: "brandsans" is "Brand Sans" to fontconfig, which compares family names ignoring case and spaces; give the files one family"#
            ),
            (
                #"{"Brand Sans": ["Fonts/Brand.ttf", "Other/Brand.ttf"]}"#,
                #"layoutsnap.json:1:46: $.fonts["Brand Sans"][1]: Other/Brand.ttf and Fonts/Brand.ttf are both Brand.ttf: brand files are told apart by family, file name and face; rename one"#
            ),
        ]
        for (fonts, error) in cases {
            try dir.write("app/layoutsnap.json", #"{"fonts": "# + fonts + "}")
            assertOneError(try CLI.run(["config"], in: app), error)
        }
    }

    func testACollectionNeedsAFaceAndAVariableFontLoadsItsInstances() throws {
        let dir = try TempDir()
        let app = try Self.project(
            dir, fonts: #"{"Brand CJK": "\#(Self.cjkCollection)", "Brand Display": "\#(Self.interDisplayVariable)"}"#)
        let verify = try CLI.run(["verify", "--no-progress"], in: app)
        XCTAssertEqual(verify.status, 2, verify.output)
        let errors = verify.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") }
        XCTAssertEqual(errors.count, 1, verify.output)
        XCTAssertTrue(
            errors.first?.contains(
                #"layoutsnap.json:1:25: $.fonts["Brand CJK"]: \#(Self.cjkCollection) holds faces of 10 families"#)
                == true, verify.output)

        try dir.write(
            "app/layoutsnap.json",
            #"{"fonts": {"Brand CJK": {"file": "\#(Self.cjkCollection)", "face": "Noto Sans CJK SC"}, "Brand Display": "\#(Self.interDisplayVariable)"}}"#
        )
        let config = try CLI.run(["config"], in: app)
        XCTAssertEqual(config.status, 0, config.output)
        XCTAssertTrue(
            config.stdout.contains(
                "  Brand CJK: \(Self.cjkCollection) (Noto Sans CJK SC); regular text: NotoSansCJK-Regular.ttc  [layoutsnap.json]"
            ), config.stdout)
        XCTAssertTrue(
            config.stdout.contains(
                "  Brand Display: \(Self.interDisplayVariable); regular text: InterDisplay-roman.var.ttf  [layoutsnap.json]"
            ),
            config.stdout)
        let record = try CLI.run(["record", "--no-progress", "--allow-ci"], in: app)
        XCTAssertEqual(record.status, 0, record.output)
        let fonts = try Self.manifestFonts(dir)
        XCTAssertNotNil(fonts["Brand CJK: NotoSansCJK-Regular.ttc (Noto Sans CJK SC)"], "\(fonts)")
        XCTAssertNotNil(fonts["Brand Display: InterDisplay-roman.var.ttf"], "\(fonts)")
    }
}
