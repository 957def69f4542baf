@testable import LayoutSnapImaging
import LayoutSnapTestSupport
import XCTest

final class HashTests: XCTestCase {
    /// Pins the algorithm: XXH3-64, seed 0 (reference values from libxxhash's C API).
    func testKnownXXH3Values() {
        XCTAssertEqual(PixelHash.ofBytes(UnsafeRawBufferPointer(start: nil, count: 0)), 0x2D06_8005_38D3_94C2)
        XCTAssertEqual(Array("abc".utf8).withUnsafeBytes { PixelHash.ofBytes($0) }, 0x78AF_5F94_892F_3950)
    }

    /// XXH3 with AVX2 gives libxxhash's value at every length from 0 to 1,100 bytes (each of
    /// XXH3's short-input, mid-size, stripe and block paths, and every tail of a stripe), at
    /// several alignments, and over a frame-sized buffer and some odd sizes past it.
    func testAVX2GivesLibxxhashsValue() throws {
        try XCTSkipUnless(PixelHash.avx2, "this CPU has no AVX2")
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: 780 * 1688 * 4 + 77)
        bytes.withUnsafeMutableBytes { out in
            for i in stride(from: 0, to: out.count - 8, by: 8) {
                out.storeBytes(of: generator.next(), toByteOffset: i, as: UInt64.self)
            }
        }
        bytes.withUnsafeBytes { all in
            for offset in [0, 1, 7] {
                for length in 0...1100 {
                    let slice = UnsafeRawBufferPointer(rebasing: all[offset..<offset + length])
                    XCTAssertEqual(
                        PixelHash.ofBytes(slice, vectors: true), PixelHash.ofBytes(slice, vectors: false),
                        "\(length) bytes at \(offset)")
                }
            }
            for length in [1024 * 1024, 1024 * 1024 + 1, 780 * 1688 * 4, 780 * 1688 * 4 + 77] {
                let slice = UnsafeRawBufferPointer(rebasing: all[0..<length])
                XCTAssertEqual(
                    PixelHash.ofBytes(slice, vectors: true), PixelHash.ofBytes(slice, vectors: false), "\(length)")
            }
        }
        XCTAssertEqual(
            PixelHash.ofBytes(UnsafeRawBufferPointer(start: nil, count: 0), vectors: true), 0x2D06_8005_38D3_94C2)
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
