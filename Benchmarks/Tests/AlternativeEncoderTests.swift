import LayoutSnapImaging
import LayoutSnapTestSupport
@testable import LayoutSnapBenchmarks
import XCTest

/// The encoder alternatives the benchmark compares with must be correct PNGs of the same pixels.
final class AlternativeEncoderTests: XCTestCase {
    private func frame(opaque: Bool) -> PixelImage {
        var rng = SplitMix64(seed: 40)
        // Flat areas plus noise, tall enough to span several conversion blocks.
        let width = 300
        let height = opaque ? 900 : 300
        var pixels = [UInt32](repeating: opaque ? 0xFFF2_F2F7 : 0x8000_0080, count: width * height)
        for i in stride(from: 0, to: pixels.count, by: 7) {
            pixels[i] = randomPremultipliedPixel(using: &rng, opaque: opaque)
        }
        return PixelImage(width: width, height: height, pixels: pixels)
    }

    /// Block-wise conversion + deflate(Z_NO_FLUSH) must give the same bytes as converting
    /// everything and calling deflate(Z_FINISH) once: the file depends only on the pixels.
    func testBlockSizeDoesNotChangeTheBytes() {
        for opaque in [true, false] {
            let image = frame(opaque: opaque)
            func encoded(blockBytes: Int) -> [UInt8] {
                image.pixels.withUnsafeBufferPointer {
                    AlternativePNGEncoder.encode(
                        pixels: $0.baseAddress!, width: image.width, height: image.height,
                        stride: image.width, options: .init(level: 1, blockBytes: blockBytes))
                }
            }
            let reference = encoded(blockBytes: 0)
            XCTAssertEqual(try PNGDecoder.decode(reference), image)
            for blockBytes in [1, 1000, 64 << 10, 256 << 10, 1 << 30] {
                XCTAssertEqual(encoded(blockBytes: blockBytes), reference, "opaque \(opaque), blockBytes \(blockBytes)")
            }
        }
    }

    /// The filtered variants (used only to compare sizes) must still be correct PNGs.
    func testFilteredVariantsRoundTrip() throws {
        for opaque in [true, false] {
            let image = frame(opaque: opaque)
            for filter in AlternativePNGEncoder.Options.Filter.allCases {
                for (level, strategy) in [(Int32(1), Int32(0)), (6, 0), (1, 3)] {  // 3 = Z_RLE
                    let png = image.pixels.withUnsafeBufferPointer {
                        AlternativePNGEncoder.encode(
                            pixels: $0.baseAddress!, width: image.width, height: image.height,
                            stride: image.width,
                            options: .init(level: level, strategy: strategy, filter: filter))
                    }
                    XCTAssertEqual(try PNGDecoder.decode(png), image, "\(filter) level \(level) strategy \(strategy)")
                }
            }
        }
    }
}
