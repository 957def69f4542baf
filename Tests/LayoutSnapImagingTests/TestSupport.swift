import CZlib
import Foundation
import LayoutSnapImaging
import LayoutSnapTestSupport

/// An independent, deliberately simple PNG writer for the decoder tests: straight from the
/// PNG spec, sharing no code with the library (only zlib), on `PNGChunks`' chunks.
enum TestPNG {
    static func ihdr(width: Int, height: Int, bitDepth: Int, colorType: Int, interlace: Int = 0) -> [UInt8] {
        PNGChunks.chunk(
            "IHDR",
            PNGChunks.be32(UInt32(width)) + PNGChunks.be32(UInt32(height))
                + [UInt8(bitDepth), UInt8(colorType), 0, 0, UInt8(interlace)])
    }

    static func compress(_ data: [UInt8], level: Int32 = 6) -> [UInt8] {
        var size = compressBound(UInt(data.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let rc = out.withUnsafeMutableBufferPointer { o in
            data.withUnsafeBufferPointer { i in compress2(o.baseAddress, &size, i.baseAddress, UInt(i.count), level) }
        }
        precondition(rc == Z_OK)
        return Array(out.prefix(Int(size)))
    }

    static func inflate(_ data: [UInt8], expected: Int) -> [UInt8]? {
        var size = UInt(expected + 1)
        var out = [UInt8](repeating: 0, count: expected + 1)
        let rc = out.withUnsafeMutableBufferPointer { o in
            data.withUnsafeBufferPointer { i in uncompress(o.baseAddress, &size, i.baseAddress, UInt(i.count)) }
        }
        return rc == Z_OK ? Array(out.prefix(Int(size))) : nil
    }

    /// The PNG spec's filter, written out literally.
    static func filter(_ type: UInt8, row: [UInt8], prior: [UInt8]?, bpp: Int) -> [UInt8] {
        let up = prior ?? [UInt8](repeating: 0, count: row.count)
        var out: [UInt8] = [type]
        for i in row.indices {
            let a = i >= bpp ? Int(row[i - bpp]) : 0
            let b = Int(up[i])
            let c = i >= bpp ? Int(up[i - bpp]) : 0
            let predictor: Int
            switch type {
            case 0: predictor = 0
            case 1: predictor = a
            case 2: predictor = b
            case 3: predictor = (a + b) / 2
            case 4:
                let p = a + b - c
                let pa = abs(p - a)
                let pb = abs(p - b)
                let pc = abs(p - c)
                predictor = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c)
            default: predictor = 0
            }
            out.append(UInt8((Int(row[i]) - predictor) & 0xFF))
        }
        return out
    }

    /// Parsed (type, data) pairs of a well-formed file (test helper, trusts its input).
    static func chunks(of file: [UInt8]) -> [(type: String, data: [UInt8])] {
        PNGChunks.list(file).map { ($0.type, Array(file[$0.dataStart..<$0.crcStart])) }
    }

    static func assemble(_ chunks: [(type: String, data: [UInt8])]) -> [UInt8] {
        PNGChunks.signature + chunks.flatMap { PNGChunks.chunk($0.type, $0.data) }
    }
}

/// A PNG described by its samples, to build files with `TestPNG` and to compute the
/// premultiplied ARGB32 the decoder must return, independently of the library.
struct SampleImage {
    var width: Int
    var height: Int
    var colorType: Int
    var bitDepth: Int
    /// Per pixel, row-major: the channel samples at `bitDepth` (a palette index for type 3).
    var samples: [[Int]]
    var palette: [(Int, Int, Int)] = []
    var paletteAlpha: [Int] = []
    /// tRNS colour key: [grey] for type 0, [r, g, b] for type 2, at `bitDepth`.
    var colorKey: [Int]?

    var channels: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType] ?? 0 }
    var bitsPerPixel: Int { channels * bitDepth }

    static func random(
        width: Int, height: Int, colorType: Int, bitDepth: Int,
        using rng: inout SplitMix64
    ) -> SampleImage {
        var image = SampleImage(width: width, height: height, colorType: colorType, bitDepth: bitDepth, samples: [])
        let maxSample = (1 << bitDepth) - 1
        if colorType == 3 {
            let entries = min(1 << bitDepth, 1 + Int(rng.next() % 255))
            image.palette = (0..<entries).map { _ in
                (Int(rng.next() % 256), Int(rng.next() % 256), Int(rng.next() % 256))
            }
            // Partial tRNS: shorter than the palette, with 0, 255 and in-between values.
            image.paletteAlpha = (0..<(entries + 1) / 2).map { i in [0, 255, Int(rng.next() % 256)][i % 3] }
        }
        let limit = colorType == 3 ? image.palette.count - 1 : maxSample
        image.samples = (0..<(width * height)).map { _ in
            (0..<image.channels).map { _ in
                // Bias towards the extremes so alpha 0/255 and key matches actually occur.
                switch rng.next() % 8 {
                case 0: return 0
                case 1: return limit
                default: return Int(rng.next() % UInt64(limit + 1))
                }
            }
        }
        return image
    }

    /// The premultiplied ARGB32 word the decoder must produce, computed with floating point.
    func expectedPixel(_ s: [Int]) -> UInt32 {
        func to8(_ v: Int) -> Int {
            bitDepth == 16 ? Int((Double(v) * 255 / 65535 + 0.5).rounded(.down)) : v * 255 / ((1 << bitDepth) - 1)
        }
        var r = 0
        var g = 0
        var b = 0
        var a = 255
        switch colorType {
        case 0:
            r = to8(s[0])
            g = r
            b = r
            if colorKey == [s[0]] { a = 0 }
        case 2:
            r = to8(s[0])
            g = to8(s[1])
            b = to8(s[2])
            if colorKey == s { a = 0 }
        case 3:
            (r, g, b) = palette[s[0]]
            a = s[0] < paletteAlpha.count ? paletteAlpha[s[0]] : 255
        case 4:
            r = to8(s[0])
            g = r
            b = r
            a = to8(s[1])
        default:
            r = to8(s[0])
            g = to8(s[1])
            b = to8(s[2])
            a = to8(s[3])
        }
        func premultiply(_ c: Int) -> UInt32 { UInt32((Double(c * a) / 255).rounded()) }
        return UInt32(a) << 24 | premultiply(r) << 16 | premultiply(g) << 8 | premultiply(b)
    }

    var expectedPixels: [UInt32] { samples.map(expectedPixel) }

    /// Packs one scanline's pixels (no filter byte).
    func scanline(_ pixels: [[Int]]) -> [UInt8] {
        var out: [UInt8] = []
        var bitBuffer = 0
        var bitCount = 0
        for pixel in pixels {
            for sample in pixel {
                switch bitDepth {
                case 16: out += [UInt8(sample >> 8), UInt8(sample & 0xFF)]
                case 8: out.append(UInt8(sample))
                default:
                    bitBuffer = bitBuffer << bitDepth | sample
                    bitCount += bitDepth
                    if bitCount == 8 {
                        out.append(UInt8(bitBuffer))
                        bitBuffer = 0
                        bitCount = 0
                    }
                }
            }
        }
        if bitCount > 0 { out.append(UInt8((bitBuffer << (8 - bitCount)) & 0xFF)) }
        return out
    }

    /// The filtered scanlines (the uncompressed IDAT payload). `filterFor(n)` picks the filter
    /// of the n-th scanline in file order. Adam7 per the spec's pass table.
    func filteredData(interlaced: Bool, filterFor: (Int) -> UInt8) -> [UInt8] {
        let passes =
            interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        let bpp = max(1, bitsPerPixel / 8)
        var out: [UInt8] = []
        var lineNumber = 0
        for (x0, y0, dx, dy) in passes {
            let xs = Array(stride(from: x0, to: width, by: dx))
            let ys = Array(stride(from: y0, to: height, by: dy))
            if xs.isEmpty || ys.isEmpty { continue }  // empty passes have no bytes at all
            var prior: [UInt8]?
            for y in ys {
                let line = scanline(xs.map { samples[y * width + $0] })
                out += TestPNG.filter(filterFor(lineNumber), row: line, prior: prior, bpp: bpp)
                prior = line
                lineNumber += 1
            }
        }
        return out
    }

    /// A complete file. `idatSizes` cycles to split the zlib stream over several IDATs.
    func file(
        interlaced: Bool = false, filterFor: (Int) -> UInt8 = { _ in 0 }, idatSizes: [Int] = [],
        extraChunksBeforeIDAT: [[UInt8]] = [], extraChunksAfterIDAT: [[UInt8]] = []
    ) -> [UInt8] {
        var out = PNGChunks.signature
        out += TestPNG.ihdr(
            width: width, height: height, bitDepth: bitDepth, colorType: colorType,
            interlace: interlaced ? 1 : 0)
        if !palette.isEmpty {
            out += PNGChunks.chunk("PLTE", palette.flatMap { [UInt8($0.0), UInt8($0.1), UInt8($0.2)] })
        }
        if colorType == 3 && !paletteAlpha.isEmpty { out += PNGChunks.chunk("tRNS", paletteAlpha.map { UInt8($0) }) }
        if let key = colorKey { out += PNGChunks.chunk("tRNS", key.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }) }
        for extra in extraChunksBeforeIDAT { out += extra }
        let stream = TestPNG.compress(filteredData(interlaced: interlaced, filterFor: filterFor))
        if idatSizes.isEmpty {
            out += PNGChunks.chunk("IDAT", stream)
        } else {
            var at = 0
            var i = 0
            while at < stream.count {
                let n = min(idatSizes[i % idatSizes.count], stream.count - at)
                out += PNGChunks.chunk("IDAT", Array(stream[at..<(at + n)]))
                at += n
                i += 1
            }
        }
        for extra in extraChunksAfterIDAT { out += extra }
        return out + PNGChunks.chunk("IEND", [])
    }
}

/// The PNGError `body` throws, or nil. (Closures infer `throws(any Error)` in Swift 6 without
/// FullTypedThrows, so cast; the decoder's signatures already guarantee the type.)
func expectThrows<T>(_ body: () throws -> T) -> PNGError? {
    do {
        _ = try body()
        return nil
    } catch let error as PNGError {
        return error
    } catch {
        return .unsupported("TEST: not a PNGError: \(error)")
    }
}
