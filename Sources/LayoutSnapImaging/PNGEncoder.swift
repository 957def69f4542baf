import CZlib

/// Writes Cairo ARGB32 frames as PNG, fast and deterministically.
///
/// Output layout, always: signature, `IHDR`, one `IDAT`, `IEND`. No ancillary chunks (no
/// time, gamma, sRGB, text), so the bytes depend only on the pixels (and on the zlib build:
/// Debian 12's zlib 1.2.13; a different zlib may compress differently, which is why golden
/// comparisons should compare decoded pixels or `PixelHash`, not PNG bytes).
///
/// - Colour type 2 (RGB, 8-bit) when every pixel's alpha is 255, else colour type 6 (RGBA,
///   8-bit) with alpha un-premultiplied as `c = (c * 255 + a / 2) / a` (rounded). For a
///   valid premultiplied pixel (each channel ≤ alpha) `PNGDecoder` gives the exact same word
///   back. Invalid input is still encoded: channels above alpha clamp to 255, and a pixel
///   with alpha 0 is written as transparent black.
/// - Filter type 0 (None) on every row, non-interlaced.
/// - zlib level 1, default strategy, 32 KiB window, memLevel 8 — chosen by measurement: see
///   the bench target (`swift run -c release layoutsnap-imaging-bench`) and the package notes.
/// - A single IDAT chunk. The PNG format allows chunks up to 2^31 - 1 bytes; only if the
///   compressed stream were larger than 1 GiB (incompressible images above ~250 megapixels)
///   is it split into 1 GiB IDAT chunks.
public enum PNGEncoder {
    /// Encodes `height` rows of `width` premultiplied ARGB32 pixels; row `y` starts at
    /// `pixels + y * stride` (stride in pixels, not bytes: Cairo's byte stride / 4).
    ///
    /// - Precondition: `width > 0`, `height > 0` (PNG has no empty images), both < 2^31,
    ///   `stride >= width`. Violations are programming errors and trap.
    public static func encode(pixels: UnsafePointer<UInt32>, width: Int, height: Int, stride: Int) -> [UInt8] {
        encode(pixels: pixels, width: width, height: height, stride: stride, options: .default)
    }

    /// Compression settings, exposed only so the benchmark can compare alternatives.
    @_spi(Benchmark)
    public struct Options: Sendable {
        public enum Filter: Sendable, CaseIterable {
            /// Filter 0 on every row (what `encode` does).
            case none
            case sub
            case up
            case paeth
            /// libpng's heuristic: per row, the filter with the least sum of |signed byte|.
            case adaptive
        }

        public var level: Int32
        public var strategy: Int32
        public var memLevel: Int32
        public var filter: Filter

        public init(level: Int32, strategy: Int32 = Z_DEFAULT_STRATEGY, memLevel: Int32 = 8, filter: Filter = .none) {
            self.level = level
            self.strategy = strategy
            self.memLevel = memLevel
            self.filter = filter
        }

        /// What `encode(pixels:width:height:stride:)` uses.
        public static let `default` = Options(level: 1, strategy: Z_DEFAULT_STRATEGY, memLevel: 8, filter: .none)
    }

    @_spi(Benchmark)
    public static func encode(pixels: UnsafePointer<UInt32>, width: Int, height: Int, stride: Int,
                              options: Options) -> [UInt8] {
        precondition(width > 0 && height > 0, "PNGEncoder: PNG cannot encode a \(width) x \(height) image")
        precondition(width <= PNG.maxChunkLength && height <= PNG.maxChunkLength,
                     "PNGEncoder: \(width) x \(height) exceeds PNG's 2^31-1 limit")
        precondition(stride >= width, "PNGEncoder: stride \(stride) < width \(width)")

        let opaque = isOpaque(pixels, width: width, height: height, stride: stride)
        let channels = opaque ? 3 : 4
        let rowBytes = width * channels
        let rawCount = height * (rowBytes + 1)

        // +1: the RGB path stores each pixel as a 4-byte word, so the last pixel of the last
        // row writes one byte past the scanlines (earlier rows spill into the next row's
        // filter byte, which is written afterwards).
        let raw = UnsafeMutablePointer<UInt8>.allocate(capacity: rawCount + 1)
        defer { raw.deallocate() }

        if opaque {
            writeRGBScanlines(pixels, width: width, height: height, stride: stride, into: raw)
        } else {
            writeRGBAScanlines(pixels, width: width, height: height, stride: stride, into: raw)
        }
        if options.filter != .none {
            PNGFilter.apply(options.filter, to: raw, rows: height, rowBytes: rowBytes, bytesPerPixel: channels)
        }

        return deflated(raw, count: rawCount, options: options) { idat, idatCount in
            assemble(width: width, height: height, colorType: opaque ? 2 : 6, idat: idat, idatCount: idatCount)
        }
    }

    // MARK: - Colour conversion

    /// True when every pixel has alpha 255. An AND over each row vectorises; bail out at the
    /// first row that has a non-opaque pixel.
    static func isOpaque(_ pixels: UnsafePointer<UInt32>, width: Int, height: Int, stride: Int) -> Bool {
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
    static func writeRGBScanlines(_ pixels: UnsafePointer<UInt32>, width: Int, height: Int, stride: Int,
                                  into raw: UnsafeMutablePointer<UInt8>) {
        let lineBytes = width * 3 + 1
        for y in 0..<height {
            let src = pixels + y * stride
            let line = raw + y * lineBytes
            line[0] = 0  // filter: None
            let dst = UnsafeMutableRawPointer(line + 1)
            for x in 0..<width {
                // byteSwapped: 0xBBGGRRAA; >> 8: 0x00BBGGRR; little-endian store: R G B 00.
                let word = src[x].byteSwapped >> 8
                dst.storeBytes(of: word.littleEndian, toByteOffset: x * 3, as: UInt32.self)
            }
        }
    }

    /// Frames with any translucency: 0xAARRGGBB premultiplied → bytes R, G, B, A straight.
    static func writeRGBAScanlines(_ pixels: UnsafePointer<UInt32>, width: Int, height: Int, stride: Int,
                                   into raw: UnsafeMutablePointer<UInt8>) {
        let lineBytes = width * 4 + 1
        unpremultiplyTable.withUnsafeBufferPointer { table in
            // Non-nil: the table has 65536 entries.
            let lut = table.baseAddress!
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
                    dst.storeBytes(of: word.littleEndian, toByteOffset: x * 4, as: UInt32.self)
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

    // MARK: - zlib and chunks

    /// Deflates `count` bytes in one `deflate(Z_FINISH)` call into a `deflateBound`-sized
    /// scratch buffer (untouched pages cost nothing) and hands the stream to `body`.
    static func deflated<R>(_ raw: UnsafeMutablePointer<UInt8>, count: Int, options: Options,
                            _ body: (UnsafePointer<UInt8>, Int) -> R) -> R {
        // zlib keeps a back-pointer to the z_stream in its state and checks it on every call,
        // so the stream needs a stable address: heap-allocate it rather than rely on `&local`.
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer { stream.deallocate() }

        let rc = deflateInit2_(stream, options.level, Z_DEFLATED, 15, options.memLevel, options.strategy,
                               zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        // Only Z_MEM_ERROR or a broken zlib install can fail here; neither is recoverable.
        guard rc == Z_OK else { fatalError("PNGEncoder: deflateInit2 failed (\(rc))") }
        defer { deflateEnd(stream) }

        var capacity = Int(deflateBound(stream, UInt(count))) + 64
        var out = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { out.deallocate() }

        var consumed = 0
        var produced = 0
        while true {
            // avail_in/avail_out are 32-bit; inputs above 4 GiB take several calls.
            let inChunk = min(count - consumed, Int(UInt32.max))
            let outChunk = min(capacity - produced, Int(UInt32.max))
            stream.pointee.next_in = raw + consumed
            stream.pointee.avail_in = UInt32(inChunk)
            stream.pointee.next_out = out + produced
            stream.pointee.avail_out = UInt32(outChunk)
            let flush = consumed + inChunk == count ? Z_FINISH : Z_NO_FLUSH
            let status = deflate(stream, flush)
            consumed += inChunk - Int(stream.pointee.avail_in)
            produced += outChunk - Int(stream.pointee.avail_out)
            if status == Z_STREAM_END { break }
            guard status == Z_OK || status == Z_BUF_ERROR else {
                fatalError("PNGEncoder: deflate failed (\(status))")
            }
            if produced == capacity {
                // deflateBound only guarantees a single Z_FINISH call; the multi-call path
                // (> 4 GiB input) may need more room.
                let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
                bigger.update(from: out, count: produced)
                out.deallocate()
                out = bigger
                capacity *= 2
            }
        }
        return body(out, produced)
    }

    static let maxIDATLength = 1 << 30

    static func assemble(width: Int, height: Int, colorType: UInt8,
                         idat: UnsafePointer<UInt8>, idatCount: Int) -> [UInt8] {
        let idatChunks = max(1, (idatCount + maxIDATLength - 1) / maxIDATLength)
        let total = 8 + 25 + idatChunks * 12 + idatCount + 12
        return [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            // Non-nil: total > 0.
            let base = UnsafeMutableRawPointer(buffer.baseAddress!)
            var at = 0

            func chunk(_ type: UInt32, _ data: UnsafeRawPointer?, _ length: Int) {
                PNG.writeBE32(UInt32(length), to: base + at)
                PNG.writeBE32(type, to: base + at + 4)
                if length > 0, let data {
                    (base + at + 8).copyMemory(from: data, byteCount: length)
                }
                let crc = PNG.crc(base + at + 4, 4 + length)
                PNG.writeBE32(crc, to: base + at + 8 + length)
                at += 12 + length
            }

            PNG.signature.withUnsafeBytes { base.copyMemory(from: $0.baseAddress!, byteCount: 8) }
            at = 8

            var ihdr = [UInt8](repeating: 0, count: 13)
            ihdr.withUnsafeMutableBytes { header in
                PNG.writeBE32(UInt32(width), to: header.baseAddress!)
                PNG.writeBE32(UInt32(height), to: header.baseAddress! + 4)
            }
            ihdr[8] = 8          // bit depth
            ihdr[9] = colorType  // 2 = RGB, 6 = RGBA
            // compression 0 (deflate), filter method 0 (adaptive five-filter set), interlace 0.
            ihdr.withUnsafeBytes { chunk(PNG.IHDR, $0.baseAddress, 13) }

            var offset = 0
            repeat {
                let length = min(maxIDATLength, idatCount - offset)
                chunk(PNG.IDAT, idat + offset, length)
                offset += length
            } while offset < idatCount

            chunk(PNG.IEND, nil, 0)
            precondition(at == total, "PNGEncoder: size bookkeeping error")
            initialized = total
        }
    }
}
