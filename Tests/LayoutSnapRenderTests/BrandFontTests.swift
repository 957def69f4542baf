import Foundation
import LayoutSnapCore
import LayoutSnapJSON
@testable import LayoutSnapRender
import XCTest

/// layoutsnap.json's `fonts`, through Pango: a brand family name reaches its file (and nothing
/// else does), with fonts Debian ships (bash .ci/install installs them).
final class BrandFontTests: XCTestCase {
    static let dejaVuSerif = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
    static let liberationSerif = "/usr/share/fonts/truetype/liberation2/LiberationSerif-Regular.ttf"
    /// A variable font with named instances (Thin to Black) and no static faces.
    static let interDisplayVariable = "/usr/share/fonts/truetype/inter-vf/InterDisplay-roman.var.ttf"
    /// A collection of ten families (JP, KR, SC, TC, HK, and their Mono).
    static let cjkCollection = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"

    static func brand(_ family: String, _ file: String, face: String? = nil) -> BrandFont {
        BrandFont(
            family: family, file: file, face: face, path: JSONPath.root.appending(key: "fonts").appending(key: family),
            position: SourcePosition(line: 1, column: 1, offset: 0))
    }

    /// A font system of its own (not the process's shared one) with these brand fonts.
    static func engine(_ fonts: [BrandFont]) throws -> TextEngine {
        try TextEngine(fonts: FontSystem(projectFonts: .init(fonts: fonts, configFile: "layoutsnap.json")))
    }

    static func text(_ string: String, _ font: FontSpec) -> StyledText {
        StyledText(runs: [TextRun(string)], font: font, width: nil)
    }

    func testABrandFamilyLaysOutWithItsFileAndMeasuresUnlikeInter() throws {
        let engine = try Self.engine([Self.brand("Brand Sans", Self.dejaVuSerif)])
        let brand = Self.text("Hamburgefonstiv", FontSpec(size: 17, family: "Brand Sans"))
        let inter = Self.text("Hamburgefonstiv", FontSpec(size: 17))

        let faces = try engine.faces(of: brand)
        XCTAssertEqual(faces.map(\.file), [Self.dejaVuSerif])
        XCTAssertEqual(faces.map(\.family), ["Brand Sans"], "known by the config's name, not DejaVu Serif")
        XCTAssertEqual(
            try engine.faces(of: inter).map { ($0.file as NSString).lastPathComponent }, ["Inter-Regular.otf"])

        let brandWidth = try engine.measure(brand).lines[0].width
        let interWidth = try engine.measure(inter).lines[0].width
        // DejaVu Serif is much wider than Inter: well past any rounding.
        XCTAssertGreaterThan(abs(brandWidth - interWidth), 10, "\(brandWidth) vs \(interWidth)")
    }

    /// A brand font renders only the texts that name its family: Armenian, which DejaVu Serif
    /// draws and no bundled font does, stays without glyphs in a text of Inter's, so a text that
    /// names no brand family never depends on a brand font's bytes (the result cache keys it
    /// without them). The engine says which fixtures named one, as fontconfig compares names.
    func testABrandFontIsNeverAnotherTextsFallbackAndTheEngineSaysWhenOneWasNamed() throws {
        let engine = try Self.engine([Self.brand("Brand Serif", Self.dejaVuSerif)])
        let armenian = "\u{0532}\u{0561}\u{0580}\u{0565}\u{0582}"
        XCTAssertFalse(engine.usedBrandFonts)
        let plain = try engine.faces(of: Self.text("Hi " + armenian, FontSpec(size: 17)))
        XCTAssertFalse(plain.contains { $0.file == Self.dejaVuSerif }, "\(plain)")
        XCTAssertFalse(engine.usedBrandFonts, "no text named the brand family")
        let inter = try engine.faces(of: Self.text("Hi " + armenian, FontSpec(size: 17, family: "Inter")))
        XCTAssertFalse(inter.contains { $0.file == Self.dejaVuSerif }, "\(inter)")
        XCTAssertFalse(engine.usedBrandFonts, "Inter is not a brand family")
        for family in ["Brand Serif", "brand serif", "BRANDSERIF", "Brand  Serif"] {
            let named = try engine.faces(of: Self.text(armenian, FontSpec(size: 17, family: family)))
            XCTAssertEqual(named.map(\.file), [Self.dejaVuSerif], family)
            XCTAssertTrue(engine.usedBrandFonts, family)
            engine.clearCache()
            XCTAssertFalse(engine.usedBrandFonts, "each fixture starts without")
        }
        XCTAssertFalse(engine.fonts.isBrandFamily("Brand Serifs"))
        XCTAssertFalse(engine.fonts.isBrandFamily(nil))
    }

    func testAFamilyTheProjectDoesNotLoadIsInterNeverTheSystemsFont() throws {
        // DejaVu Serif is installed system-wide; only the private fontconfig may answer.
        let engine = try Self.engine([Self.brand("Brand Sans", Self.liberationSerif)])
        for family in ["DejaVu Serif", "Liberation Serif", "serif"] {
            let faces = try engine.faces(of: Self.text("Hamburgefonstiv", FontSpec(size: 17, family: family)))
            XCTAssertEqual(faces.map { ($0.file as NSString).lastPathComponent }, ["Inter-Regular.otf"], family)
        }
    }

    func testTheWeightChoosesAVariableFontsNamedInstance() throws {
        let engine = try Self.engine([Self.brand("Brand Display", Self.interDisplayVariable)])
        func face(_ weight: FontWeight) throws -> TextEngine.UsedFace {
            let faces = try engine.faces(
                of: Self.text("Display", FontSpec(size: 34, weight: weight, family: "Brand Display")))
            XCTAssertEqual(faces.count, 1)
            return try XCTUnwrap(faces.first)
        }
        let regular = try face(.regular)
        let bold = try face(.bold)
        XCTAssertEqual(regular.file, Self.interDisplayVariable)
        XCTAssertEqual(bold.file, Self.interDisplayVariable)
        // fontconfig's index: the named instance in the high 16 bits (Bold is the 7th of the file's).
        XCTAssertEqual(regular.index >> 16, 0)
        XCTAssertEqual(bold.index >> 16, 7, "index \(bold.index)")
        let regularWidth = try engine.measure(Self.text("Display", FontSpec(size: 34, family: "Brand Display")))
        let boldWidth = try engine.measure(
            Self.text("Display", FontSpec(size: 34, weight: .bold, family: "Brand Display")))
        XCTAssertGreaterThan(boldWidth.lines[0].width, regularWidth.lines[0].width + 1)
    }

    func testTheSystemNamesItsBrandFamiliesOnceAndTheWeightChoosesAmongAFamilysFiles() throws {
        let bold = "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf"
        let system = try FontSystem(
            projectFonts: .init(
                fonts: [
                    Self.brand("Brand Serif", Self.dejaVuSerif), Self.brand("Brand Display", Self.interDisplayVariable),
                    Self.brand("Brand Serif", bold),
                ], configFile: "layoutsnap.json"))
        XCTAssertEqual(system.brandFamilies, ["Brand Serif", "Brand Display"])
        let engine = try TextEngine(fonts: system)
        for (weight, file) in [(FontWeight.regular, Self.dejaVuSerif), (.bold, bold)] {
            let faces = try engine.faces(
                of: Self.text("Serif", FontSpec(size: 17, weight: weight, family: "Brand Serif")))
            XCTAssertEqual(faces.map(\.file), [file], "\(weight)")
        }
    }

    func testAFaceTakesOneFamilyOfACollection() throws {
        let engine = try Self.engine([
            Self.brand("Brand SC", Self.cjkCollection, face: "Noto Sans CJK SC"),
            Self.brand("Brand KR", Self.cjkCollection, face: "noto sans cjk kr"),
        ])
        let sc = try engine.faces(of: Self.text("中文", FontSpec(size: 17, family: "Brand SC")))
        let kr = try engine.faces(of: Self.text("中文", FontSpec(size: 17, family: "Brand KR")))
        XCTAssertEqual(sc.map(\.file), [Self.cjkCollection])
        XCTAssertEqual(sc.map(\.index), [2])
        XCTAssertEqual(kr.map(\.index), [1])
    }

    func testACollectionOfSeveralFamiliesWithoutAFaceIsAnError() throws {
        XCTAssertThrowsError(try Self.engine([Self.brand("Brand CJK", Self.cjkCollection)])) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("layoutsnap.json:1:1: $.fonts[\"Brand CJK\"]: "), message)
            XCTAssertTrue(message.contains("holds faces of 10 families"), message)
        }
        XCTAssertThrowsError(
            try Self.engine([Self.brand("Brand CJK", Self.cjkCollection, face: "Noto Sans CJK XX")])
        ) { error in
            XCTAssertTrue("\(error)".contains("has no face \"Noto Sans CJK XX\""), "\(error)")
        }
    }

    func testABrandFamilyMayNotTakeABundledFamilysName() throws {
        XCTAssertThrowsError(try Self.engine([Self.brand("noto sans cjk jp", Self.dejaVuSerif)])) { error in
            XCTAssertTrue("\(error)".contains("is a bundled family"), "\(error)")
        }
    }
}
