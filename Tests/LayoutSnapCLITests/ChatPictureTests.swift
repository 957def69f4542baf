import Foundation
import LayoutSnapImaging
import LayoutSnapTestSupport
import XCTest

/// A chat message's picture from a file (issue 32's iOS chrome): the file's pixels edge to edge,
/// cut to the bubble's corners with no coloured frame, and a file the result cache keys on.
final class ChatPictureTests: XCTestCase {
    func solid(_ argb: UInt32, width: Int = 40, height: Int = 30) -> Data {
        Data(
            PixelImage(width: width, height: height, pixels: Array(repeating: argb, count: width * height)).encodePNG())
    }

    func testThePictureIsTheFilesPixelsCutToTheBubble() throws {
        let dir = try TempDir()
        try solid(0xFFFF_0000).write(to: dir.path("Fixtures/images/red.png").creatingFolder())
        try dir.write(
            "Fixtures/c.json",
            #"""
            {"kind": "chat", "width": 320, "height": 400, "scale": 1,
             "messages": [{"id": "p", "role": "user", "image": {"path": "images/red.png"}}]}
            """#)
        let record = try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url)
        XCTAssertEqual(record.status, 0, record.output)
        let layout = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.path("Goldens/c/layout.json")))
        let frame = try XCTUnwrap(
            (((layout as? [String: Any])?["states"] as? [[String: Any]])?.first?["frames"] as? [[String: Any]])?.first)
        let bubble = try XCTUnwrap(
            (frame["elements"] as? [[String: Any]])?.first { $0["id"] as? String == "message:p" }?["rect"] as? [Double])
        // A 40 x 30 picture is 4:3: the bubble is 0.75 of the 296 pt list wide, 222 x 166.5.
        XCTAssertEqual(bubble[2], 222, accuracy: 0.01)
        XCTAssertEqual(bubble[3], 166.5, accuracy: 0.01)
        let image = try PNGDecoder.decode([UInt8](Data(contentsOf: dir.path("Goldens/c/initial/000.png"))))
        func at(_ x: Double, _ y: Double) -> UInt32 { image.pixels[Int(y) * image.width + Int(x)] }
        XCTAssertEqual(at(bubble[0] + bubble[2] / 2, bubble[1] + bubble[3] / 2), 0xFFFF_0000, "the file's pixels")
        XCTAssertEqual(at(bubble[0] + 3, bubble[1] + bubble[3] / 2), 0xFFFF_0000, "edge to edge: no frame")
        XCTAssertEqual(at(bubble[0] + 1, bubble[1] + 1), at(1, 1), "the corner is cut to the bubble")

        // The file is an input: new bytes fail the fixture, even with the cache on.
        try solid(0xFF00_00FF).write(to: dir.path("Fixtures/images/red.png"))
        let verify = try CLI.run(["verify", "--no-progress"], in: dir.url)
        XCTAssertEqual(verify.status, 1, verify.output)
        XCTAssertTrue(verify.stdout.contains("0 passed, 1 failed"), verify.output)

        try FileManager.default.removeItem(at: dir.path("Fixtures/images/red.png"))
        let missing = try CLI.run(["verify", "--no-progress"], in: dir.url)
        XCTAssertEqual(missing.status, 2, missing.output)
        XCTAssertTrue(
            missing.output.contains("$.messages[0].image.path: image file not found: images/red.png"), missing.output)

        // A PNG whose header reads but whose pixels do not: found when it is drawn, and named at
        // its own place in the fixture (not a post's `$.image.path`).
        let png = [UInt8](solid(0xFFFF_0000))
        try Data(png.prefix(40)).write(to: dir.path("Fixtures/images/red.png"))
        let truncated = try CLI.run(["verify", "--no-progress", "--no-cache"], in: dir.url)
        XCTAssertEqual(truncated.status, 2, truncated.output)
        XCTAssertTrue(
            truncated.stderr.contains("$.messages[0].image.path: image images/red.png:"), truncated.stderr)
    }
}

extension URL {
    /// The URL, once its folder exists.
    func creatingFolder() throws -> URL {
        try FileManager.default.createDirectory(at: deletingLastPathComponent(), withIntermediateDirectories: true)
        return self
    }
}
