import Foundation
import LayoutSnapImaging
import LayoutSnapTestSupport
import XCTest

/// Themes as a team uses them (docs/themes.md): a project theme and a named one recorded as
/// variants, measured in the layout and the pixels; `config` naming each token's source; a token
/// change failing exactly the goldens it reaches; a team's colours linted in full.
final class ThemeCommandTests: XCTestCase {
    let project = ##"""
        {"theme": {"colors": {"light": {"accent": "#1E8E3E"}}, "chat": {"bubblePaddingH": 20, "bubbleRadius": 16}},
         "themes": {"brand": {"colors": {"light": {"accent": "#AF52DE"}}, "chat": {"bubbleRadius": 4}}},
         "defaults": {"variants": {"theme": ["brand"]}}}
        """##
    let chat = #"""
        {"kind": "chat", "width": 320, "height": 300, "scale": 1,
         "messages": [{"id": "hi", "role": "user", "text": "Hi"}, {"id": "re", "role": "assistant", "text": "Hello"}]}
        """#

    /// The element's rect in a golden's layout.json (first state, first frame).
    func rect(_ dir: TempDir, _ fixture: String, _ id: String) throws -> [Double] {
        let data = try Data(contentsOf: dir.path("Goldens/\(fixture)/layout.json"))
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let states = try XCTUnwrap(json["states"] as? [[String: Any]])
        let frame = try XCTUnwrap((states[0]["frames"] as? [[String: Any]])?.first)
        let element = try XCTUnwrap((frame["elements"] as? [[String: Any]])?.first { $0["id"] as? String == id })
        return try XCTUnwrap(element["rect"] as? [Double])
    }

    /// The 0xAARRGGBB pixel at (x, y) of a golden frame.
    func pixel(_ dir: TempDir, _ file: String, _ x: Double, _ y: Double) throws -> UInt32 {
        let image = try PNGDecoder.decode([UInt8](Data(contentsOf: dir.path("Goldens/" + file))))
        return image.pixels[Int(y) * image.width + Int(x)]
    }

    func testAThemeAndANamedThemeDrawTheirTokensAndConfigSaysWhereEachComesFrom() throws {
        let dir = try TempDir()
        try dir.write("layoutsnap.json", project)
        try dir.write("Fixtures/c.json", chat)
        let record = try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url)
        XCTAssertEqual(record.status, 0, record.output)

        // "Hi" is 17.05 points of Inter 17 wide: 20 pt padding each side makes the bubble 57.05
        // wide in both themes (brand keeps the project's padding); its fill is each accent.
        let base = try rect(dir, "c", "message:hi")
        let brand = try rect(dir, "c@brand", "message:hi")
        XCTAssertEqual(base[2], brand[2])
        XCTAssertGreaterThan(base[2], 40 + 15)
        XCTAssertLessThan(base[2], 40 + 20)
        let middle = (base[1] + base[3] / 2).rounded(.down)
        XCTAssertEqual(try pixel(dir, "c/initial/000.png", base[0] + 3, middle), 0xFF1E_8E3E)
        XCTAssertEqual(try pixel(dir, "c@brand/initial/000.png", brand[0] + 3, middle), 0xFFAF_52DE)
        // The corners: 16 pt in the project's theme leaves the corner pixel's canvas showing 2 pt
        // in; brand's 4 pt corner is already accent there.
        let canvas = try pixel(dir, "c/initial/000.png", 1, 1)
        XCTAssertEqual(try pixel(dir, "c/initial/000.png", base[0] + 2, base[1] + 2), canvas)
        XCTAssertEqual(try pixel(dir, "c@brand/initial/000.png", brand[0] + 2, brand[1] + 2), 0xFFAF_52DE)

        let config = try CLI.run(["config"], in: dir.url)
        XCTAssertEqual(config.status, 0, config.output)
        XCTAssertTrue(config.stdout.contains("chat.bubbleRadius  16  [layoutsnap.json theme]"), config.stdout)
        XCTAssertTrue(config.stdout.contains("named themes: brand"), config.stdout)
        let full = try CLI.run(["config", "--theme", "brand"], in: dir.url)
        XCTAssertTrue(full.stdout.contains("chat.bubbleRadius  4  [layoutsnap.json themes.brand]"), full.stdout)
        XCTAssertTrue(full.stdout.contains("chat.bubblePaddingH  20  [layoutsnap.json theme]"), full.stdout)
        XCTAssertTrue(full.stdout.contains("chat.spacing  8  [built-in]"), full.stdout)
        let unknown = try CLI.run(["config", "--theme", "nope"], in: dir.url)
        XCTAssertEqual(unknown.status, 2, unknown.output)
        XCTAssertTrue(unknown.output.contains("this project has default, brand"), unknown.output)

        // A token of brand's fails brand's goldens only, with the cache on.
        try dir.write(
            "layoutsnap.json", project.replacingOccurrences(of: #""bubbleRadius": 4"#, with: #""bubbleRadius": 9"#))
        // No audit: its random sample would render the passing fixture now and then.
        let verify = try CLI.run(["verify", "--no-progress", "--cache-audit", "0"], in: dir.url)
        XCTAssertEqual(verify.status, 1, verify.output)
        XCTAssertTrue(verify.stdout.contains("1 passed (1 from cache), 1 failed"), verify.stdout)
        XCTAssertTrue(verify.output.contains("c@brand"), verify.output)
    }

    func testAThemesMistakeIsOneErrorNamingTheFileAndThePath() throws {
        let dir = try TempDir()
        try dir.write("layoutsnap.json", #"{"theme": {"chat": {"bubleRadius": 3}}}"#)
        try dir.write("Fixtures/c.json", chat)
        let r = try CLI.run(["verify", "--no-progress"], in: dir.url)
        XCTAssertEqual(r.status, 2, r.output)
        XCTAssertTrue(r.output.contains("layoutsnap.json"), r.output)
        XCTAssertTrue(r.output.contains("$.theme.chat.bubleRadius"), r.output)
        XCTAssertTrue(r.output.contains("did you mean \"bubbleRadius\"?"), r.output)
    }

    /// The built-in accent's white text is the design's accepted finding; a team's light green
    /// accent with the same white text (2.5:1) is reported.
    func testATeamsColoursAreLintedInFull() throws {
        let dir = try TempDir()
        try dir.write("Fixtures/c.json", chat)
        let builtIn = try CLI.run(["lint", "--no-progress", "Fixtures"], in: dir.url)
        XCTAssertEqual(builtIn.status, 0, builtIn.output)
        XCTAssertFalse(builtIn.output.contains("contrast"), builtIn.output)
        try dir.write("layoutsnap.json", ##"{"theme": {"colors": {"light": {"accent": "#34C759"}}}}"##)
        let team = try CLI.run(["lint", "--no-progress", "Fixtures"], in: dir.url)
        XCTAssertTrue(team.output.contains("contrast"), team.output)
        XCTAssertTrue(team.output.contains("message:hi"), team.output)
    }

    /// A Debian font as a brand family, in a named theme reached by a variant and in a fixture's
    /// own theme: the variant's text is set in DejaVu Serif (wider than Inter: "Hello there"
    /// takes more room), the base's stays in Inter, and `config` says where the family comes from.
    func testABrandFontReachesTextThroughAThemeInAFixtureAndAVariant() throws {
        let dir = try TempDir()
        try FileManager.default.createDirectory(at: dir.path("Fonts"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: BrandFontCLITests.dejaVuSerif, toPath: dir.path("Fonts/Brand.ttf").path)
        try dir.write(
            "layoutsnap.json",
            #"{"fonts": {"Brand Serif": "Fonts/Brand.ttf"}, "themes": {"serif": {"textStyles": {"family": "Brand Serif"}}}}"#
        )
        let text = #""kind": "transcript", "width": 400, "height": 120, "scale": 1, "text": "Hello there""#
        try dir.write("Fixtures/v.json", "{\(text), \"variants\": {\"theme\": [\"serif\"]}}")
        try dir.write("Fixtures/own.json", "{\(text), \"theme\": {\"textStyles\": {\"family\": \"Brand Serif\"}}}")
        let record = try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url)
        XCTAssertEqual(record.status, 0, record.output)
        func png(_ fixture: String) throws -> Data {
            try Data(contentsOf: dir.path("Goldens/\(fixture)/initial/000.png"))
        }
        XCTAssertNotEqual(try png("v"), try png("v@serif"), "the variant's theme sets the text in the brand font")
        XCTAssertEqual(try png("own"), try png("v@serif"), "the fixture's own theme does the same")
        let config = try CLI.run(["config", "--theme", "serif"], in: dir.url)
        XCTAssertTrue(
            config.stdout.contains(#"textStyles.family  "Brand Serif"  [layoutsnap.json themes.serif]"#), config.stdout)
        let wrong = try CLI.run(["verify", "--no-progress"], in: dir.url)
        XCTAssertEqual(wrong.status, 0, wrong.output)
    }
}
