import LayoutSnapImaging
import LayoutSnapTestSupport
import XCTest

/// Decoding files written by an independent writer (`TestPNG`/`SampleImage`), covering the
/// formats, filters and layouts the encoder never produces.
final class ForeignPNGTests: XCTestCase {
    static let formats: [(colorType: Int, bitDepth: Int)] = [
        (0, 1), (0, 2), (0, 4), (0, 8), (0, 16),
        (2, 8), (2, 16),
        (3, 1), (3, 2), (3, 4), (3, 8),
        (4, 8), (4, 16),
        (6, 8), (6, 16),
    ]

    private func check(
        _ image: SampleImage, _ file: [UInt8], _ label: String,
        line: UInt = #line
    ) {
        do throws(PNGError) {
            let decoded = try PNGDecoder.decode(file)
            XCTAssertEqual(decoded.width, image.width, label, line: line)
            XCTAssertEqual(decoded.height, image.height, label, line: line)
            let expected = image.expectedPixels
            if decoded.pixels != expected {
                let i = zip(decoded.pixels, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1
                XCTFail(
                    "\(label): first mismatch at pixel \(i): got \(String(decoded.pixels[i], radix: 16)), "
                        + "expected \(String(expected[i], radix: 16))", line: line)
            }
        } catch {
            XCTFail("\(label): \(error)", line: line)
        }
    }

    /// Every colour type / bit depth with each of the five filters on every row (so the
    /// first-row cases are covered too), and a per-row mix.
    func testEveryFormatWithEveryFilter() {
        var rng = SplitMix64(seed: 10)
        for format in Self.formats {
            let image = SampleImage.random(
                width: 13, height: 7, colorType: format.colorType,
                bitDepth: format.bitDepth, using: &rng)
            for filter in UInt8(0)...4 {
                check(image, image.file(filterFor: { _ in filter }), "type \(format) filter \(filter)")
            }
            check(image, image.file(filterFor: { UInt8(($0 * 3 + 1) % 5) }), "type \(format) mixed filters")
        }
    }

    /// Widths 1...17 exercise every sub-byte padding case and rows shorter than bpp.
    func testAllSmallWidths() {
        var rng = SplitMix64(seed: 11)
        for format in Self.formats {
            for width in 1...17 {
                let image = SampleImage.random(
                    width: width, height: 3, colorType: format.colorType,
                    bitDepth: format.bitDepth, using: &rng)
                check(image, image.file(filterFor: { UInt8($0 % 5) }), "type \(format) width \(width)")
            }
        }
    }

    /// Non-interlaced images of up to 8 bits a sample decode in the pixels' own buffer, the
    /// filtered rows in its tail: at these sizes rows are converted both straight from that tail and
    /// from a copy (where a row's pixels would overlap its own bytes), one row or many.
    func testLargerImagesDecodeInOneBuffer() {
        var rng = SplitMix64(seed: 14)
        for format in Self.formats where format.bitDepth <= 8 {
            // (1, 9) and (3, 40): RGBA rows are converted straight from the tail only once
            // y >= 4 x width - 1, so only tall, narrow images take that path for them.
            for (width, height) in [(64, 1), (255, 2), (301, 31), (97, 64), (1, 9), (3, 40)] {
                let image = SampleImage.random(
                    width: width, height: height, colorType: format.colorType,
                    bitDepth: format.bitDepth, using: &rng)
                check(image, image.file(filterFor: { UInt8(($0 * 7 + 2) % 5) }), "type \(format) \(width) x \(height)")
            }
        }
    }

    func testAdam7Interlacing() {
        var rng = SplitMix64(seed: 12)
        let sizes = [(1, 1), (2, 1), (1, 5), (3, 3), (5, 9), (8, 8), (9, 17), (33, 20)]
        for format in Self.formats {
            for (width, height) in sizes {
                let image = SampleImage.random(
                    width: width, height: height, colorType: format.colorType,
                    bitDepth: format.bitDepth, using: &rng)
                let file = image.file(interlaced: true, filterFor: { UInt8(($0 + width) % 5) }, idatSizes: [7, 1, 30])
                check(image, file, "Adam7 type \(format) \(width)x\(height)")
            }
        }
    }

    /// 16-bit samples round to 8 bits as pngjs (and so pixelmatch) scales them,
    /// floor(v * 255 / 65535 + 0.5), not by keeping the high byte.
    func testSixteenBitSamplesRoundAsPngjsDoes() throws {
        let samples = [0x0000, 0x0080, 0x0081, 0x00FF, 0x12FF, 0x807F, 0x8080, 0xFEFF, 0xFF7F, 0xFF80, 0xFFFF]
        let pngjs = samples.map { Int((Double($0) * 255 / 65535 + 0.5).rounded(.down)) }
        XCTAssertEqual(pngjs, [0, 0, 1, 1, 19, 128, 128, 254, 255, 255, 255])
        let image = SampleImage(
            width: samples.count, height: 1, colorType: 6, bitDepth: 16,
            samples: samples.map { [$0, $0, $0, 0xFFFF] })
        let straight = try PNGDecoder.decode(image.file(), straightAlpha: true).pixels
        XCTAssertEqual(straight.map { Int($0 & 0xFF) }, pngjs)
        XCTAssertEqual(straight.map { Int($0 >> 24) }, Array(repeating: 255, count: samples.count))
    }

    func testGreyColorKeys() {
        // 16-bit: the key must compare all 16 bits, not the 8 the pixel keeps.
        var image = SampleImage(
            width: 3, height: 1, colorType: 0, bitDepth: 16,
            samples: [[0x1234], [0x1235], [0x12FF]], colorKey: [0x1234])
        check(image, image.file(), "grey16 key")
        XCTAssertEqual(
            try PNGDecoder.decode(image.file()).pixels, [0, 0xFF12_1212, 0xFF13_1313], "0x12FF rounds up to 0x13")

        image = SampleImage(
            width: 4, height: 1, colorType: 0, bitDepth: 2,
            samples: [[0], [1], [2], [3]], colorKey: [2])
        XCTAssertEqual(try PNGDecoder.decode(image.file()).pixels, [0xFF00_0000, 0xFF55_5555, 0, 0xFFFF_FFFF])

        image = SampleImage(
            width: 2, height: 2, colorType: 0, bitDepth: 8,
            samples: [[7], [8], [7], [255]], colorKey: [7])
        check(image, image.file(filterFor: { _ in 4 }), "grey8 key")
    }

    func testRGBColorKeys() {
        var image = SampleImage(
            width: 3, height: 1, colorType: 2, bitDepth: 8,
            samples: [[10, 20, 30], [10, 20, 31], [0, 0, 0]], colorKey: [10, 20, 30])
        XCTAssertEqual(try PNGDecoder.decode(image.file()).pixels, [0, 0xFF0A_141F, 0xFF00_0000])
        image = SampleImage(
            width: 2, height: 1, colorType: 2, bitDepth: 16,
            samples: [[0x0102, 0x0304, 0x0506], [0x0102, 0x0304, 0x0507]],
            colorKey: [0x0102, 0x0304, 0x0506])
        XCTAssertEqual(try PNGDecoder.decode(image.file()).pixels, [0, 0xFF01_0305])
    }

    func testPaletteWithPartialTRNS() throws {
        let image = SampleImage(
            width: 4, height: 1, colorType: 3, bitDepth: 2,
            samples: [[0], [1], [2], [3]],
            palette: [(255, 0, 0), (0, 255, 0), (0, 0, 255), (10, 20, 30)],
            paletteAlpha: [0, 128])
        // Entry 1: green at alpha 128 → premultiplied 0x80; entries 2, 3 opaque (no tRNS entry).
        XCTAssertEqual(
            try PNGDecoder.decode(image.file()).pixels,
            [0x0000_0000, 0x8000_8000, 0xFF00_00FF, 0xFF0A_141E])
    }

    func testSixteenBitRGBARoundsThenPremultiplies() throws {
        let image = SampleImage(
            width: 2, height: 1, colorType: 6, bitDepth: 16,
            samples: [[0xFFFF, 0x80FF, 0x0001, 0xFFFF], [0xFF00, 0xFF00, 0xFF00, 0x80FF]])
        // 0xFF00 rounds to 254 (its high byte is 255), 0x80FF to 128; 254 at alpha 128 is 0x7F.
        XCTAssertEqual(try PNGDecoder.decode(image.file()).pixels, [0xFFFF_8000, 0x807F_7F7F])
    }

    func testOneBitGrey() throws {
        let image = SampleImage(
            width: 10, height: 2, colorType: 0, bitDepth: 1,
            samples: (0..<20).map { [($0 * 7 / 3) & 1] })
        check(image, image.file(filterFor: { _ in 1 }), "grey1")
        let pixels = try PNGDecoder.decode(image.file()).pixels
        XCTAssertEqual(Set(pixels), [0xFF00_0000, 0xFFFF_FFFF])
    }

    func testManyIDATChunksIncludingEmptyOnes() {
        var rng = SplitMix64(seed: 13)
        let image = SampleImage.random(width: 40, height: 30, colorType: 6, bitDepth: 8, using: &rng)
        check(image, image.file(filterFor: { UInt8($0 % 5) }, idatSizes: [1]), "1-byte IDATs")
        check(image, image.file(filterFor: { UInt8($0 % 5) }, idatSizes: [100, 0, 3]), "with empty IDATs")
    }

    func testAncillaryChunksAreIgnored() {
        var rng = SplitMix64(seed: 14)
        let image = SampleImage.random(width: 9, height: 9, colorType: 2, bitDepth: 8, using: &rng)
        let before = [
            PNGChunks.chunk("gAMA", PNGChunks.be32(45455)),
            PNGChunks.chunk("sRGB", [0]),
            PNGChunks.chunk("iCCP", Array("junk\0\0garbage".utf8)),
            PNGChunks.chunk("tEXt", Array("Software\0test".utf8)),
            PNGChunks.chunk("zzZz", [1, 2, 3]),
            PNGChunks.chunk("PLTE", [1, 2, 3]),
        ]  // suggested palette for RGB: ignored
        let after = [PNGChunks.chunk("tIME", [7, 0xE8, 1, 1, 0, 0, 0]), PNGChunks.chunk("zzZz", [])]
        var file = image.file(extraChunksBeforeIDAT: before, extraChunksAfterIDAT: after)
        file += Array("trailing junk after IEND".utf8)
        check(image, file, "ancillary")
    }

    func testUnknownCriticalChunkIsUnsupported() {
        var rng = SplitMix64(seed: 15)
        let image = SampleImage.random(width: 4, height: 4, colorType: 6, bitDepth: 8, using: &rng)
        let file = image.file(extraChunksBeforeIDAT: [PNGChunks.chunk("ABCD", [0])])
        XCTAssertEqual(
            expectThrows { try PNGDecoder.decode(file) }, .unsupported("unknown critical chunk ABCD at byte 33"))
    }

    func testReadHeader() throws {
        var rng = SplitMix64(seed: 16)
        let image = SampleImage.random(width: 31, height: 7, colorType: 3, bitDepth: 4, using: &rng)
        let header = try PNGDecoder.readHeader(image.file(interlaced: true))
        XCTAssertEqual(header.width, 31)
        XCTAssertEqual(header.height, 7)
        // Only signature + IHDR are needed.
        XCTAssertEqual(try PNGDecoder.readHeader(Array(image.file().prefix(33))).width, 31)
    }
}
