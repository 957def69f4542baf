import CZlib
import Foundation
import LayoutSnapImaging
import LayoutSnapTestSupport
import XCTest

final class HostileInputTests: XCTestCase {
    /// A small interlaced palette file with several IDATs and an ancillary chunk: many
    /// different chunk boundaries to cut at.
    private func sampleFile() -> [UInt8] {
        var rng = SplitMix64(seed: 20)
        let image = SampleImage.random(width: 11, height: 9, colorType: 3, bitDepth: 4, using: &rng)
        return image.file(
            interlaced: true, filterFor: { UInt8($0 % 5) }, idatSizes: [9, 20],
            extraChunksBeforeIDAT: [PNGChunks.chunk("tEXt", Array("k\0v".utf8))])
    }

    private func encoded(width: Int = 16, height: Int = 16, opaque: Bool = false) -> [UInt8] {
        var rng = SplitMix64(seed: 21)
        let pixels = (0..<(width * height)).map { _ in randomPremultipliedPixel(using: &rng, opaque: opaque) }
        return PixelImage(width: width, height: height, pixels: pixels).encodePNG()
    }

    private func rgbaFile(width: Int, height: Int, stream: [[UInt8]]) -> [UInt8] {
        PNGChunks.signature + TestPNG.ihdr(width: width, height: height, bitDepth: 8, colorType: 6)
            + stream.flatMap { PNGChunks.chunk("IDAT", $0) } + PNGChunks.chunk("IEND", [])
    }

    func testEveryTruncationThrows() {
        for file in [sampleFile(), encoded()] {
            XCTAssertNoThrow(try PNGDecoder.decode(file))
            for length in 0..<file.count {
                let prefix = Array(file.prefix(length))
                guard let error = expectThrows({ try PNGDecoder.decode(prefix) }) else {
                    XCTFail("a \(length)-byte prefix of a \(file.count)-byte file decoded")
                    continue
                }
                switch (length, error) {
                case (0, .empty), (1..<8, .truncated), (8..., .truncated), (8..., .missingChunk("IEND")):
                    break
                default:
                    XCTFail("\(length)-byte prefix: unexpected \(error)")
                }
            }
        }
    }

    func testTruncatedChunkMessage() {
        let file = encoded()
        let idatLength = Int(file[33]) << 24 | Int(file[34]) << 16 | Int(file[35]) << 8 | Int(file[36])
        let cut = Array(file.prefix(33 + 8 + 120))
        let error = expectThrows { try PNGDecoder.decode(cut) }
        XCTAssertEqual(
            error?.description,
            "truncated PNG: chunk IDAT at byte 33 claims \(idatLength) bytes, only 120 remain")
    }

    func testEveryByteFlipThrows() {
        for file in [sampleFile(), encoded(opaque: true)] {
            for offset in 0..<file.count {
                var damaged = file
                damaged[offset] ^= 0xFF
                XCTAssertNotNil(expectThrows { try PNGDecoder.decode(damaged) }, "flipped byte \(offset)")
            }
        }
    }

    func testBadCRCNamesTheChunk() {
        var file = encoded()
        file[20] ^= 0x01  // inside IHDR's data (height)
        XCTAssertEqual(expectThrows { try PNGDecoder.decode(file) }, .badCRC(chunk: "IHDR"))
        XCTAssertEqual(expectThrows { try PNGDecoder.readHeader(file) }, .badCRC(chunk: "IHDR"))
        var idat = encoded()
        idat[45] ^= 0x10
        XCTAssertEqual(expectThrows { try PNGDecoder.decode(idat) }?.description, "bad CRC in chunk IDAT")
    }

    /// Mutations with CRCs recomputed reach IHDR validation, the inflater, the unfilter and
    /// the converter: every outcome must be a thrown PNGError or a correctly sized image.
    func testCRCFixedFuzzNeverCrashes() {
        var rng = SplitMix64(seed: 22)
        let seeds = [sampleFile(), encoded(width: 9, height: 5), encoded(width: 7, height: 3, opaque: true)]
        var decoded = 0
        var failed = 0
        for iteration in 0..<3000 {
            var chunks = TestPNG.chunks(of: seeds[iteration % seeds.count])
            let target = Int(rng.next() % UInt64(chunks.count))
            for _ in 0..<(1 + rng.next() % 3) where !chunks[target].data.isEmpty {
                let i = Int(rng.next() % UInt64(chunks[target].data.count))
                switch rng.next() % 3 {
                case 0: chunks[target].data[i] ^= UInt8(1 << (rng.next() % 8))
                case 1: chunks[target].data[i] = UInt8(truncatingIfNeeded: rng.next())
                default: chunks[target].data.removeSubrange(i...)
                }
            }
            let file = TestPNG.assemble(chunks)
            do throws(PNGError) {
                let image = try PNGDecoder.decode(file, maxPixels: 1 << 20)
                XCTAssertEqual(image.pixels.count, image.width * image.height)
                decoded += 1
            } catch {
                failed += 1
            }
        }
        XCTAssertGreaterThan(failed, 100)
        XCTAssertGreaterThan(decoded, 10)  // e.g. mutations inside tEXt, or of pixel values
    }

    func testHugeDimensionsAreRejectedBeforeAllocation() {
        let file =
            PNGChunks.signature + TestPNG.ihdr(width: 100_000, height: 100_000, bitDepth: 8, colorType: 6)
            + PNGChunks.chunk("IDAT", TestPNG.compress([0, 0, 0])) + PNGChunks.chunk("IEND", [])
        let error = expectThrows { try PNGDecoder.decode(file) }
        XCTAssertEqual(error, .tooLarge(width: 100_000, height: 100_000, limit: 67_108_864))
        XCTAssertEqual(error?.description, "PNG claims 100000 x 100000 pixels, more than the limit of 67108864")
        XCTAssertEqual(try? PNGDecoder.readHeader(file).width, 100_000)

        // The limit is checked right after IHDR: a broken chunk after it is never reached,
        // so nothing (the inflate buffer is allocated at the first IDAT) was allocated.
        var broken = PNGChunks.signature + TestPNG.ihdr(width: 4096, height: 4096, bitDepth: 16, colorType: 6)
        broken += [0, 0, 0, 1] + Array("IDAT".utf8) + [0] + [0, 0, 0, 0]  // bad CRC
        XCTAssertEqual(
            expectThrows { try PNGDecoder.decode(broken, maxPixels: 4096 * 4096 - 1) },
            .tooLarge(width: 4096, height: 4096, limit: 4096 * 4096 - 1))
        XCTAssertEqual(expectThrows { try PNGDecoder.decode(broken) }, .badCRC(chunk: "IDAT"))
    }

    func testInvalidDimensions() {
        for (width, height) in [(0, 10), (10, 0), (Int(UInt32.max), 1), (1 << 31, 1)] {
            let file =
                PNGChunks.signature + TestPNG.ihdr(width: width, height: height, bitDepth: 8, colorType: 2)
                + PNGChunks.chunk("IEND", [])
            guard case .corrupt = expectThrows({ try PNGDecoder.decode(file) }) else {
                XCTFail("\(width) x \(height) accepted or wrong error")
                continue
            }
            XCTAssertNil(try? PNGDecoder.readHeader(file))
        }
    }

    func testInvalidHeaderFields() {
        for (depth, type, compression, filter, interlace) in [
            (8, 5, 0, 0, 0), (4, 2, 0, 0, 0), (16, 3, 0, 0, 0),
            (8, 2, 1, 0, 0), (8, 2, 0, 1, 0), (8, 2, 0, 0, 2),
        ] {
            let data =
                PNGChunks.be32(4) + PNGChunks.be32(4) + [
                    UInt8(depth), UInt8(type), UInt8(compression),
                    UInt8(filter), UInt8(interlace),
                ]
            let file = PNGChunks.signature + PNGChunks.chunk("IHDR", data) + PNGChunks.chunk("IEND", [])
            XCTAssertNotNil(expectThrows { try PNGDecoder.decode(file) }, "\(data)")
        }
    }

    func testDecompressionBomb() {
        // 16 x 16 RGBA needs 16 * (1 + 64) = 1040 bytes; 64 MiB of zeros deflates to ~64 KiB.
        let bomb = TestPNG.compress([UInt8](repeating: 0, count: 64 << 20), level: 9)
        XCTAssertLessThan(bomb.count, 100_000)
        let start = ContinuousClock.now
        XCTAssertEqual(
            expectThrows { try PNGDecoder.decode(rgbaFile(width: 16, height: 16, stream: [bomb])) },
            .tooMuchImageData(expected: 1040))
        // Spread over many IDATs too.
        let pieces = stride(from: 0, to: bomb.count, by: 1000).map { Array(bomb[$0..<min($0 + 1000, bomb.count)]) }
        XCTAssertEqual(
            expectThrows { try PNGDecoder.decode(rgbaFile(width: 16, height: 16, stream: pieces)) },
            .tooMuchImageData(expected: 1040))
        // It stops at the first excess byte instead of inflating 64 MiB.
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(1))
    }

    func testOneByteTooMuchIsRejected() {
        let filtered = [UInt8](repeating: 0, count: 1041)
        XCTAssertEqual(
            expectThrows {
                try PNGDecoder.decode(rgbaFile(width: 16, height: 16, stream: [TestPNG.compress(filtered)]))
            },
            .tooMuchImageData(expected: 1040))
        XCTAssertNoThrow(
            try PNGDecoder.decode(
                rgbaFile(
                    width: 16, height: 16,
                    stream: [TestPNG.compress(Array(filtered.dropLast()))])))
    }

    func testNotEnoughImageData() {
        let half = TestPNG.compress([UInt8](repeating: 0, count: 520))
        XCTAssertEqual(
            expectThrows { try PNGDecoder.decode(rgbaFile(width: 16, height: 16, stream: [half])) },
            .notEnoughImageData(expected: 1040, actual: 520))
    }

    func testUnterminatedZlibStream() {
        // All 1040 bytes, flushed but never finished: no end-of-stream, no Adler-32.
        let stream = TestPNG.compress([UInt8](repeating: 0, count: 1040))
        let file = rgbaFile(width: 16, height: 16, stream: [Array(stream.dropLast(4))])
        guard case .corrupt(let message)? = expectThrows({ try PNGDecoder.decode(file) }) else {
            return XCTFail("accepted a stream without its checksum")
        }
        XCTAssertTrue(message.contains("Adler-32") || message.contains("zlib"), message)
    }

    func testGarbageZlibData() {
        let file = rgbaFile(width: 4, height: 4, stream: [[0x78, 0x9C, 0xFF, 0xFF, 0xFF, 0xFF]])
        guard case .corrupt? = expectThrows({ try PNGDecoder.decode(file) }) else { return XCTFail() }
        let noHeader = rgbaFile(width: 4, height: 4, stream: [[1, 2, 3, 4]])
        guard case .corrupt? = expectThrows({ try PNGDecoder.decode(noHeader) }) else { return XCTFail() }
    }

    func testBadFilterByte() {
        var filtered = [UInt8](repeating: 0, count: 1040)
        filtered[3 * 65] = 5  // row 3's filter byte
        XCTAssertEqual(
            expectThrows {
                try PNGDecoder.decode(rgbaFile(width: 16, height: 16, stream: [TestPNG.compress(filtered)]))
            },
            .badFilter(type: 5, row: 3))
    }

    func testMissingChunks() {
        let ihdr = TestPNG.ihdr(width: 1, height: 1, bitDepth: 8, colorType: 2)
        let idat = PNGChunks.chunk("IDAT", TestPNG.compress([0, 1, 2, 3]))
        let iend = PNGChunks.chunk("IEND", [])
        let sig = PNGChunks.signature
        XCTAssertNoThrow(try PNGDecoder.decode(sig + ihdr + idat + iend))
        XCTAssertEqual(expectThrows { try PNGDecoder.decode(sig + idat + iend) }, .missingChunk("IHDR"))
        XCTAssertEqual(
            expectThrows { try PNGDecoder.decode(sig) },
            .truncated("truncated PNG: the file ends right after the signature"))
        XCTAssertEqual(expectThrows { try PNGDecoder.decode(sig + ihdr + iend) }, .missingChunk("IDAT"))
        XCTAssertEqual(expectThrows { try PNGDecoder.decode(sig + ihdr + idat) }, .missingChunk("IEND"))
        let palette = TestPNG.ihdr(width: 1, height: 1, bitDepth: 8, colorType: 3)
        XCTAssertEqual(expectThrows { try PNGDecoder.decode(sig + palette + idat + iend) }, .missingChunk("PLTE"))
    }

    func testStructuralErrors() {
        let sig = PNGChunks.signature
        let ihdr = TestPNG.ihdr(width: 2, height: 1, bitDepth: 8, colorType: 2)
        let stream = TestPNG.compress([0, 1, 2, 3, 4, 5, 6])
        let iend = PNGChunks.chunk("IEND", [])
        let split =
            PNGChunks.chunk("IDAT", Array(stream.prefix(4))) + PNGChunks.chunk("tEXt", Array("a\0b".utf8))
            + PNGChunks.chunk("IDAT", Array(stream.dropFirst(4)))
        guard case .corrupt? = expectThrows({ try PNGDecoder.decode(sig + ihdr + split + iend) }) else {
            return XCTFail("non-consecutive IDATs accepted")
        }
        let twice = sig + ihdr + ihdr + PNGChunks.chunk("IDAT", stream) + iend
        guard case .corrupt? = expectThrows({ try PNGDecoder.decode(twice) }) else { return XCTFail("two IHDRs") }

        // Palette index beyond the palette.
        let indexed =
            sig + TestPNG.ihdr(width: 2, height: 1, bitDepth: 8, colorType: 3)
            + PNGChunks.chunk("PLTE", [1, 2, 3, 4, 5, 6]) + PNGChunks.chunk("IDAT", TestPNG.compress([0, 1, 2])) + iend
        XCTAssertEqual(
            expectThrows { try PNGDecoder.decode(indexed) },
            .corrupt("palette index 2 out of range: PLTE has 2 entries"))

        // A chunk type that is not four letters.
        let badType = sig + ihdr + [0, 0, 0, 0, 0x49, 0x44, 0x41, 0x00, 0, 0, 0, 0] + iend
        guard case .corrupt? = expectThrows({ try PNGDecoder.decode(badType) }) else { return XCTFail("bad type") }

        // A length above 2^31 - 1.
        let hugeLength = sig + ihdr + [0x80, 0, 0, 0] + Array("IDAT".utf8) + [0, 0, 0, 0]
        guard case .corrupt? = expectThrows({ try PNGDecoder.decode(hugeLength) }) else { return XCTFail("length") }
    }

    func testNotAPNG() {
        XCTAssertEqual(expectThrows { try PNGDecoder.decode([]) }, .empty)
        XCTAssertEqual(expectThrows { try PNGDecoder.readHeader([]) }, .empty)

        let lfs = Array(
            """
            version https://git-lfs.github.com/spec/v1
            oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393
            size 12345

            """.utf8)
        let lfsError = expectThrows { try PNGDecoder.decode(lfs) }
        XCTAssertEqual(lfsError, .gitLFSPointer)
        XCTAssertTrue(lfsError?.description.contains("git lfs pull") ?? false)
        XCTAssertTrue(lfsError?.description.contains("LFS pointer") ?? false)

        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        let jpegError = expectThrows { try PNGDecoder.decode(jpeg) }
        XCTAssertEqual(jpegError, .notPNG(#""\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01""#))
        XCTAssertEqual(
            jpegError?.description,
            #"not a PNG file (starts with "\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01"); looks like a JPEG"#)

        let html = Array("<!DOCTYPE html><html>404</html>".utf8)
        XCTAssertEqual(expectThrows { try PNGDecoder.decode(html) }, .notPNG(#""<!DOCTYPE html><""#))

        XCTAssertEqual(
            expectThrows { try PNGDecoder.decode([0x89, 0x50, 0x4E]) },
            .truncated("truncated PNG: the file is only 3 bytes and ends inside the 8-byte signature"))
        guard case .notPNG? = expectThrows({ try PNGDecoder.decode([0x89, 0x51]) }) else { return XCTFail() }
    }

    func testLineEndingDamageIsDiagnosed() {
        // What a CRLF → LF conversion does to the signature.
        let damaged: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0A, 0x1A, 0x0A] + encoded().dropFirst(8)
        guard case .corrupt(let message)? = expectThrows({ try PNGDecoder.decode(damaged) }) else {
            return XCTFail()
        }
        XCTAssertTrue(message.contains("line-ending"), message)
    }
}
