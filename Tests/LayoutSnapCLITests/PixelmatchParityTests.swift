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
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: Self.folder.appendingPathComponent("expected.json"))) as? [String: Any])
        let cases = try XCTUnwrap(json["cases"] as? [[String: Any]])
        XCTAssertEqual(cases.count, 48)
        var byBackground: [String: [Int]] = [:]
        for c in cases {
            let a = c["a"] as! String, b = c["b"] as! String, threshold = c["threshold"] as! Double
            let includeAA = c["includeAA"] as! Bool, background = c["background"] as! String, expected = c["differentPixels"] as! Int
            let r = try CLI.run(["diff", Self.folder.appendingPathComponent(a + ".png").path, Self.folder.appendingPathComponent(b + ".png").path,
                                 "--json", "--threshold", String(threshold), "--background", background] + (includeAA ? ["--include-aa"] : []))
            let out = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.output)
            let count = (out["metrics"] as? [String: Any])?["differentPixels"] as? Int ?? 0
            XCTAssertEqual(count, expected, "\(a) vs \(b), threshold \(threshold), includeAA \(includeAA), \(background)")
            byBackground[background, default: []].append(count)
        }
        // The two backgrounds are not the same comparison: pixelmatch 7 and 6 disagree on these.
        XCTAssertNotEqual(byBackground["checkerboard"], byBackground["white"])
    }

    func testTheDiffImageTakesPixelmatchsColoursAndMask() throws {
        let dir = try TempDir()
        let a = Self.folder.appendingPathComponent("t1a.png").path, b = Self.folder.appendingPathComponent("t1b.png").path
        let mask = try CLI.run(["diff", a, b, "--threshold", "0", "--include-aa", "--diff-mask", "--diff-color", "0,255,0", "--out", dir.path("mask.png").path])
        XCTAssertEqual(mask.status, 1, mask.output)
        let m = try PNGDecoder.decode([UInt8](Data(contentsOf: dir.path("mask.png"))))
        let colours = Set(m.pixels)
        XCTAssertTrue(colours.contains(0), "untouched pixels are transparent")
        XCTAssertTrue(colours.contains(0xFF00_FF00), "differing pixels in the colour given")
        XCTAssertEqual(colours.subtracting([0, 0xFF00_FF00]), [], "nothing else in a mask")

        let faded = try CLI.run(["diff", a, b, "--threshold", "0.05", "--alpha", "0", "--aa-color", "#0000ff", "--out", dir.path("faded.png").path])
        XCTAssertEqual(faded.status, 1, faded.output)
        let f = try PNGDecoder.decode([UInt8](Data(contentsOf: dir.path("faded.png"))))
        // Alpha 0: the grey copy of A is white; anti-aliased pixels blue, counted ones red.
        XCTAssertTrue(Set(f.pixels).isSubset(of: [0xFFFF_FFFF, 0xFF00_00FF, 0xFFFF_0000]), "\(Set(f.pixels).map { String($0, radix: 16) })")
        XCTAssertTrue(f.pixels.contains(0xFF00_00FF))
        let bad = try CLI.run(["diff", a, b, "--diff-color", "red"])
        XCTAssertEqual(bad.status, 2, bad.output)
    }

    /// The fast path (no argument-parser) and the parser give the same output and exit code:
    /// `--opt=value` always goes through the parser.
    func testTheFastPathAndTheParserAgree() throws {
        let a = Self.folder.appendingPathComponent("t3a.png").path, b = Self.folder.appendingPathComponent("t3b.png").path
        let pairs: [([String], [String])] = [
            (["diff", a, b, "--threshold", "0.05"], ["diff", a, b, "--threshold=0.05"]),
            (["diff", a, b, "--json", "--background", "white"], ["diff", a, b, "--json", "--background=white"]),
            (["diff", a, a], ["diff", a, a, "--alpha=0.1"]),
            (["diff", a, b, "--threshold", "2"], ["diff", a, b, "--threshold=2"]),
            (["diff", a, "/no/such.png"], ["diff", a, "/no/such.png", "--alpha=0.1"]),
        ]
        for (fast, parsed) in pairs {
            let x = try CLI.run(fast), y = try CLI.run(parsed)
            XCTAssertEqual(x.status, y.status, "\(fast)")
            XCTAssertEqual(x.stdout, y.stdout, "\(fast)")
            XCTAssertEqual(x.stderr, y.stderr, "\(fast)")
        }
        XCTAssertEqual(try CLI.run(["--version"]).stdout, "0.1.0\n")
        XCTAssertEqual(try CLI.run(["diff", a]).status, 2, "one image: the parser's error")
    }
}
