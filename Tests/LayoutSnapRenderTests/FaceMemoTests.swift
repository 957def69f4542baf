import CRenderLibraries
import Foundation
@testable import LayoutSnapRender
import LayoutSnapSystem
import XCTest

/// The per-user memo of fontconfig's reading of the font files (`FaceMemo`) gives back exactly
/// the patterns fontconfig made, is used while its file holds, and is no memo at all when it
/// does not read whole.
final class FaceMemoTests: XCTestCase {
    /// Every face of the bundled and packaged files, the variable font's instances and a pattern
    /// of every value type, written and read back: equal to fontconfig's, and written again to
    /// the same bytes (so each value's binding and order came back too).
    func testTheMemoGivesBackFontconfigsPatternsExactly() throws {
        let paths = try FontSystem.bundledFiles().map(\.path) + [BrandFontTests.interDisplayVariable]
        var checked = 0
        for path in paths {
            let patterns = try Self.fontconfigsReading(path)
            defer { for pattern in patterns { FcPatternDestroy(pattern) } }
            XCTAssertFalse(patterns.isEmpty, path)
            try assertRoundTrip(patterns, path)
            checked += patterns.count
        }
        XCTAssertGreaterThan(checked, 40)

        let odd = try XCTUnwrap(FcPatternCreate())
        defer { FcPatternDestroy(odd) }
        var value = FcValue()
        value.type = FcTypeDouble
        value.u.d = 0.1 + 0.2
        XCTAssertNotEqual(FcPatternAddWeak(odd, FC_SIZE, value, 1), 0)
        value.u.d = -0.0
        XCTAssertNotEqual(FcPatternAdd(odd, FC_SIZE, value, 1), 0)
        var matrix = FcMatrix(xx: 1.0 / 3, xy: 0.25, yx: -1e-300, yy: 7)
        value.type = FcTypeMatrix
        withUnsafePointer(to: &matrix) { pointer in
            value.u.m = pointer
            XCTAssertNotEqual(FcPatternAdd(odd, FC_MATRIX, value, 1), 0)
        }
        let langs = try XCTUnwrap(FcLangSetCreate())
        defer { FcLangSetDestroy(langs) }
        for lang in ["ja", "x-layoutsnap", "sr-latn"] {
            _ = lang.withCString { FcLangSetAdd(langs, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }
        }
        value.type = FcTypeLangSet
        value.u.l = langs
        XCTAssertNotEqual(FcPatternAdd(odd, FC_LANG, value, 1), 0)
        let range = try XCTUnwrap(FcRangeCreateDouble(100, 900.5))
        defer { FcRangeDestroy(range) }
        value.type = FcTypeRange
        value.u.r = range
        XCTAssertNotEqual(FcPatternAdd(odd, FC_WEIGHT, value, 1), 0)
        value.type = FcTypeBool
        value.u.b = 1
        XCTAssertNotEqual(FcPatternAddWeak(odd, FC_OUTLINE, value, 1), 0)
        value.type = FcTypeInteger
        value.u.i = -3
        XCTAssertNotEqual(FcPatternAdd(odd, FC_INDEX, value, 1), 0)
        XCTAssertNotEqual(FcPatternAddString(odd, "layoutsnaptest", "ünï\u{1F600}"), 0)
        try assertRoundTrip([odd], "every type")

        // A face cannot be written: such a pattern is not remembered.
        let withFace = try XCTUnwrap(FcPatternDuplicate(odd))
        defer { FcPatternDestroy(withFace) }
        XCTAssertNotEqual(FcPatternAddFTFace(withFace, FC_FT_FACE, FT_Face(bitPattern: 8)), 0)
        XCTAssertNil(FaceMemo.encodePattern(withFace))
    }

    func assertRoundTrip(_ patterns: [OpaquePointer], _ what: String) throws {
        let encoded = try patterns.map { try XCTUnwrap(FaceMemo.encodePattern($0), what) }
        let file = FaceMemo.file(encoded, identity: "test \(what)")
        let decoded = try XCTUnwrap(FaceMemo.decode(file, identity: "test \(what)"), what)
        defer { for pattern in decoded { FcPatternDestroy(pattern) } }
        XCTAssertEqual(decoded.count, patterns.count, what)
        for (i, (original, back)) in zip(patterns, decoded).enumerated() {
            XCTAssertNotEqual(FcPatternEqual(original, back), 0, "\(what) face \(i): \(FontSetUpTests.describe(back))")
            XCTAssertEqual(FaceMemo.encodePattern(back), encoded[i], "\(what) face \(i)")
        }
    }

    /// A memo cut short anywhere, with a byte changed, of another file, or whole but with a
    /// body that is not patterns, is none (and nothing crashes).
    func testATornTamperedOrForeignMemoIsNone() throws {
        let pattern = try XCTUnwrap(FcPatternCreate())
        defer { FcPatternDestroy(pattern) }
        XCTAssertNotEqual(FcPatternAddString(pattern, FC_FAMILY, "Inter"), 0)
        XCTAssertNotEqual(FcPatternAddString(pattern, FC_STYLE, "Regular"), 0)
        let face = try XCTUnwrap(FaceMemo.encodePattern(pattern))
        let file = FaceMemo.file([face, face], identity: "a")
        let whole = try XCTUnwrap(FaceMemo.decode(file, identity: "a"))
        XCTAssertEqual(whole.count, 2)
        for pattern in whole { FcPatternDestroy(pattern) }

        for length in 0..<file.count { XCTAssertNil(FaceMemo.decode(Array(file.prefix(length)), identity: "a")) }
        for at in stride(from: 0, to: file.count, by: 3) {
            var changed = file
            changed[at] ^= 0x20
            XCTAssertNil(FaceMemo.decode(changed, identity: "a"), "byte \(at)")
        }
        XCTAssertNil(FaceMemo.decode(file, identity: "b"))
        // Whole (its hash holds) but not patterns: an absurd count, a kind that is none, a
        // string with a NUL, a charset cut short.
        for body: [UInt8] in [
            [0xff, 0xff, 0xff, 0x7f], [1, 0, 0, 0, 1, 0, 0, 0, 0x61, 1, 0, 0, 0, 99],
            [1, 0, 0, 0, 1, 0, 0, 0, 0x61, 1, 0, 0, 0, 3, 2, 0, 0, 0, 0x61, 0, 1],
            [1, 0, 0, 0, 1, 0, 0, 0, 0x61, 1, 0, 0, 0, 6, 9, 0, 0, 0, 0, 0, 0, 0, 1],
        ] {
            XCTAssertNil(FaceMemo.decode(FaceMemo.file([body], identity: "a"), identity: "a"), "\(body)")
        }
    }

    /// A file's faces come from its memo while the memo's identity holds (a pattern marked in
    /// the memo shows it was used), and a file read by fontconfig gets a memo that reads back
    /// as what fontconfig read.
    func testAddFilesTakesTheMemoAndWritesOne() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("facememo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let memo = folder.path + "/faces"
        // Copies never opened by this process (it remembers the faces it opened); their change
        // times are now, so the two seconds a file must have settled are waived.
        let source = "/usr/share/fonts/truetype/liberation2/LiberationMono-Regular.ttf"
        var copies: [String] = []
        for name in ["Marked.ttf", "Read.ttf"] {
            let copy = folder.path + "/" + name
            try FileManager.default.copyItem(atPath: source, toPath: copy)
            copies.append(copy)
        }
        func identity(_ path: String) throws -> String {
            FaceMemo.identity(
                path: path, signature: try XCTUnwrap(FileHashMemo.signature(path)), libraries: FaceMemo.libraries()
            )
        }
        // The marked copy's memo: fontconfig's reading with one element more.
        let marked = try Self.fontconfigsReading(copies[0])
        defer { for pattern in marked { FcPatternDestroy(pattern) } }
        XCTAssertNotEqual(FcPatternAddString(marked[0], "layoutsnapmemo", "from the memo"), 0)
        FaceMemo.save([try XCTUnwrap(FaceMemo.encodePattern(marked[0]))], identity: try identity(copies[0]), in: memo)

        // The identity names the library files fontconfig's reading depends on.
        XCTAssertTrue(FaceMemo.libraries().contains("libfontconfig"), FaceMemo.libraries())
        XCTAssertTrue(FaceMemo.libraries().contains("libfreetype"), FaceMemo.libraries())
        let config = try XCTUnwrap(FcConfigCreate())
        defer { FcConfigDestroy(config) }
        try FontSystem.addFiles(
            ["/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"] + copies, to: config, faceMemo: memo, settle: 0)
        let set = try XCTUnwrap(FcConfigGetFonts(config, FcSetApplication))
        XCTAssertEqual(set.pointee.nfont, 3)
        var mark: UnsafeMutablePointer<FcChar8>?
        XCTAssertEqual(FcPatternGetString(set.pointee.fonts[1], "layoutsnapmemo", 0, &mark), FcResultMatch)
        XCTAssertEqual(mark.map { String(cString: $0) }, "from the memo")
        XCTAssertNotEqual(FcPatternGetString(set.pointee.fonts[2], "layoutsnapmemo", 0, &mark), FcResultMatch)
        // The memo's face is not opened at the set-up: it is opened by layoutsnap when cairo
        // first makes a font of it (DeferredFaces.c), once, and given to cairo in the pattern.
        // A face fontconfig read is opened and given at the set-up, as before.
        var face: FT_Face?
        XCTAssertNotEqual(FcPatternGetFTFace(set.pointee.fonts[1], FC_FT_FACE, 0, &face), FcResultMatch)
        XCTAssertNotEqual(layoutsnap_face_is_deferred(set.pointee.fonts[1]), 0)
        XCTAssertEqual(FcPatternGetFTFace(set.pointee.fonts[2], FC_FT_FACE, 0, &face), FcResultMatch)
        XCTAssertEqual(layoutsnap_face_is_deferred(set.pointee.fonts[2]), 0)
        // Pango's calls reach layoutsnap's function (it is exported): a layout in the copy's
        // family opens its face.
        let opened = layoutsnap_deferred_faces_opened()
        let map = try XCTUnwrap(pango_cairo_font_map_new())
        defer { g_object_unref(UnsafeMutableRawPointer(map)) }
        pango_fc_font_map_set_config(layoutsnap_as_fc_font_map(map), config)
        let context = try XCTUnwrap(pango_font_map_create_context(map))
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        let layout = try XCTUnwrap(pango_layout_new(context))
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let description = try XCTUnwrap(pango_font_description_new())
        defer { pango_font_description_free(description) }
        pango_font_description_set_family(description, "Liberation Mono")
        pango_font_description_set_absolute_size(description, 12 * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, description)
        pango_layout_set_text(layout, "layoutsnap", -1)
        XCTAssertNotNil(pango_layout_get_lines_readonly(layout))
        XCTAssertEqual(layoutsnap_deferred_faces_opened() - opened, 1, "opened by Pango's first font of it")
        for _ in 0..<2 {
            let fontFace = cairo_ft_font_face_create_for_pattern(set.pointee.fonts[1])
            defer { cairo_font_face_destroy(fontFace) }
            XCTAssertEqual(cairo_font_face_status(fontFace), CAIRO_STATUS_SUCCESS)
            var size = cairo_matrix_t()
            var identity = cairo_matrix_t()
            cairo_matrix_init_scale(&size, 12, 12)
            cairo_matrix_init_identity(&identity)
            let options = cairo_font_options_create()
            defer { cairo_font_options_destroy(options) }
            let scaled = cairo_scaled_font_create(fontFace, &size, &identity, options)
            defer { cairo_scaled_font_destroy(scaled) }
            let locked = try XCTUnwrap(cairo_ft_scaled_font_lock_face(scaled))
            XCTAssertEqual(String(cString: locked.pointee.family_name), "Liberation Mono")
            cairo_ft_scaled_font_unlock_face(scaled)
        }
        XCTAssertEqual(layoutsnap_deferred_faces_opened() - opened, 1, "and only once")

        // The other copy was read by fontconfig, and its memo now holds that reading.
        let bytes = try XCTUnwrap(
            FileManager.default.contents(atPath: memo + "/" + FaceMemo.fileName(try identity(copies[1]))))
        let remembered = try XCTUnwrap(FaceMemo.decode([UInt8](bytes), identity: try identity(copies[1])))
        defer { for pattern in remembered { FcPatternDestroy(pattern) } }
        let fresh = try Self.fontconfigsReading(copies[1])
        defer { for pattern in fresh { FcPatternDestroy(pattern) } }
        XCTAssertEqual(remembered.count, fresh.count)
        for (a, b) in zip(remembered, fresh) { XCTAssertNotEqual(FcPatternEqual(a, b), 0) }
    }

    /// A face whose file changed after the set-up registered it is not opened from the new
    /// bytes: cairo is given the pattern as it is, and the face is named as failed, which makes
    /// every layout that uses it an error (TextEngine).
    func testAFileChangedAfterTheSetUpIsNotOpenedButNamed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("facememo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let memo = folder.path + "/faces"
        let copy = folder.path + "/Changed.ttf"
        try FileManager.default.copyItem(
            atPath: "/usr/share/fonts/truetype/liberation2/LiberationMono-Regular.ttf", toPath: copy)
        let reading = try Self.fontconfigsReading(copy)
        defer { for pattern in reading { FcPatternDestroy(pattern) } }
        let identity = FaceMemo.identity(
            path: copy, signature: try XCTUnwrap(FileHashMemo.signature(copy)), libraries: FaceMemo.libraries())
        FaceMemo.save(reading.map { FaceMemo.encodePattern($0)! }, identity: identity, in: memo)
        let config = try XCTUnwrap(FcConfigCreate())
        defer { FcConfigDestroy(config) }
        try FontSystem.addFiles(
            ["/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", copy], to: config, faceMemo: memo, settle: 0)
        let pattern = try XCTUnwrap(FcConfigGetFonts(config, FcSetApplication)?.pointee.fonts[1])
        XCTAssertNotEqual(layoutsnap_face_is_deferred(pattern), 0)
        XCTAssertNil(layoutsnap_deferred_face_failed(pattern))

        // Its modification time moved on, as a rewrite in place would move it.
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        XCTAssertEqual(utimensat(AT_FDCWD, copy, &times, 0), 0)
        let (opened, failed) = (layoutsnap_deferred_faces_opened(), layoutsnap_deferred_faces_failed())
        let fontFace = cairo_ft_font_face_create_for_pattern(pattern)
        cairo_font_face_destroy(fontFace)
        XCTAssertEqual(layoutsnap_deferred_faces_opened(), opened, "not opened")
        XCTAssertEqual(layoutsnap_deferred_faces_failed() - failed, 1)
        XCTAssertEqual(layoutsnap_deferred_face_failed(pattern).map { String(cString: $0) }, copy)
    }

    /// fontconfig's reading of every face of `path`, patterns the caller owns.
    static func fontconfigsReading(_ path: String) throws -> [OpaquePointer] {
        let set = try XCTUnwrap(FcFontSetCreate())
        defer { FcFontSetDestroy(set) }
        var count: Int32 = 0
        _ = path.withCString {
            FcFreeTypeQueryAll(UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self), UInt32.max, nil, &count, set)
        }
        return (0..<Int(set.pointee.nfont)).compactMap { set.pointee.fonts[$0].flatMap(FcPatternDuplicate) }
    }

    /// The folder keeps at most its bound, dropping the least recently written.
    func testTheFolderIsTrimmedOldestFirst() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("facetrim-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for i in 0..<12 {
            let path = folder + "/m\(i)"
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data([UInt8(i)])))
            var times = [timespec(tv_sec: 1_000_000 + i, tv_nsec: 0), timespec(tv_sec: 1_000_000 + i, tv_nsec: 0)]
            XCTAssertEqual(utimensat(AT_FDCWD, path, &times, 0), 0)
        }
        FaceMemo.trim(folder, most: 12, keep: 4)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).count, 12, "not past its bound")
        FaceMemo.trim(folder, most: 10, keep: 4)
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: folder)), ["m8", "m9", "m10", "m11"])
    }
}
