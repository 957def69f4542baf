import CRenderLibraries
import Foundation
@testable import LayoutSnapRender
import XCTest

/// The private fontconfig's faces are opened by layoutsnap, on every core, and fontconfig reads
/// their patterns from those faces: the set must be fontconfig's own reading of the files, face
/// for face and in order, whichever core read which face, with each face given to cairo in its
/// pattern (so cairo never opens or closes them). Without the per-user memo of those patterns
/// (`FaceMemoTests`): fontconfig reads every face here.
final class FontSetUpTests: XCTestCase {
    static let paths = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
        // Ten faces, the largest file: opened first.
        BrandFontTests.cjkCollection,
        // A bitmap font: fontconfig picks a strike of the face to read it.
        "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
        // Named instances: read by fontconfig from the file, and left to cairo.
        BrandFontTests.interDisplayVariable,
        "/usr/share/fonts/truetype/liberation2/LiberationMono-Regular.ttf",
    ]

    /// Every face after the first file's, but the variable font's, is layoutsnap's, and the
    /// patterns are fontconfig's reading of the files.
    func testFacesOpenedByLayoutsnapAreFontconfigsOwnReadingInOrder() throws {
        let paths = Self.paths
        let config = try XCTUnwrap(FcConfigCreate())
        defer { FcConfigDestroy(config) }
        try FontSystem.addFiles(paths, to: config, faceMemo: nil)
        XCTAssertEqual(
            try Self.facesOfLayoutsnaps(config),
            Set(
                (0..<10).map { FaceKey(file: BrandFontTests.cjkCollection, index: $0) } + [
                    FaceKey(file: paths[2], index: 0), FaceKey(file: paths[4], index: 0),
                ]))
        let faces = try Self.assertSameAsFontconfigsReading(paths, config)
        // The first file (fontconfig's own) and the variable font's instances carry no face.
        let instances = faces.count - 13
        XCTAssertGreaterThan(instances, 1)
        XCTAssertEqual(
            faces.map { $0 != nil },
            [false] + Array(repeating: true, count: 11) + Array(repeating: false, count: instances) + [true])
        XCTAssertEqual(Set(faces.compactMap { $0 }).count, 12, "a face per pattern")
        // Cairo's font face of each pattern with a face is held for good (so is its font of the
        // face): one asked for now is the held one, with a reference beside the caller's.
        let set = try XCTUnwrap(FcConfigGetFonts(config, FcSetApplication))
        for (i, face) in faces.enumerated() where face != nil {
            let fontFace = try XCTUnwrap(cairo_ft_font_face_create_for_pattern(set.pointee.fonts[i]))
            defer { cairo_font_face_destroy(fontFace) }
            XCTAssertGreaterThanOrEqual(cairo_font_face_get_reference_count(fontFace), 2, "face \(i)")
        }
    }

    /// A later font system of the process takes the same faces and patterns; a file changed
    /// since is opened anew.
    func testALaterSystemTakesTheSameFacesUntilTheFileChanges() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fontsetup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("Mono.ttf").path
        try FileManager.default.copyItem(atPath: Self.paths[4], toPath: copy)
        let paths = [Self.paths[0], copy]

        func faces() throws -> [FT_Face?] {
            let config = try XCTUnwrap(FcConfigCreate())
            defer { FcConfigDestroy(config) }
            try FontSystem.addFiles(paths, to: config, faceMemo: nil)
            XCTAssertEqual(try Self.facesOfLayoutsnaps(config), [FaceKey(file: copy, index: 0)])
            return try Self.assertSameAsFontconfigsReading(paths, config)
        }
        let first = try faces()
        XCTAssertNotNil(first[1])
        XCTAssertEqual(try faces(), first, "the same face")
        // Written again (a new modification time): opened anew.
        try FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: Self.paths[4], toPath: copy)
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        XCTAssertEqual(utimensat(AT_FDCWD, copy, &times, 0), 0)
        let again = try faces()
        XCTAssertNotNil(again[1])
        XCTAssertNotEqual(again[1], first[1], "a new face for the changed file")
    }

    struct FaceKey: Hashable {
        var file: String
        var index: Int
    }

    /// The faces of the config's application set that layoutsnap opened (their patterns carry
    /// the face), by file and index.
    static func facesOfLayoutsnaps(_ config: OpaquePointer) throws -> Set<FaceKey> {
        let set = try XCTUnwrap(FcConfigGetFonts(config, FcSetApplication))
        var keys = Set<FaceKey>()
        for i in 0..<Int(set.pointee.nfont) {
            let pattern = try XCTUnwrap(set.pointee.fonts[i])
            var face: FT_Face?
            var file: UnsafeMutablePointer<FcChar8>?
            var index: Int32 = 0
            guard FcPatternGetFTFace(pattern, FC_FT_FACE, 0, &face) == FcResultMatch else { continue }
            XCTAssertEqual(FcPatternGetString(pattern, FC_FILE, 0, &file), FcResultMatch)
            XCTAssertEqual(FcPatternGetInteger(pattern, FC_INDEX, 0, &index), FcResultMatch)
            keys.insert(FaceKey(file: String(cString: try XCTUnwrap(file)), index: Int(index)))
        }
        return keys
    }

    /// Asserts the config's application set is fontconfig's reading of `paths` in order (apart
    /// from the face each pattern carries), and returns each pattern's face.
    static func assertSameAsFontconfigsReading(_ paths: [String], _ config: OpaquePointer) throws -> [FT_Face?] {
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
        var faces: [FT_Face?] = []
        for i in 0..<min(Int(set.pointee.nfont), expected.count) {
            let actual = try XCTUnwrap(set.pointee.fonts[i])
            var face: FT_Face?
            faces.append(FcPatternGetFTFace(actual, FC_FT_FACE, 0, &face) == FcResultMatch ? face : nil)
            let plain = try XCTUnwrap(FcPatternDuplicate(actual))
            defer { FcPatternDestroy(plain) }
            FcPatternDel(plain, FC_FT_FACE)
            XCTAssertTrue(FcPatternEqual(plain, expected[i]) != 0, "face \(i): \(Self.describe(actual))")
        }
        return faces
    }

    static func describe(_ pattern: OpaquePointer) -> String {
        guard let name = FcNameUnparse(pattern) else { return "?" }
        defer { free(name) }
        return String(String(cString: name).prefix(300))
    }
}
