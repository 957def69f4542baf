import CRenderLibraries
import Foundation
@testable import LayoutSnapRender
import XCTest

/// The private fontconfig's faces are each opened once, by cairo (which pins them), and
/// fontconfig reads their patterns from cairo's faces: the set must be fontconfig's own reading
/// of the files, face for face and in order, whichever core read which face.
final class FontSetUpTests: XCTestCase {
    static let paths = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
        // Ten faces, the largest file: opened first.
        BrandFontTests.cjkCollection,
        // A bitmap font: fontconfig picks a strike of cairo's face to read it.
        "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
        // Named instances: read by fontconfig from the file, as before.
        BrandFontTests.interDisplayVariable,
        "/usr/share/fonts/truetype/liberation2/LiberationMono-Regular.ttf",
    ]

    /// Every face read from cairo's face (none counted as pinned before, whatever earlier tests
    /// of this process opened: nothing renders meanwhile).
    func testFacesReadFromCairosFacesAreFontconfigsOwnReadingInOrder() throws {
        let paths = Self.paths
        let pinned = try Self.assertSameAsFontconfigsReading(paths, earlier: [])
        // Every face after the first file's was opened by cairo, and the variable font's first.
        XCTAssertEqual(
            pinned,
            Set(
                (0..<10).map { FontSystem.FaceKey(file: BrandFontTests.cjkCollection, index: $0) } + [
                    FontSystem.FaceKey(file: paths[2], index: 0), FontSystem.FaceKey(file: paths[3], index: 0),
                    FontSystem.FaceKey(file: paths[4], index: 0),
                ]))
    }

    /// A file whose faces another font system of the process pinned (and a worker may be using)
    /// is read by fontconfig from the file: the same patterns, and nothing of it opened again.
    func testAFileAnEarlierSystemPinnedIsReadFromTheFile() throws {
        let paths = Self.paths
        let earlier: Set<FontSystem.FaceKey> = [FontSystem.FaceKey(file: BrandFontTests.cjkCollection, index: 0)]
        let pinned = try Self.assertSameAsFontconfigsReading(paths, earlier: earlier)
        XCTAssertEqual(
            pinned,
            earlier.union([
                FontSystem.FaceKey(file: paths[2], index: 0), FontSystem.FaceKey(file: paths[3], index: 0),
                FontSystem.FaceKey(file: paths[4], index: 0),
            ]))
    }

    /// `addFiles` into a new config; asserts its faces are fontconfig's reading of `paths` in
    /// order, and returns what it says is pinned.
    static func assertSameAsFontconfigsReading(_ paths: [String], earlier: Set<FontSystem.FaceKey>) throws -> Set<
        FontSystem.FaceKey
    > {
        let config = try XCTUnwrap(FcConfigCreate())
        defer { FcConfigDestroy(config) }
        let pinned = try FontSystem.addFiles(paths, to: config, earlier: earlier)
        let set = try XCTUnwrap(FcConfigGetFonts(config, FcSetApplication))

        var expected: [OpaquePointer] = []
        let sets = try paths.map { path -> UnsafeMutablePointer<FcFontSet> in
            let read = try XCTUnwrap(FcFontSetCreate())
            var count: Int32 = 0
            let faces = path.withCString {
                FcFreeTypeQueryAll(
                    UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self), UInt32.max, nil, &count, read)
            }
            XCTAssertGreaterThan(faces, 0, path)
            for i in 0..<Int(read.pointee.nfont) { expected.append(read.pointee.fonts[i]!) }
            return read
        }
        defer { for read in sets { FcFontSetDestroy(read) } }

        XCTAssertEqual(Int(set.pointee.nfont), expected.count)
        for i in 0..<min(Int(set.pointee.nfont), expected.count) {
            let actual = try XCTUnwrap(set.pointee.fonts[i])
            XCTAssertTrue(FcPatternEqual(actual, expected[i]) != 0, "face \(i): \(Self.describe(actual))")
        }
        return pinned
    }

    static func describe(_ pattern: OpaquePointer) -> String {
        guard let name = FcNameUnparse(pattern) else { return "?" }
        defer { free(name) }
        return String(String(cString: name).prefix(300))
    }
}
