import CZlib
import Foundation
@testable import LayoutSnapImaging
import LayoutSnapTestSupport
import XCTest

final class RoundTripTests: XCTestCase {
    /// Byte 25 of a PNG is IHDR's colour type (8 signature + 4 length + 4 type + 8 size + 1 depth).
    private func colorType(_ png: [UInt8]) -> UInt8 { png[25] }

    func testOpaqueImagesRoundTripAndAreWrittenAsRGB() throws {
        var rng = SplitMix64(seed: 1)
        for (width, height) in [(1, 1), (7, 3), (64, 33), (301, 17), (2, 500)] {
            let pixels = (0..<(width * height)).map { _ in randomPremultipliedPixel(using: &rng, opaque: true) }
            let image = PixelImage(width: width, height: height, pixels: pixels)
            let png = image.encodePNG()
            XCTAssertEqual(colorType(png), 2, "\(width)x\(height)")
            XCTAssertEqual(png[24], 8, "bit depth")
            let decoded = try PNGDecoder.decode(png)
            XCTAssertEqual(decoded, image, "\(width)x\(height)")
        }
    }

    func testTranslucentImagesRoundTripAndAreWrittenAsRGBA() throws {
        var rng = SplitMix64(seed: 2)
        for (width, height) in [(1, 1), (5, 4), (128, 37), (1000, 3)] {
            let pixels = (0..<(width * height)).map { _ in randomPremultipliedPixel(using: &rng, opaque: false) }
            let image = PixelImage(width: width, height: height, pixels: pixels)
            let png = image.encodePNG()
            XCTAssertEqual(colorType(png), 6, "\(width)x\(height)")
            XCTAssertEqual(try PNGDecoder.decode(png), image, "\(width)x\(height)")
        }
    }

    /// Every valid (alpha, channel) pair: un-premultiply + Cairo premultiply must be lossless.
    func testEveryValidPremultipliedValueRoundTrips() throws {
        var pixels: [UInt32] = []
        for a in UInt32(0)...255 {
            for c in UInt32(0)...a {
                pixels.append(a << 24 | c << 16 | (a - c) << 8 | (c * 7) % (a + 1))
            }
        }
        XCTAssertEqual(pixels.count, 32896)
        let image = PixelImage(width: 257, height: 128, pixels: pixels)
        let png = image.encodePNG()
        XCTAssertEqual(colorType(png), 6)
        let decoded = try PNGDecoder.decode(png)
        for i in pixels.indices where decoded.pixels[i] != pixels[i] {
            XCTFail(String(format: "pixel %d: wrote %08x, read back %08x", i, pixels[i], decoded.pixels[i]))
            break
        }
    }

    /// A single translucent pixel switches the whole file to RGBA, wherever it is.
    func testOneTranslucentPixelInTheLastRowSelectsRGBA() throws {
        var pixels = [UInt32](repeating: 0xFF11_2233, count: 40 * 30)
        pixels[pixels.count - 1] = 0xFE11_2233
        let png = PixelImage(width: 40, height: 30, pixels: pixels).encodePNG()
        XCTAssertEqual(colorType(png), 6)
        XCTAssertEqual(try PNGDecoder.decode(png).pixels, pixels)
    }

    func testStrideIsHonouredAndPaddingIgnored() throws {
        var rng = SplitMix64(seed: 3)
        let width = 13
        let height = 9
        let stride = 16
        for opaque in [true, false] {
            var padded = [UInt32](repeating: 0x1234_5678, count: stride * height)  // junk padding
            var tight: [UInt32] = []
            for y in 0..<height {
                for x in 0..<width {
                    let p = randomPremultipliedPixel(using: &rng, opaque: opaque)
                    padded[y * stride + x] = p
                    tight.append(p)
                }
            }
            let fromPadded = padded.withUnsafeBufferPointer {
                PNGEncoder.encode(pixels: $0.baseAddress!, width: width, height: height, stride: stride)
            }
            let fromTight = PixelImage(width: width, height: height, pixels: tight).encodePNG()
            XCTAssertEqual(fromPadded, fromTight, "opaque: \(opaque)")
            XCTAssertEqual(try PNGDecoder.decode(fromPadded).pixels, tight)
        }
    }

    func testCopyingCairoDataWithByteStride() {
        let width = 3
        let height = 2
        let bytesPerRow = 20
        var bytes = [UInt8](repeating: 0xEE, count: bytesPerRow * height)
        let words: [UInt32] = [0xFF00_0001, 0xFF00_0002, 0x8000_0003, 0xFF00_0004, 0x0000_0000, 0xFFFF_FFFF]
        for (i, word) in words.enumerated() {
            let offset = (i / width) * bytesPerRow + (i % width) * 4
            withUnsafeBytes(of: word) { bytes.replaceSubrange(offset..<(offset + 4), with: $0) }
        }
        let image = bytes.withUnsafeBytes {
            PixelImage(copyingARGB32: $0.baseAddress!, width: width, height: height, bytesPerRow: bytesPerRow)
        }
        XCTAssertEqual(image.pixels, words)
    }

    /// The file is exactly signature, IHDR, one IDAT, IEND; every row uses filter None;
    /// the zlib stream says "fast" compression (FLEVEL 1: libdeflate level 4).
    func testEncoderWritesOnlyCriticalChunksAndFilterNone() throws {
        var rng = SplitMix64(seed: 4)
        for opaque in [true, false] {
            let width = 50
            let height = 20
            let pixels = (0..<(width * height)).map { _ in randomPremultipliedPixel(using: &rng, opaque: opaque) }
            let png = PixelImage(width: width, height: height, pixels: pixels).encodePNG()
            XCTAssertEqual(Array(png.prefix(8)), PNGChunks.signature)
            let chunks = TestPNG.chunks(of: png)
            XCTAssertEqual(chunks.map(\.type), ["IHDR", "IDAT", "IEND"])
            // Our own CRC check, independent of the decoder.
            XCTAssertEqual(TestPNG.assemble(chunks), png)
            let stream = chunks[1].data
            XCTAssertEqual(stream[0], 0x78, "deflate, 32 KiB window")
            XCTAssertEqual(stream[1] >> 6, 1, "FLEVEL should say 'fast' (libdeflate level 4)")
            let rowBytes = 1 + width * (opaque ? 3 : 4)
            let raw = try XCTUnwrap(TestPNG.inflate(stream, expected: rowBytes * height))
            XCTAssertEqual(raw.count, rowBytes * height)
            for y in 0..<height { XCTAssertEqual(raw[y * rowBytes], 0, "filter of row \(y)") }
        }
    }

    func testEncodingIsDeterministic() {
        var rng = SplitMix64(seed: 5)
        let pixels = (0..<(200 * 100)).map { _ in randomPremultipliedPixel(using: &rng, opaque: false) }
        let image = PixelImage(width: 200, height: 100, pixels: pixels)
        XCTAssertEqual(image.encodePNG(), image.encodePNG())
    }

    /// Not-really-premultiplied input must not crash: channels above alpha clamp to 255,
    /// alpha 0 becomes transparent black.
    func testInvalidPremultipliedInputIsClampedNotFatal() throws {
        let pixels: [UInt32] = [0x80FF_FFFF, 0x00FF_0000, 0x8040_2010]
        let decoded = try PNGDecoder.decode(PixelImage(width: 3, height: 1, pixels: pixels).encodePNG())
        XCTAssertEqual(decoded.pixels, [0x8080_8080, 0x0000_0000, 0x8040_2010])
    }

    /// libpng's own checker (Debian's libpng-tools) must find our files clean.
    func testPngfixAcceptsEncoderOutput() throws {
        guard let pngfix = TestTools.find(["/usr/bin/pngfix"]) else {
            throw XCTSkip("pngfix (libpng-tools) not installed")
        }
        var rng = SplitMix64(seed: 6)
        let dir = try makeTemporaryFolder("png")
        defer { removeTemporaryFolder(dir) }
        for opaque in [true, false] {
            let pixels = (0..<(97 * 41)).map { _ in randomPremultipliedPixel(using: &rng, opaque: opaque) }
            let url = dir.appendingPathComponent("img-\(opaque).png")
            try Data(PixelImage(width: 97, height: 41, pixels: pixels).encodePNG()).write(to: url)
            let result = try TestProcess.run(pngfix, ["--quiet", "--errors", "--warnings", url.path])
            XCTAssertEqual(result.status, 0, "pngfix on opaque=\(opaque): \(result.output)")
            XCTAssertEqual(result.output, "", "pngfix on opaque=\(opaque)")
        }
    }
}

/// The fast paths of decoding against their plain definitions.
final class DecoderFastPathTests: XCTestCase {
    /// Paeth on RGBA rows, four channels at once, is the byte-by-byte predictor.
    func testPaethForFourBytesAPixelIsThePlainPredictor() throws {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let width = Int.random(in: 1...300, using: &random)
            let rows = Int.random(in: 2...6, using: &random)
            let rowBytes = width * 4
            var data = (0..<(rows * (rowBytes + 1))).map { _ in UInt8.random(in: 0...255, using: &random) }
            for y in 0..<rows { data[y * (rowBytes + 1)] = y == 0 ? 0 : 4 }
            // The reference: each byte from its reconstructed left, up and upper-left neighbours.
            var expected = data
            for y in 1..<rows {
                let line = y * (rowBytes + 1) + 1
                let prior = line - (rowBytes + 1)
                for i in 0..<rowBytes {
                    let a = i >= 4 ? expected[line + i - 4] : 0
                    let b = expected[prior + i]
                    let c = i >= 4 ? expected[prior + i - 4] : 0
                    expected[line + i] &+= PNGFilter.paeth(a, b, c)
                }
            }
            try data.withUnsafeMutableBufferPointer { buffer in
                try PNGFilter.unfilter(
                    buffer.baseAddress!, rows: rows, rowBytes: rowBytes, bytesPerPixel: 4, firstRow: 0)
            }
            XCTAssertEqual(data, expected, "width \(width)")
        }
    }
}
