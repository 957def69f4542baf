import Foundation
import LayoutSnapImaging
import LayoutSnapTestSupport
import XCTest

/// `layoutsnap diff` counts as pixelmatch counts, translucent pixels included: every case of
/// Tests/Pixelmatch/expected.json (pixelmatch 7's checkerboard and 6's white, four thresholds,
/// with and without anti-aliasing), and the diff image drawn with pixelmatch's options.
final class PixelmatchParityTests: XCTestCase {
    static let folder = TestPaths.packageRoot.appendingPathComponent("Tests/Pixelmatch")

    func testEveryCountIsPixelmatchs() throws {
        let json = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: Self.folder.appendingPathComponent("expected.json")))
                as? [String: Any])
        let cases = try XCTUnwrap(json["cases"] as? [[String: Any]])
        XCTAssertEqual(cases.count, 48)
        var byBackground: [String: [Int]] = [:]
        for c in cases {
            let a = c["a"] as! String
            let b = c["b"] as! String
            let threshold = c["threshold"] as! Double
            let includeAA = c["includeAA"] as! Bool
            let background = c["background"] as! String
            let expected = c["differentPixels"] as! Int
            let r = try CLI.run(
                [
                    "diff", Self.folder.appendingPathComponent(a + ".png").path,
                    Self.folder.appendingPathComponent(b + ".png").path,
                    "--json", "--threshold", String(threshold), "--background", background,
                ] + (includeAA ? ["--include-aa"] : []))
            let out = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.output)
            let count = (out["metrics"] as? [String: Any])?["differentPixels"] as? Int ?? 0
            XCTAssertEqual(
                count, expected, "\(a) vs \(b), threshold \(threshold), includeAA \(includeAA), \(background)")
            byBackground[background, default: []].append(count)
        }
        // The two backgrounds are not the same comparison: pixelmatch 7 and 6 disagree on these.
        XCTAssertNotEqual(byBackground["checkerboard"], byBackground["white"])
    }

    func testTheDiffImageTakesPixelmatchsColoursAndMask() throws {
        let dir = try TempDir()
        let a = Self.folder.appendingPathComponent("t1a.png").path
        let b = Self.folder.appendingPathComponent("t1b.png").path
        let mask = try CLI.run([
            "diff", a, b, "--threshold", "0", "--include-aa", "--diff-mask", "--diff-color", "0,255,0", "--out",
            dir.path("mask.png").path,
        ])
        XCTAssertEqual(mask.status, 1, mask.output)
        let m = try PNGDecoder.decode([UInt8](Data(contentsOf: dir.path("mask.png"))))
        let colours = Set(m.pixels)
        XCTAssertTrue(colours.contains(0), "untouched pixels are transparent")
        XCTAssertTrue(colours.contains(0xFF00_FF00), "differing pixels in the colour given")
        XCTAssertEqual(colours.subtracting([0, 0xFF00_FF00]), [], "nothing else in a mask")

        let faded = try CLI.run([
            "diff", a, b, "--threshold", "0.05", "--alpha", "0", "--aa-color", "#0000ff", "--out",
            dir.path("faded.png").path,
        ])
        XCTAssertEqual(faded.status, 1, faded.output)
        let f = try PNGDecoder.decode([UInt8](Data(contentsOf: dir.path("faded.png"))))
        // Alpha 0: the grey copy of A is white; anti-aliased pixels blue, counted ones red.
        XCTAssertTrue(
            Set(f.pixels).isSubset(of: [0xFFFF_FFFF, 0xFF00_00FF, 0xFFFF_0000]),
            "\(Set(f.pixels).map { String($0, radix: 16) })")
        XCTAssertTrue(f.pixels.contains(0xFF00_00FF))
        let bad = try CLI.run(["diff", a, b, "--diff-color", "red"])
        XCTAssertEqual(bad.status, 2, bad.output)
    }

    /// The fast path (no argument-parser) and the parser give the same output and exit code:
    /// `--opt=value` always goes through the parser.
    func testTheFastPathAndTheParserAgree() throws {
        let a = Self.folder.appendingPathComponent("t3a.png").path
        let b = Self.folder.appendingPathComponent("t3b.png").path
        let pairs: [([String], [String])] = [
            (["diff", a, b, "--threshold", "0.05"], ["diff", a, b, "--threshold=0.05"]),
            (["diff", a, b, "--json", "--background", "white"], ["diff", a, b, "--json", "--background=white"]),
            (["diff", a, a], ["diff", a, a, "--alpha=0.1"]),
            (["diff", a, b, "--threshold", "2"], ["diff", a, b, "--threshold=2"]),
            (["diff", a, "/no/such.png"], ["diff", a, "/no/such.png", "--alpha=0.1"]),
        ]
        for (fast, parsed) in pairs {
            let x = try CLI.run(fast)
            let y = try CLI.run(parsed)
            XCTAssertEqual(x.status, y.status, "\(fast)")
            XCTAssertEqual(x.stdout, y.stdout, "\(fast)")
            XCTAssertEqual(x.stderr, y.stderr, "\(fast)")
        }
        XCTAssertEqual(try CLI.run(["--version"]).stdout, "0.1.0\n")
        XCTAssertEqual(try CLI.run(["diff", a]).status, 2, "one image: the parser's error")
    }

    /// pixelmatch's own test suite (test/test.js of pixelmatch 7): its images, its options and
    /// its counts, and the diff image it expects, pixel for pixel. The images are not in this
    /// repository: `python3 Tools/fetch-pixelmatch-fixtures.py` fetches them (.ci/install does).
    func testPixelmatchsOwnTestCases() throws {
        let environment = ProcessInfo.processInfo.environment
        let folder = URL(
            fileURLWithPath: environment["LAYOUTSNAP_PIXELMATCH_FIXTURES"]
                ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(
                    ".cache/layoutsnap/pixelmatch-fixtures"
                ).path)
        guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("8diff.png").path) else {
            let why =
                "pixelmatch's test images are not in \(folder.path): python3 Tools/fetch-pixelmatch-fixtures.py fetches them"
            if TestTools.required { return XCTFail(why) }
            throw XCTSkip(why)
        }
        // (A, B, the diff image pixelmatch expects, its options as diff's flags, its count.)
        let threshold005 = ["--threshold", "0.05"]
        let cases: [(String, String, String, [String], Int)] = [
            ("1a", "1b", "1diff", threshold005, 143),
            ("1a", "1b", "1diffdefaultthreshold", ["--threshold", "0.1"], 106),
            ("1a", "1b", "1diffmask", threshold005 + ["--diff-mask"], 143),
            ("1a", "1a", "1emptydiffmask", ["--threshold", "0", "--diff-mask"], 0),
            (
                "2a", "2b", "2diff",
                threshold005 + ["--alpha", "0.5", "--aa-color", "0,192,0", "--diff-color", "255,0,255"], 12437
            ),
            ("3a", "3b", "3diff", threshold005, 212),
            ("4a", "4b", "4diff", threshold005, 36049),
            ("5a", "5b", "5diff", threshold005, 6),
            ("6a", "6b", "6diff", threshold005, 51),
            ("6a", "6a", "6empty", ["--threshold", "0"], 0),
            ("7a", "7b", "7diff", ["--threshold", "0.1", "--diff-color-alt", "0,255,0"], 2448),
            ("8a", "5b", "8diff", threshold005, 32896),
        ]
        let dir = try TempDir()
        for (a, b, expectedDiff, options, count) in cases {
            let label = "\(a) vs \(b) \(options.joined(separator: " "))"
            let out = dir.path(expectedDiff + ".png")
            let r = try CLI.run(
                [
                    "diff", folder.appendingPathComponent(a + ".png").path,
                    folder.appendingPathComponent(b + ".png").path,
                    "--json", "--out", out.path,
                ] + options)
            XCTAssertEqual(r.status, count == 0 ? 0 : 1, "\(label): \(r.output)")
            let json = try XCTUnwrap(
                JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(label): \(r.output)")
            let given = (json["metrics"] as? [String: Any])?["differentPixels"] as? Int ?? 0
            XCTAssertEqual(given, count, label)
            let drawn = try PNGDecoder.decode([UInt8](Data(contentsOf: out)), straightAlpha: true)
            let expected = try PNGDecoder.decode(
                [UInt8](Data(contentsOf: folder.appendingPathComponent(expectedDiff + ".png"))), straightAlpha: true)
            XCTAssertEqual(drawn.width, expected.width, label)
            XCTAssertEqual(drawn.height, expected.height, label)
            let mismatched = zip(drawn.pixels, expected.pixels).filter { $0 != $1 }.count
            XCTAssertEqual(
                mismatched, 0,
                "\(label): \(mismatched) pixels of the diff image are not pixelmatch's \(expectedDiff).png")
        }
    }
}
