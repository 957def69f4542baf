import XCTest
import LayoutSnapImaging
import LayoutSnapTestSupport

/// The GIF writer of `preview --export gif`, read back by the test suite's own GIF reader
/// (written from the spec, apart from the writer).
final class GIFWriterTests: XCTestCase {
    func image(_ width: Int, _ height: Int, _ color: (Int, Int) -> UInt32) -> PixelImage {
        PixelImage(
            width: width, height: height,
            pixels: (0..<width * height).map { color($0 % width, $0 / width) })
    }

    func gif(_ frames: [(PixelImage, Int)]) -> [UInt8] {
        var writer = GIFWriter(width: frames[0].0.width, height: frames[0].0.height)
        for (image, delay) in frames {
            image.pixels.withUnsafeBufferPointer {
                writer.add($0.baseAddress!, stride: image.width, centiseconds: delay)
            }
        }
        return writer.finish()
    }

    /// Frames of at most 256 colours come back exactly; later frames store only the rectangle
    /// that changed (here a 3 x 2 block at (4, 5)), an unchanged frame one pixel; delays and the
    /// loop count are as written.
    func testFewColoursRoundTripExactlyWithChangedRegions() throws {
        let white: UInt32 = 0xFFFF_FFFF
        let first = image(20, 10) { x, y in x < 10 ? white : 0xFF00_7AFF ^ UInt32(y) }
        var second = first
        for y in 5..<7 { for x in 4..<7 { second.pixels[y * 20 + x] = 0xFF11_2233 } }
        let bytes = gif([(first, 5), (second, 7), (second, 100)])
        let r = try GIFReader(bytes)
        XCTAssertEqual(r.width, 20)
        XCTAssertEqual(r.height, 10)
        XCTAssertEqual(r.loops, 0, "loops forever")
        XCTAssertEqual(r.frames.map(\.centiseconds), [5, 7, 100])
        XCTAssertEqual(r.frames.map(\.disposal), [1, 1, 1], "leave in place")
        XCTAssertEqual(
            r.frames.map { [$0.x, $0.y, $0.width, $0.height] }, [[0, 0, 20, 10], [4, 5, 3, 2], [0, 0, 1, 1]])
        XCTAssertEqual(r.images, [first, second, second])
        XCTAssertEqual(gif([(first, 5), (second, 7), (second, 100)]), bytes, "the same frames give the same bytes")
    }

    /// A frame whose 256 colours make the LZW table fill (4096 codes) many times: the clear codes
    /// and 12-bit codes decode back exactly.
    func testTheLZWTableFillsAndClearsExactly() throws {
        var rng = SplitMix64(seed: 7)
        let noisy = image(300, 200) { _, _ in 0xFF00_0000 | UInt32(rng.next() % 256) * 0x01_0101 }
        let r = try GIFReader(gif([(noisy, 4)]))
        XCTAssertEqual(r.frames[0].paletteSize, 256)
        XCTAssertEqual(r.images, [noisy])
        // Two colours: the smallest code size (2 bits) and palette (2 entries... padded to 2^1).
        let two = image(64, 64) { x, y in (x / 8 + y / 8) % 2 == 0 ? 0xFF00_0000 : 0xFFFF_FFFF }
        let t = try GIFReader(gif([(two, 4)]))
        XCTAssertEqual(t.frames[0].paletteSize, 2)
        XCTAssertEqual(t.images, [two])
    }

    /// More than 256 colours (a 64 x 64 gradient of 4096): 256 palette entries from a median cut
    /// of 5-bit cells; every pixel within the cell's and box's spread of its colour, most far
    /// closer, and the same bytes every time.
    func testManyColoursAreQuantisedCloselyAndDeterministically() throws {
        let gradient = image(64, 64) { x, y in 0xFF00_0000 | UInt32(x * 4) << 16 | UInt32(y * 4) << 8 | 0x80 }
        let bytes = gif([(gradient, 4)])
        XCTAssertEqual(bytes, gif([(gradient, 4)]))
        let r = try GIFReader(bytes)
        XCTAssertEqual(r.frames[0].paletteSize, 256)
        var worst = 0
        var total = 0
        for (a, b) in zip(gradient.pixels, r.images[0].pixels) {
            for shift: UInt32 in [16, 8, 0] {
                let d = abs(Int(a >> shift & 0xFF) - Int(b >> shift & 0xFF))
                worst = max(worst, d)
                total += d
            }
        }
        // 4096 colours in 256 boxes: 16 per box, 4 x 4 of a 4-step gradient, so a box spans at most
        // 12 levels a side and its mean is within 8 (rounded) of each member.
        XCTAssertLessThanOrEqual(worst, 8)
        XCTAssertLessThan(Double(total) / Double(3 * gradient.pixels.count), 4)
    }

    /// Translucent pixels are drawn onto white: black at half opacity (premultiplied 0x80000000)
    /// is grey 0x7F; transparent is white.
    func testTranslucentPixelsAreCompositedOntoWhite() throws {
        let frame = PixelImage(width: 3, height: 1, pixels: [0x8000_0000, 0x0000_0000, 0xFF12_3456])
        let r = try GIFReader(gif([(frame, 4)]))
        XCTAssertEqual(r.images[0].pixels, [0xFF7F_7F7F, 0xFFFF_FFFF, 0xFF12_3456])
    }
}
