import LayoutSnapImaging
import LayoutSnapTestSupport
import XCTest

/// The APNG writer against the APNG 1.0 spec, through the reader's checks: chunk order, one
/// sequence counter over fcTL and fdAT, regions, delays, and every frame composited back exactly.
final class APNGTests: XCTestCase {
    /// Four 20 x 10 opaque frames: a base, a small change, no change, a whole new colour.
    func frames() -> [[UInt32]] {
        let base = [UInt32](repeating: 0xFF20_4060, count: 200)
        var small = base
        for y in 3..<5 { for x in 7..<12 { small[y * 20 + x] = 0xFFFF_0000 } }
        return [base, small, small, [UInt32](repeating: 0xFF00_FF00, count: 200)]
    }

    func write(_ frames: [[UInt32]], delays: [Double]) -> [UInt8] {
        var writer = APNGWriter(width: 20, height: 10, frameCount: frames.count)
        for (frame, delay) in zip(frames, delays) {
            frame.withUnsafeBufferPointer { writer.add($0.baseAddress!, stride: 20, delay: delay) }
        }
        return writer.finish()
    }

    func testRoundTripStoresOnlyWhatChanged() throws {
        let input = frames()
        let bytes = write(input, delays: [1.0 / 60, 1.0 / 60, 0.5, 1])
        let apng = try APNGReader(bytes)
        XCTAssertEqual(apng.frameCount, 4)
        XCTAssertEqual(apng.loops, 0)
        XCTAssertEqual(apng.images.map(\.pixels), input)
        XCTAssertEqual(apng.frames.map(\.sequence), [0, 1, 3, 5])
        XCTAssertEqual(
            apng.frames.map { [$0.x, $0.y, $0.width, $0.height] },
            [[0, 0, 20, 10], [7, 3, 5, 2], [0, 0, 1, 1], [0, 0, 20, 10]])
        XCTAssertEqual(apng.frames[0].delay, 0.0167, accuracy: 1e-9)
        XCTAssertEqual(apng.frames.map(\.delay).dropFirst(), [0.0167, 0.5, 1])
        // A viewer without APNG support shows frame 0: the default image is a valid PNG.
        XCTAssertEqual(try PNGDecoder.decode(bytes).pixels, input[0])
        // acTL sits between IHDR and the first IDAT.
        let order = chunkTypes(bytes)
        XCTAssertEqual(Array(order.prefix(4)), ["IHDR", "acTL", "fcTL", "IDAT"])
        XCTAssertEqual(order.last, "IEND")
    }

    func testReaderRejectsBrokenSequencesAndRegions() throws {
        let bytes = write(frames(), delays: [0.1, 0.1, 0.1, 0.1])
        // Renumber the second fcTL (sequence 1 → 2), fixing its CRC: a gap in the counter.
        var gap = bytes
        let fctl = PNGChunks.list(gap).filter { $0.type == "fcTL" }[1]
        gap[fctl.dataStart + 3] = 2
        PNGChunks.fixCRC(&gap, fctl)
        XCTAssertThrowsError(try APNGReader(gap)) {
            XCTAssertTrue("\($0)".contains("sequence number 2, expected 1"), "\($0)")
        }
        // A region that leaves the canvas.
        var outside = bytes
        outside[fctl.dataStart + 15] = 18  // x offset 18 with width 5
        PNGChunks.fixCRC(&outside, fctl)
        XCTAssertThrowsError(try APNGReader(outside)) {
            XCTAssertTrue("\($0)".contains("leaves the 20 x 10 canvas"), "\($0)")
        }
        // A flipped byte without a CRC fix.
        var flipped = bytes
        flipped[fctl.dataStart + 10] ^= 0xFF
        XCTAssertThrowsError(try APNGReader(flipped))
        // No acTL: a plain PNG is not an animation.
        XCTAssertThrowsError(try APNGReader(PixelImage(width: 20, height: 10, pixels: frames()[0]).encodePNG())) {
            XCTAssertTrue("\($0)".contains("acTL"), "\($0)")
        }
    }

    func chunkTypes(_ bytes: [UInt8]) -> [String] { PNGChunks.list(bytes).map(\.type) }
}
