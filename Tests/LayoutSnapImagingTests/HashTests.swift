import LayoutSnapImaging
import LayoutSnapTestSupport
import XCTest

final class HashTests: XCTestCase {
    /// Pins the algorithm: XXH3-64, seed 0 (reference values from libxxhash's C API).
    func testKnownXXH3Values() {
        XCTAssertEqual(PixelHash.ofBytes(UnsafeRawBufferPointer(start: nil, count: 0)), 0x2D06_8005_38D3_94C2)
        XCTAssertEqual(Array("abc".utf8).withUnsafeBytes { PixelHash.ofBytes($0) }, 0x78AF_5F94_892F_3950)
    }

    func testHex() {
        XCTAssertEqual(PixelHash.hex(0), "0000000000000000")
        XCTAssertEqual(PixelHash.hex(1), "0000000000000001")
        XCTAssertEqual(PixelHash.hex(0x2D06_8005_38D3_94C2), "2d06800538d394c2")
        XCTAssertEqual(PixelHash.hex(.max), "ffffffffffffffff")
    }

    /// The pixel hash is over the ARGB32 words as they lie in memory (native byte order).
    func testPixelHashIsOverNativeWords() {
        let words: [UInt32] = [0x8040_2010, 0xFF00_00FF]
        let bytes: [UInt8] = words.flatMap { word in withUnsafeBytes(of: word) { Array($0) } }
        XCTAssertEqual(
            words.withUnsafeBufferPointer { PixelHash.of($0) },
            bytes.withUnsafeBytes { PixelHash.ofBytes($0) })
        if UInt32(1).littleEndian == 1 {
            XCTAssertEqual(bytes, [0x10, 0x20, 0x40, 0x80, 0xFF, 0x00, 0x00, 0xFF])
        }
    }

    func testSamePixelsSameHashOneChangedPixelDifferentHash() throws {
        var rng = SplitMix64(seed: 30)
        let pixels = (0..<(320 * 240)).map { _ in randomPremultipliedPixel(using: &rng, opaque: false) }
        let image = PixelImage(width: 320, height: 240, pixels: pixels)
        let copy = PixelImage(width: 320, height: 240, pixels: Array(pixels))
        XCTAssertEqual(image.hash, copy.hash)
        XCTAssertEqual(image.hash, pixels.withUnsafeBufferPointer { PixelHash.of($0) })
        XCTAssertEqual(image.hashHex, PixelHash.hex(image.hash))

        // Survives a PNG round trip (the hash is of pixels, not of the file).
        XCTAssertEqual(try PNGDecoder.decode(image.encodePNG()).hash, image.hash)

        for index in [0, 12_345, pixels.count - 1] {
            var changed = image
            changed.pixels[index] ^= 0x0000_0001
            XCTAssertNotEqual(changed.hash, image.hash, "pixel \(index)")
        }
    }
}
