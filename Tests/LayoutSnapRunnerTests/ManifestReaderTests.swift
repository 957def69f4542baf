import Foundation
import LayoutSnapCore
import LayoutSnapImaging
@testable import LayoutSnapRunner
import LayoutSnapTestSupport
import XCTest
import LayoutSnapJSON

/// The manifest read frame by frame agrees with the manifest parsed whole, and anything the walk
/// does not expect goes to the whole parse, whose error names the line.
final class ManifestReaderTests: XCTestCase {
    func entry(_ n: UInt64) -> GoldenManifest.Entry {
        GoldenManifest.Entry(pixels: PixelHash.hex(n), file: PixelHash.hex(n &* 31), width: Int(n % 400), height: 7)
    }

    func wholeParse(_ bytes: [UInt8]) throws -> GoldenManifest {
        try GoldenManifest.decode(JSONElement(JSONParser.parse(bytes)))
    }

    /// No manifest where there is none (a missing file, a file where a folder should be); one
    /// that exists but cannot be read is an error naming it and why.
    func testAMissingManifestIsNoneAndAnUnreadableOneSaysWhy() throws {
        let folder = try makeTemporaryFolder("manifest-load").path
        defer { removeTemporaryFolder(URL(fileURLWithPath: folder)) }
        XCTAssertNil(try GoldenManifest.load(path: folder + "/manifest.json"))
        try Data("{}".utf8).write(to: URL(fileURLWithPath: folder + "/file"))
        XCTAssertNil(try GoldenManifest.load(path: folder + "/file/manifest.json"))
        try FileManager.default.createDirectory(atPath: folder + "/dir.json", withIntermediateDirectories: true)
        XCTAssertThrowsError(try GoldenManifest.load(path: folder + "/dir.json")) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("dir.json") && text.contains("cannot be read: Is a directory"), text)
        }
    }

    func testAgreesWithTheWholeParse() throws {
        var manifest = GoldenManifest(
            environment: RenderEnvironment(
                architecture: "x86_64", libraries: ["cairo": "1.16.0"], fonts: ["a.ttf": "00ff"]),
            frames: [:])
        for i in 0..<300 {
            manifest.frames["kind/f-\(i)/01-expand/\(i).png"] = entry(UInt64(i) &* 0x9E37_79B9_7F4A_7C15)
        }
        manifest.frames["é/\"quoted\"\\/x.png"] = GoldenManifest.Entry(
            pixels: GoldenTransaction.unreadablePixels, file: "0123456789abcdef", width: 0, height: 0)
        manifest.previous["kind/f-1/01-expand/1.png"] = .absent
        manifest.previous["kind/f-2/01-expand/2.png"] = .entry(entry(99))
        let bytes = manifest.encoded()
        let read = try XCTUnwrap(ManifestReader.read(bytes))
        XCTAssertEqual(read, try wholeParse(bytes))
        XCTAssertEqual(read, manifest)
        XCTAssertEqual(read.encoded(), bytes)

        // Other spacing, member order and escapes, as another tool might write them.
        let hand = #"""
            {"frames":{"a\u002fb.png":{"size":[1,2],"file":"00000000000000ff","pixels":"ABCDEF0123456789"}},
               "version" : 1 }
            """#
        let handRead = try XCTUnwrap(ManifestReader.read(Array(hand.utf8)))
        XCTAssertEqual(handRead, try wholeParse(Array(hand.utf8)))
        XCTAssertEqual(handRead.frames["a/b.png"]?.pixels, "ABCDEF0123456789", "upper-case hex is kept as written")
        XCTAssertNil(handRead.environment)
    }

    /// Whatever the walk does not expect is left to the whole parse, which explains it.
    func testAnythingUnexpectedFallsBackToTheWholeParse() throws {
        let good =
            #"{"version": 1, "frames": {"a.png": {"pixels": "0000000000000001", "file": "0000000000000002", "size": [1, 1]}}}"#
        XCTAssertNotNil(ManifestReader.read(Array(good.utf8)))
        let bad = [
            // A duplicate key inside an entry.
            good.replacingOccurrences(of: "\"a.png\": {", with: "\"a.png\": {\"pixels\": \"1\", "),
            // A duplicate frame.
            good.replacingOccurrences(
                of: "}}}", with: "}, \"a.png\": {\"pixels\": \"1\", \"file\": \"2\", \"size\": [1, 1]}}}"),
            good.replacingOccurrences(of: "\"version\": 1", with: "\"version\": 2"),
            good.replacingOccurrences(of: "[1, 1]", with: "[1, 1, 1]"),
            good.replacingOccurrences(of: "\"size\"", with: "\"sise\""),
            good + " x",
            String(good.dropLast()),
            good.replacingOccurrences(of: ",", with: ";"),
            good.replacingOccurrences(of: "\"version\": 1, ", with: ""),
            good.replacingOccurrences(of: "{\"version\"", with: "{\"environment\": null, \"version\""),
            good.replacingOccurrences(of: "1, 1]", with: "1, 1e999999]"),
            "[]", "", "{",
        ]
        for text in bad {
            XCTAssertNil(ManifestReader.read(Array(text.utf8)), text)
        }
        // And load says what is wrong, where.
        let folder = try makeTemporaryFolder("manifest-reader").path
        defer { removeTemporaryFolder(folder) }
        try Data(bad[4].utf8).write(to: URL(fileURLWithPath: folder + "/manifest.json"))
        XCTAssertThrowsError(try GoldenManifest.load(path: folder + "/manifest.json")) { error in
            // "sise" for the required "size": the misspelling, where it is.
            XCTAssertTrue(
                "\(error)".contains(
                    "manifest.json:1:95: $.frames[\"a.png\"].sise: unknown field \"sise\"; did you mean \"size\"?"),
                "\(error)")
        }
    }

    /// Entries are read straight from the bytes when they are plain, and parsed otherwise; the
    /// two ways agree on every entry either can read, in any mix.
    func testPlainAndOtherEntriesReadAlike() throws {
        let entries = [
            #""plain": {"pixels": "0000000000000001", "file": "0000000000000002", "size": [1, 2]}"#,
            #""reordered": {"size":[30,40],"file":"00000000000000ff","pixels":"ABCDEF0123456789"}"#,
            #""spaced": { "pixels" : "0000000000000003" , "file" : "x" , "size" : [ 5 , 6 ] }"#,
            #""escaped": {"pixels": "\u0030000000000000004", "file": "0000000000000005", "size": [7, 8]}"#,
            #""unicode": {"pixels": "é", "file": "0000000000000005", "size": [7, 8]}"#,
            #""negative": {"pixels": "0000000000000006", "file": "0000000000000007", "size": [-1, 2]}"#,
            #""zero": {"pixels": "0000000000000006", "file": "0000000000000007", "size": [0, 0]}"#,
            #""previous": {"pixels": "0000000000000008", "file": "0000000000000009", "size": [1, 1], "previous": null}"#,
            #""old": {"pixels": "0000000000000008", "file": "0000000000000009", "size": [1, 1], "previous": {"pixels": "000000000000000a", "file": "000000000000000b", "size": [2, 2]}}"#,
        ]
        let text = #"{"version": 1, "frames": {"# + entries.joined(separator: ", ") + "}}"
        let read = try XCTUnwrap(ManifestReader.read(Array(text.utf8)))
        XCTAssertEqual(read, try wholeParse(Array(text.utf8)))
        XCTAssertEqual(read.frames.count, entries.count)
        XCTAssertEqual(read.frames["spaced"]?.width, 5)
        XCTAssertEqual(read.frames["escaped"]?.pixels, "0000000000000004")
        XCTAssertEqual(read.frames["negative"]?.width, -1)
        XCTAssertEqual(read.previous["previous"], .absent)

        // What neither reads is refused by both: the walk's nil, the whole parse's error.
        for broken in [
            #""a": {"pixels": "1", "file": "2", "size": [01, 2]}"#,
            #""a": {"pixels": "1", "file": "2", "size": [12345678901, 2]}"#,
            #""a": {"pixels": "1", "file": "2", "size": [1, 2], "file": "3"}"#,
            #""a": {"pixels": "1", "file": "2"}"#,
            #""a": {"pixels": "1", "file": "2", "size": [1, 2],}"#,
            "\"a\": {\"pixels\": \"1\u{1}\", \"file\": \"2\", \"size\": [1, 2]}",
        ] {
            let bytes = Array((#"{"version": 1, "frames": {"# + broken + "}}").utf8)
            XCTAssertNil(ManifestReader.read(bytes), broken)
            XCTAssertThrowsError(try wholeParse(bytes), broken)
        }
    }
}
