import CDeflate
import Foundation
import LayoutSnapSystem

/// Writes Cairo ARGB32 frames as PNG, fast and deterministically.
///
/// Output layout, always: signature, `IHDR`, one `IDAT`, `IEND`. No ancillary chunks (no
/// time, gamma, sRGB, text), so the bytes depend only on the pixels (and on the libdeflate build:
/// Debian 12's libdeflate 1.14; another version may compress differently, which is why golden
/// comparisons should compare decoded pixels or `PixelHash`, not PNG bytes).
///
/// - Colour type 2 (RGB, 8-bit) when every pixel's alpha is 255, else colour type 6 (RGBA,
///   8-bit) with alpha un-premultiplied as `c = (c * 255 + a / 2) / a` (rounded). For a
///   valid premultiplied pixel (each channel ≤ alpha) `PNGDecoder` gives the exact same word
///   back. Invalid input is still encoded: channels above alpha clamp to 255, and a pixel
///   with alpha 0 is written as transparent black.
/// - Filter type 0 (None) on every row, non-interlaced.
/// - Compressed with libdeflate at level 4 in one whole-buffer call. Measured on the bundled
///   fixtures (`layoutsnap-bench`): zlib level 1 (the original specification's suggestion, docs/goldens.md) wrote files 3% larger
///   than Cairo's own `cairo_surface_write_to_png` (zlib 6, adaptive filters, RGBA) and was
///   larger on 123 of 204 frames; libdeflate level 4 writes ~82% of Cairo's size, never larger on
///   any frame, at about zlib level 1's speed (level 6: 79%, ~12% slower). Filters (Up, Sub,
///   Paeth, adaptive) made these text-and-flat-colour frames larger at every level tried.
/// - The zlib and filtered alternatives it was measured against live with the benchmarks
///   (`Benchmarks/LayoutSnapBenchmarks/AlternativePNGEncoder.swift`), not in the product.
/// - A single IDAT chunk. The PNG format allows chunks up to 2^31 - 1 bytes; only if the
///   compressed stream were larger than 1 GiB (incompressible images above ~270 megapixels)
///   is it split into 1 GiB IDAT chunks.
/// - Thread-safe: no shared mutable state, so frames may be encoded concurrently.
public enum PNGEncoder {
    /// `count` bytes of scanlines as one zlib stream (libdeflate, a pooled compressor at
    /// `level`), handed to `use` while the buffer lives.
    static func zlib<R>(_ raw: UnsafePointer<UInt8>, count: Int, level: Int32, _ use: (UnsafeBufferPointer<UInt8>) -> R)
        -> R
    {
        let compressor = CompressorPool.shared.take(level: level)
        defer { CompressorPool.shared.give(compressor, level: level) }
        let bound = libdeflate_zlib_compress_bound(compressor, count)
        let out = UnsafeMutablePointer<UInt8>.allocate(capacity: bound)
        defer { out.deallocate() }
        let n = libdeflate_zlib_compress(compressor, raw, count, out, bound)
        precondition(n > 0, "PNGEncoder: libdeflate output larger than its bound")
        return use(UnsafeBufferPointer(start: out, count: n))
    }

    /// Encodes `height` rows of `width` premultiplied ARGB32 pixels; row `y` starts at
    /// `pixels + y * stride` (stride in pixels, not bytes: Cairo's byte stride / 4).
    ///
    /// - Precondition: `width > 0`, `height > 0` (PNG has no empty images), both < 2^31,
    ///   `stride >= width`. Violations are programming errors and trap.
    public static func encode(pixels: UnsafePointer<UInt32>, width: Int, height: Int, stride: Int) -> [UInt8] {
        checkDimensions(width: width, height: height, stride: stride)
        let opaque = isOpaque(pixels, width: width, height: height, stride: stride)
        let rawCount = height * (width * (opaque ? 3 : 4) + 1)
        // +1: the RGB path's 4-byte stores spill one byte past the last row (see there).
        let raw = UnsafeMutablePointer<UInt8>.allocate(capacity: rawCount + 1)
        defer { raw.deallocate() }
        writeScanlines(pixels, width: width, height: height, stride: stride, opaque: opaque, into: raw)
        return zlib(raw, count: rawCount, level: level) { idat in
            assemble(
                width: width, height: height, colorType: opaque ? 2 : 6, idat: idat.baseAddress!, idatCount: idat.count)
        }
    }

    /// libdeflate's level: measured best for these frames (see above).
    static let level: Int32 = 4

    /// The encoder's preconditions, for every way in.
    package static func checkDimensions(width: Int, height: Int, stride: Int) {
        precondition(width > 0 && height > 0, "PNGEncoder: PNG cannot encode a \(width) x \(height) image")
        precondition(
            width <= PNG.maxChunkLength && height <= PNG.maxChunkLength,
            "PNGEncoder: \(width) x \(height) exceeds PNG's 2^31-1 limit")
        precondition(stride >= width, "PNGEncoder: stride \(stride) < width \(width)")
    }

    /// Rows of RGB (`opaque`) or straight RGBA scanlines, each after a filter byte 0, into `raw`
    /// (room for `height * (width * channels + 1) + 1` bytes).
    package static func writeScanlines(
        _ pixels: UnsafePointer<UInt32>, width: Int, height: Int, stride: Int, opaque: Bool,
        into raw: UnsafeMutablePointer<UInt8>
    ) {
        if opaque {
            writeRGBScanlines(pixels, width: width, height: height, stride: stride, into: raw)
        } else {
            writeRGBAScanlines(pixels, width: width, height: height, stride: stride, into: raw)
        }
    }

    // MARK: - Colour conversion

    /// True when every pixel has alpha 255. An AND over each row vectorises; bail out at the
    /// first row that has a non-opaque pixel.
    package static func isOpaque(_ pixels: UnsafePointer<UInt32>, width: Int, height: Int, stride: Int) -> Bool {
        for y in 0..<height {
            let row = pixels + y * stride
            var all: UInt32 = 0xFFFF_FFFF
            for x in 0..<width { all &= row[x] }
            if all < 0xFF00_0000 { return false }
        }
        return true
    }

    /// Opaque frames: 0xAARRGGBB → bytes R, G, B. Each pixel is stored as one unaligned 4-byte
    /// word (R, G, B, junk) whose junk byte the next store overwrites: one store per pixel
    /// instead of three.
    static func writeRGBScanlines(
        _ pixels: UnsafePointer<UInt32>, width: Int, height: Int, stride: Int,
        into raw: UnsafeMutablePointer<UInt8>
    ) {
        let lineBytes = width * 3 + 1
        for y in 0..<height {
            let src = pixels + y * stride
            let line = raw + y * lineBytes
            line[0] = 0  // filter: None
            let dst = UnsafeMutableRawPointer(line + 1)
            for x in 0..<width {
                // byteSwapped: 0xBBGGRRAA; >> 8: 0x00BBGGRR; little-endian store: R G B 00.
                let word = src[x].byteSwapped >> 8
                dst.storeBytes(of: word.littleEndian, toByteOffset: x &* 3, as: UInt32.self)
            }
        }
    }

    /// Frames with any translucency: 0xAARRGGBB premultiplied → bytes R, G, B, A straight.
    static func writeRGBAScanlines(
        _ pixels: UnsafePointer<UInt32>, width: Int, height: Int, stride: Int,
        into raw: UnsafeMutablePointer<UInt8>
    ) {
        let lineBytes = width * 4 + 1
        unpremultiplyTable.withUnsafeBufferPointer { table in
            // The table has 65536 entries, so its base address is never nil.
            guard let lut = table.baseAddress else { return }
            for y in 0..<height {
                let src = pixels + y * stride
                let line = raw + y * lineBytes
                line[0] = 0  // filter: None
                let dst = UnsafeMutableRawPointer(line + 1)
                for x in 0..<width {
                    let p = src[x]
                    let a = p >> 24
                    let word: UInt32
                    if a == 0xFF {
                        // 0x00BBGGRR | 0xFF000000 → little-endian bytes R G B A.
                        word = (p.byteSwapped >> 8) | 0xFF00_0000
                    } else if a == 0 {
                        word = 0
                    } else {
                        let row = lut + Int(a) << 8
                        let r = UInt32(row[Int((p >> 16) & 0xFF)])
                        let g = UInt32(row[Int((p >> 8) & 0xFF)])
                        let b = UInt32(row[Int(p & 0xFF)])
                        word = a << 24 | b << 16 | g << 8 | r
                    }
                    dst.storeBytes(of: word.littleEndian, toByteOffset: x &* 4, as: UInt32.self)
                }
            }
        }
    }

    /// `[a << 8 | c]` → `min(255, (c * 255 + a / 2) / a)`; row 0 (a = 0) is all zeros.
    /// 64 KiB, so it stays in L2 and replaces three integer divisions per translucent pixel.
    static let unpremultiplyTable: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256 * 256)
        for a in 1..<256 {
            for c in 0..<256 {
                table[a << 8 | c] = UInt8(min(255, (c * 255 + a / 2) / a))
            }
        }
        return table
    }()

    // MARK: - libdeflate and chunks

    /// libdeflate compressors are expensive to set up (hash tables of about a megabyte) and not
    /// thread-safe: each thread borrows one, and they are kept for the life of the process.
    final class CompressorPool: Sendable {
        static let shared = CompressorPool()
        /// Idle compressors by level; each is handed to one thread at a time.
        private let idle = LockedValue<[Int32: [OpaquePointer]]>([:])

        func take(level: Int32) -> OpaquePointer {
            if let c = idle.withLock({ $0[level]?.popLast() }) { return c }
            guard let c = libdeflate_alloc_compressor(level) else {
                fatalError("PNGEncoder: libdeflate_alloc_compressor(\(level)) failed")
            }
            return c
        }

        func give(_ compressor: OpaquePointer, level: Int32) {
            idle.withLock { $0[level, default: []].append(compressor) }
        }
    }

    static let maxIDATLength = 1 << 30

    package static func assemble(
        width: Int, height: Int, colorType: UInt8,
        idat: UnsafePointer<UInt8>, idatCount: Int
    ) -> [UInt8] {
        let idatChunks = max(1, (idatCount + maxIDATLength - 1) / maxIDATLength)
        let total = 8 + 25 + idatChunks * 12 + idatCount + 12
        var out = [UInt8]()
        out.reserveCapacity(total)

        func chunk(_ type: UInt32, _ data: UnsafeRawBufferPointer) { PNG.appendChunk(type, data, to: &out) }

        out.append(contentsOf: PNG.signature)
        var ihdr: [UInt8] = []
        ihdr += PNG.bigEndianBytes(UInt32(width))
        ihdr += PNG.bigEndianBytes(UInt32(height))
        // Bit depth 8; colour type 2 (RGB) or 6 (RGBA); compression 0 (deflate); filter
        // method 0 (the five-filter set); interlace 0 (none).
        ihdr += [8, colorType, 0, 0, 0]
        ihdr.withUnsafeBytes { chunk(PNG.IHDR, $0) }

        var offset = 0
        repeat {
            let length = min(maxIDATLength, idatCount - offset)
            chunk(PNG.IDAT, UnsafeRawBufferPointer(start: idat + offset, count: length))
            offset += length
        } while offset < idatCount

        chunk(PNG.IEND, UnsafeRawBufferPointer(start: nil, count: 0))
        return out
    }
}
