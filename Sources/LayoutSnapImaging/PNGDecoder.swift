import CDeflate
import CZlib
import LayoutSnapSystem

/// Reads PNG files into premultiplied ARGB32 (`PixelImage`), defensively.
///
/// Supported: colour types 0 (grey, 1/2/4/8/16-bit), 2 (RGB 8/16), 3 (palette 1/2/4/8, with
/// tRNS alpha), 4 (grey + alpha 8/16), 6 (RGBA 8/16); tRNS colour keys for types 0 and 2;
/// the five scanline filters; Adam7 interlacing; any number of IDAT chunks. 16-bit samples
/// round to 8 bits, `round(v / 257)` (pngjs's, so pixelmatch's, and libpng's
/// `png_set_scale_16`); colour keys compare the full 16-bit value. Premultiplication is Cairo's: `t = c * a + 0x80; (t + (t >> 8)) >> 8`.
///
/// **No colour management:** gAMA, cHRM, sRGB, iCCP, cICP, sBIT are ignored, as are all other
/// ancillary chunks (text, time, APNG frames…): samples are taken as stored.
///
/// Hostile input: every length is checked against the bytes that remain and every CRC is
/// verified; the pixel count is checked against `maxPixels` before anything is allocated;
/// the IDAT stream is inflated into a buffer of exactly the size the header implies, and a
/// stream that produces more (`tooMuchImageData`) or less (`notEnoughImageData`) is
/// rejected. Every failure is a thrown `PNGError`, never a trap. Lenient only where libpng
/// is too: bytes after the end of the zlib stream, a palette tRNS longer than the palette,
/// a tRNS in colour types 4/6, a suggested PLTE in types 0/2/4/6 and data after IEND are
/// ignored.
public enum PNGDecoder {
    /// 64 Mi pixels: 256 MiB of ARGB32, well above any device frame.
    public static let defaultMaxPixels = 64 * 1024 * 1024

    /// Width and height from the signature and IHDR alone (IHDR's CRC is verified; no
    /// pixel limit is applied).
    public static func readHeader(_ bytes: [UInt8]) throws(PNGError) -> (width: Int, height: Int) {
        try withRawBytes(bytes) { (raw) throws(PNGError) in try readHeader(raw) }
    }

    public static func readHeader(_ bytes: UnsafeRawBufferPointer) throws(PNGError) -> (width: Int, height: Int) {
        try checkSignature(bytes)
        var reader = ChunkReader(bytes: bytes)
        let header = try readIHDR(&reader)
        return (header.width, header.height)
    }

    /// `straightAlpha`: the pixels as the file holds them, not premultiplied (`layoutsnap diff`
    /// compares any two PNGs as pixelmatch does); the image's words are then 0xAARRGGBB straight.
    public static func decode(_ bytes: [UInt8], maxPixels: Int = defaultMaxPixels, straightAlpha: Bool = false)
        throws(PNGError) -> PixelImage
    {
        try withRawBytes(bytes) { (raw) throws(PNGError) in
            try decode(raw, maxPixels: maxPixels, straightAlpha: straightAlpha)
        }
    }

    public static func decode(
        _ bytes: UnsafeRawBufferPointer, maxPixels: Int = defaultMaxPixels,
        straightAlpha: Bool = false
    ) throws(PNGError) -> PixelImage {
        try checkSignature(bytes)
        var reader = ChunkReader(bytes: bytes)
        let header = try readIHDR(&reader)

        // Before any allocation: the pixel limit.
        let (pixelCount, overflow) = header.width.multipliedReportingOverflow(by: header.height)
        if overflow || pixelCount > maxPixels {
            throw .tooLarge(width: header.width, height: header.height, limit: maxPixels)
        }
        let layout = try Layout(header)

        var palette: [UInt8] = []  // r, g, b triples
        var paletteAlpha: [UInt8] = []  // tRNS for colour type 3
        var colorKey: (UInt16, UInt16, UInt16)?  // tRNS for colour types 0 (grey in .0) and 2
        var sawTRNS = false
        var sawIDAT = false
        var idatRunEnded = false
        // The IDAT data, inflated in one call once every chunk has been read (see Inflater.whole).
        var idat: [UnsafeRawBufferPointer] = []

        chunks: while true {
            guard let chunk = try reader.next() else { throw .missingChunk("IEND") }
            if chunk.type == PNG.IDAT {
                if idatRunEnded {
                    throw .corrupt(
                        "IDAT chunk at byte \(chunk.offset) after other chunks: IDAT chunks must be consecutive")
                }
                if !sawIDAT {
                    if header.colorType == 3 && palette.isEmpty { throw .missingChunk("PLTE") }
                    sawIDAT = true
                }
                idat.append(chunk.data)
                continue
            }
            if sawIDAT { idatRunEnded = true }

            switch chunk.type {
            case PNG.IEND:
                break chunks
            case PNG.IHDR:
                throw .corrupt("second IHDR chunk at byte \(chunk.offset)")
            case PNG.PLTE:
                guard header.colorType == 3 else { continue }  // only a suggestion for other types
                if sawIDAT { throw .corrupt("PLTE chunk after IDAT") }
                if !palette.isEmpty { throw .corrupt("duplicate PLTE chunk") }
                let count = chunk.data.count
                guard count > 0, count % 3 == 0, count <= 768 else {
                    throw .corrupt("PLTE chunk has \(count) bytes; it needs 3 per entry, 1 to 256 entries")
                }
                palette = Array(chunk.data)
            case PNG.tRNS:
                if sawIDAT { throw .corrupt("tRNS chunk after IDAT") }
                if sawTRNS { throw .corrupt("duplicate tRNS chunk") }
                sawTRNS = true
                let data = chunk.data
                switch header.colorType {
                case 3:
                    if palette.isEmpty { throw .corrupt("tRNS chunk before PLTE") }
                    paletteAlpha = Array(data.prefix(palette.count / 3))
                case 0:
                    guard data.count == 2 else {
                        throw .corrupt("tRNS for a grey image has \(data.count) bytes, expected 2")
                    }
                    let grey = UInt16(data[0]) << 8 | UInt16(data[1])
                    colorKey = (grey, grey, grey)
                case 2:
                    guard data.count == 6 else {
                        throw .corrupt("tRNS for an RGB image has \(data.count) bytes, expected 6")
                    }
                    colorKey = (
                        UInt16(data[0]) << 8 | UInt16(data[1]),
                        UInt16(data[2]) << 8 | UInt16(data[3]),
                        UInt16(data[4]) << 8 | UInt16(data[5])
                    )
                default:
                    break  // types 4 and 6 already have alpha; libpng ignores such a tRNS too
                }
            default:
                // Bit 5 of the first letter clear (upper case) = critical: we cannot skip it.
                if chunk.typeBytes[0] & 0x20 == 0 {
                    throw .unsupported("unknown critical chunk \(chunk.name) at byte \(chunk.offset)")
                }
            }
        }

        guard sawIDAT else { throw .missingChunk("IDAT") }
        let converter = PixelConverter(
            header: header, palette: palette, paletteAlpha: paletteAlpha, colorKey: colorKey, straight: straightAlpha)
        var maxIndex = 0
        // In the pixels' own buffer only when the compressed bytes can fill the image: a file that
        // claims a large image with a few bytes reserves nothing image-sized before it fails.
        let compressed = idat.reduce(0) { $0 + $1.count }
        let pixels =
            !header.interlaced && header.bitDepth <= 8 && canFill(layout.totalBytes, compressed: compressed)
            ? try decodeInPlace(idat, header: header, layout: layout, converter: converter, maxIndex: &maxIndex)
            : try decodeThroughRawBuffer(
                idat, header: header, layout: layout, converter: converter, maxIndex: &maxIndex)
        if header.colorType == 3 && maxIndex >= palette.count / 3 {
            throw .corrupt("palette index \(maxIndex) out of range: PLTE has \(palette.count / 3) entries")
        }
        return PixelImage(width: header.width, height: header.height, pixels: pixels)
    }

    // MARK: - From IDAT to pixels

    /// Inflates the IDAT chunks' data into `inflater`: libdeflate over the whole stream at once,
    /// several times faster than zlib; anything it does not accept is streamed through zlib again,
    /// which says exactly what is wrong.
    private static func inflate(_ idat: [UnsafeRawBufferPointer], into inflater: Inflater) throws(PNGError) {
        if !inflater.inflateWhole(idat) {
            for data in idat { try inflater.feed(data) }
        }
        try inflater.finish()
    }

    /// Deflate expands at most 1032 to 1: compressed bytes this many can fill `capacity`, so
    /// faulting the buffer in at once is no gift to a bomb that claims a large image with a few bytes.
    static func canFill(_ capacity: Int, compressed: Int) -> Bool {
        compressed > Int.max / 1032 || compressed * 1032 >= capacity
    }

    /// Non-interlaced images of up to 8 bits a sample, nearly every PNG: one buffer, the pixels'.
    /// The filtered rows are inflated into its tail, then each row is unfiltered and, one row
    /// behind (its successor needs it unfiltered as the row above), converted into pixels at the
    /// head. Pixel row y - 1 ends at byte 4 * width * y, and the filtered row y starts at
    /// `rawOffset + y * lineBytes`, which is never before it (`rawOffset` is the amount by which
    /// the pixels outgrow the filtered data), so a conversion never overwrites a row not yet
    /// converted. A row whose pixels would overlap its own bytes is copied aside first. Half the
    /// fresh memory of inflating into a buffer of its own (an RGB image: 4 bytes a pixel instead
    /// of 7), and each row is converted while it is still in cache.
    ///
    /// The buffer holds bytes before it holds pixels: zlib, libdeflate and the filters write it
    /// through byte pointers, the conversion through word pointers, never both at one address at
    /// once.
    private static func decodeInPlace(
        _ idat: [UnsafeRawBufferPointer], header: Header, layout: Layout,
        converter: PixelConverter, maxIndex: inout Int
    ) throws(PNGError) -> [UInt32] {
        let pass = layout.passes[0]  // the whole image
        let (width, height) = (header.width, header.height)
        let pixelCount = width * height
        let rawBytes = layout.totalBytes
        let lineBytes = pass.rowBytes + 1
        let rawOffset = max(0, pixelCount * 4 - rawBytes)
        let words = (rawOffset + rawBytes + Inflater.slack + 3) / 4
        var failure: PNGError?
        var highest = 0
        let pixels = [UInt32](unsafeUninitializedCapacity: words) { buffer, initialized in
            initialized = 0
            guard let base = buffer.baseAddress else {  // words > 0: never, but never an empty image either
                failure = .corrupt("no memory for a \(width) x \(height) image")
                return
            }
            let bytes = UnsafeMutableRawPointer(base)
            // Huge pages, but no MADV_POPULATE_WRITE here: it holds the address space's lock while it
            // zeroes, so the other image's decoder, allocating, waited for it (measured: two 1 MP
            // decodes ran 0.5 ms slower with it). Page faults on the pixels run side by side.
            SystemCall.adviseHugePages(bytes, byteCount: words * 4)
            let raw = (bytes + rawOffset).assumingMemoryBound(to: UInt8.self)
            (raw + rawBytes).initialize(repeating: 0, count: Inflater.slack)
            let aside = UnsafeMutablePointer<UInt8>.allocate(capacity: pass.rowBytes + Inflater.slack)
            defer { aside.deallocate() }
            (aside + pass.rowBytes).initialize(repeating: 0, count: Inflater.slack)
            func convert(row y: Int) {
                var src = UnsafePointer(raw + y * lineBytes + 1)
                let dst = base + y * width
                if UnsafeRawPointer(dst + width) > UnsafeRawPointer(src) {
                    aside.update(from: src, count: pass.rowBytes)
                    src = UnsafePointer(aside)
                }
                converter.convert(src, count: width, into: dst, step: 1, maxIndex: &highest)
            }
            do throws(PNGError) {
                try inflate(idat, into: Inflater(capacity: rawBytes, output: raw))
                for y in 0..<height {
                    try PNGFilter.unfilterRow(
                        raw + y * lineBytes, prior: y == 0 ? nil : UnsafePointer(raw + (y - 1) * lineBytes + 1),
                        rowBytes: pass.rowBytes, bytesPerPixel: layout.filterBytesPerPixel, row: y)
                    if y > 0 { convert(row: y - 1) }
                }
                convert(row: height - 1)
                initialized = pixelCount
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        maxIndex = highest
        return pixels
    }

    /// Interlaced and 16-bit images, and data too short to fill its image: inflated and unfiltered
    /// in a buffer of their own, then converted pass by pass (Adam7 scatters a pass's pixels over
    /// the image).
    private static func decodeThroughRawBuffer(
        _ idat: [UnsafeRawBufferPointer], header: Header, layout: Layout,
        converter: PixelConverter, maxIndex: inout Int
    ) throws(PNGError) -> [UInt32] {
        let inflater = Inflater(capacity: layout.totalBytes)
        try inflate(idat, into: inflater)
        var row = 0
        for pass in layout.passes {
            try PNGFilter.unfilter(
                inflater.output + pass.offset, rows: pass.height, rowBytes: pass.rowBytes,
                bytesPerPixel: layout.filterBytesPerPixel, firstRow: row)
            row += pass.height
        }
        let width = header.width
        let pixelCount = header.width * header.height
        var highest = 0
        let pixels = [UInt32](unsafeUninitializedCapacity: pixelCount) { buffer, initialized in
            guard let base = buffer.baseAddress else {
                initialized = 0
                return
            }
            // Allocated once the data has inflated: it is written in full, now.
            SystemCall.adviseHugePages(UnsafeMutableRawPointer(base), byteCount: pixelCount * 4)
            SystemCall.populate(UnsafeMutableRawPointer(base), byteCount: pixelCount * 4)
            if header.interlaced {
                // Adam7's passes cover every pixel, but zero first so that a bookkeeping bug
                // could never expose uninitialised memory.
                base.initialize(repeating: 0, count: pixelCount)
            }
            for pass in layout.passes {
                let lineBytes = pass.rowBytes + 1
                for y in 0..<pass.height {
                    let src = UnsafePointer(inflater.output + pass.offset + y * lineBytes + 1)
                    let dst = base + (pass.yStart + y * pass.yStep) * width + pass.xStart
                    converter.convert(src, count: pass.width, into: dst, step: pass.xStep, maxIndex: &highest)
                }
            }
            initialized = pixelCount
        }
        maxIndex = highest
        return pixels
    }

    // MARK: - Signature and chunks

    private static let lfsPrefixes: [[UInt8]] = [
        Array("version https://git-lfs.github.com/spec/".utf8),
        Array("version https://hawser.github.com/spec/".utf8),  // pre-1.0 LFS pointers
    ]

    static func checkSignature(_ bytes: UnsafeRawBufferPointer) throws(PNGError) {
        if bytes.isEmpty { throw .empty }
        for prefix in lfsPrefixes where bytes.starts(with: prefix) { throw .gitLFSPointer }
        let n = min(8, bytes.count)
        if bytes.prefix(n).elementsEqual(PNG.signature.prefix(n)) {
            if n < 8 {
                throw .truncated(
                    "truncated PNG: the file is only \(bytes.count) bytes and ends inside the 8-byte signature")
            }
            return
        }
        if bytes.count >= 4 && bytes.starts(with: PNG.signature.prefix(4)) {
            // "\x89PNG" then something other than "\r\n\x1a\n": the classic damage done by
            // CRLF/LF conversion, which the signature exists to detect.
            let start = PNG.sanitize(UnsafeRawBufferPointer(rebasing: bytes.prefix(8)), quoted: true)
            throw .corrupt(
                "damaged PNG signature \(start): the file was probably altered by a line-ending "
                    + "(CRLF/LF) or text conversion; mark *.png as binary in .gitattributes")
        }
        throw .notPNG(PNG.sanitize(UnsafeRawBufferPointer(rebasing: bytes.prefix(16)), quoted: true))
    }

    struct Header {
        let width: Int
        let height: Int
        let bitDepth: Int
        let colorType: UInt8
        let interlaced: Bool

        var channels: Int {
            switch colorType {
            case 2: return 3
            case 4: return 2
            case 6: return 4
            default: return 1  // 0 grey, 3 palette index
            }
        }
    }

    static func readIHDR(_ reader: inout ChunkReader) throws(PNGError) -> Header {
        guard let chunk = try reader.next() else {
            throw .truncated("truncated PNG: the file ends right after the signature")
        }
        // The spec requires IHDR first; anything else means it is missing.
        guard chunk.type == PNG.IHDR else { throw .missingChunk("IHDR") }
        let d = chunk.data
        guard d.count == 13 else { throw .corrupt("IHDR has \(d.count) bytes, expected 13") }
        let width = Int(PNG.readBE32(d, 0))
        let height = Int(PNG.readBE32(d, 4))
        guard width > 0, height > 0 else { throw .corrupt("IHDR declares a \(width) x \(height) image") }
        guard width <= PNG.maxChunkLength, height <= PNG.maxChunkLength else {
            throw .corrupt("IHDR declares \(width) x \(height), beyond PNG's limit of 2^31-1 per side")
        }
        let bitDepth = Int(d[8])
        let colorType = d[9]
        let allowed: [Int]
        switch colorType {
        case 0: allowed = [1, 2, 4, 8, 16]
        case 3: allowed = [1, 2, 4, 8]
        case 2, 4, 6: allowed = [8, 16]
        default: throw .corrupt("invalid colour type \(colorType)")
        }
        guard allowed.contains(bitDepth) else {
            throw .corrupt("invalid bit depth \(bitDepth) for colour type \(colorType)")
        }
        guard d[10] == 0 else { throw .unsupported("compression method \(d[10])") }
        guard d[11] == 0 else { throw .unsupported("filter method \(d[11])") }
        guard d[12] <= 1 else { throw .unsupported("interlace method \(d[12])") }
        return Header(width: width, height: height, bitDepth: bitDepth, colorType: colorType, interlaced: d[12] == 1)
    }

    // Chunk and ChunkReader are `package` for the APNG reader in Tests/LayoutSnapTestSupport,
    // so that it checks lengths and CRCs as the decoder does.
    package struct Chunk {
        package let type: UInt32
        /// Byte offset of the chunk's length field in the file.
        package let offset: Int
        let typeBytes: UnsafeRawBufferPointer
        package let data: UnsafeRawBufferPointer

        var name: String { PNG.sanitize(typeBytes, quoted: false) }
    }

    /// Walks chunks, checking every length against what remains and every CRC.
    package struct ChunkReader {
        let bytes: UnsafeRawBufferPointer
        var position = 8

        package init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }

        /// The next chunk, or nil exactly at the end of the file.
        package mutating func next() throws(PNGError) -> Chunk? {
            let start = position
            let remaining = bytes.count - start
            if remaining <= 0 { return nil }
            if remaining < 8 {
                throw .truncated("truncated PNG: the file ends \(remaining) bytes into a chunk header at byte \(start)")
            }
            let length = Int(PNG.readBE32(bytes, start))
            let typeBytes = UnsafeRawBufferPointer(rebasing: bytes[(start + 4)..<(start + 8)])
            let name = PNG.sanitize(typeBytes, quoted: false)
            guard typeBytes.allSatisfy(PNG.isLetter) else {
                throw .corrupt("invalid chunk type \"\(name)\" at byte \(start)")
            }
            guard length <= PNG.maxChunkLength else {
                throw .corrupt("chunk \(name) at byte \(start) has an invalid length of \(length) bytes")
            }
            let available = remaining - 8
            if length > available {
                throw .truncated(
                    "truncated PNG: chunk \(name) at byte \(start) claims \(length) bytes, only \(available) remain")
            }
            if length + 4 > available {
                throw .truncated("truncated PNG: chunk \(name) at byte \(start) is missing its CRC")
            }
            let stored = PNG.readBE32(bytes, start + 8 + length)
            guard PNG.crc(UnsafeRawBufferPointer(rebasing: bytes[(start + 4)..<(start + 8 + length)])) == stored else {
                throw .badCRC(chunk: name)
            }
            position = start + 12 + length
            return Chunk(
                type: PNG.readBE32(bytes, start + 4), offset: start, typeBytes: typeBytes,
                data: UnsafeRawBufferPointer(rebasing: bytes[(start + 8)..<(start + 8 + length)]))
        }
    }

    // MARK: - Layout of the filtered data

    struct Pass {
        let xStart, yStart, xStep, yStep: Int
        let width, height: Int  // of this pass's sub-image, both > 0
        let rowBytes: Int  // without the filter byte
        let offset: Int  // of the pass's first filter byte in the inflated data
    }

    struct Layout {
        private(set) var passes: [Pass] = []
        let totalBytes: Int
        /// The "bpp" of the filter definitions: bytes per complete pixel, at least 1.
        let filterBytesPerPixel: Int

        static let adam7: [(x: Int, y: Int, dx: Int, dy: Int)] = [
            (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2),
        ]

        init(_ header: Header) throws(PNGError) {
            let bitsPerPixel = header.channels * header.bitDepth
            filterBytesPerPixel = max(1, bitsPerPixel / 8)
            var offset = 0
            for spec in header.interlaced ? Layout.adam7 : [(0, 0, 1, 1)] {
                // An empty pass (image narrower/shorter than its start) has no bytes at all,
                // not even filter bytes.
                guard header.width > spec.x, header.height > spec.y else { continue }
                let width = (header.width - spec.x + spec.dx - 1) / spec.dx
                let height = (header.height - spec.y + spec.dy - 1) / spec.dy
                // width < 2^31 and bitsPerPixel <= 64: no overflow in 64-bit Int.
                let rowBytes = (width * bitsPerPixel + 7) / 8
                let (size, overflow1) = (rowBytes + 1).multipliedReportingOverflow(by: height)
                let (end, overflow2) = offset.addingReportingOverflow(size)
                if overflow1 || overflow2 {
                    throw .unsupported("\(header.width) x \(header.height) image data does not fit in memory")
                }
                passes.append(
                    Pass(
                        xStart: spec.x, yStart: spec.y, xStep: spec.dx, yStep: spec.dy,
                        width: width, height: height, rowBytes: rowBytes, offset: offset))
                offset = end
            }
            totalBytes = offset
        }
    }

    // MARK: - Helpers

    /// `Array.withUnsafeBytes` is `rethrows`, which would widen `PNGError` to `any Error`;
    /// this keeps the typed throw.
    private static func withRawBytes<R>(
        _ bytes: [UInt8],
        _ body: (UnsafeRawBufferPointer) throws(PNGError) -> R
    ) throws(PNGError) -> R {
        let result: Result<R, PNGError> = bytes.withUnsafeBytes { raw in
            do throws(PNGError) { return .success(try body(raw)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}

// MARK: - Inflate

/// A zlib stream inflating into a buffer of exactly `capacity` bytes (+ slack for unaligned
/// word loads, never written by zlib). Output beyond `capacity` is an error, so memory use
/// is bounded by the header, and pages are touched as data arrives (or all at once, when the
/// compressed bytes are enough to fill them).
final class Inflater {
    static let slack = 8

    let capacity: Int
    let output: UnsafeMutablePointer<UInt8>
    /// The output is this object's to free (not when it inflates into a buffer of the caller's).
    private let ownsOutput: Bool
    private(set) var produced = 0
    private(set) var ended = false

    private let stream: UnsafeMutablePointer<z_stream>
    private let spill: UnsafeMutablePointer<UInt8>
    private var live = false

    /// Inflates into a buffer of its own.
    convenience init(capacity: Int) {
        let output = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity + Inflater.slack)
        // Advice only: no page is touched until data arrives (a header may claim far more than
        // its compressed bytes can hold; see inflateWhole).
        SystemCall.adviseHugePages(UnsafeMutableRawPointer(output), byteCount: capacity)
        (output + capacity).initialize(repeating: 0, count: Inflater.slack)
        self.init(capacity: capacity, output: output, owned: true)
    }

    /// Inflates into the caller's buffer: `capacity` bytes and `slack` more after them, readable
    /// (the caller faults it in, or not, as inflateWhole would).
    convenience init(capacity: Int, output: UnsafeMutablePointer<UInt8>) {
        self.init(capacity: capacity, output: output, owned: false)
    }

    private init(capacity: Int, output: UnsafeMutablePointer<UInt8>, owned: Bool) {
        self.capacity = capacity
        self.output = output
        ownsOutput = owned
        spill = .allocate(capacity: 1)
        // zlib stores a back-pointer to the z_stream and checks it on each call: give it a
        // stable heap address. It is set up only when streaming is needed.
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
    }

    deinit {
        if live { inflateEnd(stream) }
        stream.deallocate()
        spill.deallocate()
        if ownsOutput { output.deallocate() }
    }

    /// Inflates the whole IDAT stream (its chunks' data, in order) with libdeflate: true when
    /// it is a complete zlib stream of exactly `capacity` bytes with a good checksum (bytes after
    /// its end are ignored, as libpng does). False leaves nothing decided: the caller streams it
    /// through zlib, whose errors name the problem.
    func inflateWhole(_ chunks: [UnsafeRawBufferPointer]) -> Bool {
        guard produced == 0, !ended, let decompressor = libdeflate_alloc_decompressor() else { return false }
        defer { libdeflate_free_decompressor(decompressor) }
        // Fault its own output in at once only when the compressed bytes can fill it: a bomb that
        // claims a large image with a few bytes touches nothing. (A caller's buffer is the caller's.)
        let compressed = chunks.reduce(0) { $0 + $1.count }
        if ownsOutput && PNGDecoder.canFill(capacity, compressed: compressed) {
            SystemCall.populate(UnsafeMutableRawPointer(output), byteCount: capacity)
        }
        var actualIn = 0
        var actualOut = 0
        let result: libdeflate_result
        if chunks.count == 1, let base = chunks[0].baseAddress {
            result = libdeflate_zlib_decompress_ex(
                decompressor, base, chunks[0].count, output, capacity, &actualIn, &actualOut)
        } else {
            // Several IDAT chunks: one contiguous copy of the compressed bytes.
            let total = compressed
            let joined = UnsafeMutableRawPointer.allocate(byteCount: max(total, 1), alignment: 16)
            defer { joined.deallocate() }
            var at = 0
            for chunk in chunks where chunk.count > 0 {
                (joined + at).copyMemory(from: chunk.baseAddress!, byteCount: chunk.count)
                at += chunk.count
            }
            result = libdeflate_zlib_decompress_ex(decompressor, joined, total, output, capacity, &actualIn, &actualOut)
        }
        guard result == LIBDEFLATE_SUCCESS, actualOut == capacity else { return false }
        produced = capacity
        ended = true
        return true
    }

    func feed(_ data: UnsafeRawBufferPointer) throws(PNGError) {
        // Bytes after the end of the zlib stream are ignored, as libpng does.
        guard !ended, let base = data.baseAddress, !data.isEmpty else { return }
        if !live {
            let status = inflateInit_(stream, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
            guard status == Z_OK else { throw .corrupt("zlib inflateInit failed (\(status))") }
            live = true
        }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: UInt8.self))
        stream.pointee.avail_in = UInt32(data.count)  // a chunk is at most 2^31 - 1 bytes
        while stream.pointee.avail_in > 0 {
            let status: Int32
            if produced < capacity {
                let room = min(capacity - produced, Int(UInt32.max))
                stream.pointee.next_out = output + produced
                stream.pointee.avail_out = UInt32(room)
                status = inflate(stream, Z_NO_FLUSH)
                produced += room - Int(stream.pointee.avail_out)
            } else {
                // The image is complete; the stream may only end now. One byte of room is
                // enough to tell "end of stream" from "more data".
                stream.pointee.next_out = spill
                stream.pointee.avail_out = 1
                status = inflate(stream, Z_NO_FLUSH)
                if stream.pointee.avail_out == 0 { throw .tooMuchImageData(expected: capacity) }
            }
            switch status {
            case Z_OK:
                continue
            case Z_STREAM_END:
                ended = true
                return
            case Z_BUF_ERROR:
                return  // no progress possible without more input; never spin
            case Z_NEED_DICT:
                throw .corrupt("the IDAT zlib stream asks for a preset dictionary")
            case Z_DATA_ERROR:
                let reason = stream.pointee.msg.map { String(cString: $0) } ?? "invalid data"
                throw .corrupt("bad zlib data in IDAT: \(reason)")
            case Z_MEM_ERROR:
                throw .corrupt("out of memory while inflating IDAT")
            default:
                throw .corrupt("zlib inflate failed (\(status))")
            }
        }
    }

    func finish() throws(PNGError) {
        if produced < capacity { throw .notEnoughImageData(expected: capacity, actual: produced) }
        if !ended {
            throw .corrupt(
                "the IDAT zlib stream is cut short: the image bytes are all there, "
                    + "but the end of the stream and its Adler-32 checksum are missing")
        }
    }
}

// MARK: - Samples → premultiplied ARGB32

struct PixelConverter {
    let colorType: UInt8
    let bitDepth: Int
    /// 256 premultiplied entries (palette images), zero past the palette.
    let paletteTable: [UInt32]
    let colorKey: (UInt16, UInt16, UInt16)?
    /// Words as the file holds them (0xAARRGGBB straight), not premultiplied.
    let straight: Bool

    init(
        header: PNGDecoder.Header, palette: [UInt8], paletteAlpha: [UInt8], colorKey: (UInt16, UInt16, UInt16)?,
        straight: Bool = false
    ) {
        colorType = header.colorType
        bitDepth = header.bitDepth
        self.colorKey = colorKey
        self.straight = straight
        var table = [UInt32](repeating: 0, count: 256)
        if header.colorType == 3 {
            for i in 0..<min(256, palette.count / 3) {
                let alpha = i < paletteAlpha.count ? UInt32(paletteAlpha[i]) : 255
                table[i] =
                    straight
                    ? alpha << 24 | UInt32(palette[3 * i]) << 16 | UInt32(palette[3 * i + 1]) << 8
                        | UInt32(palette[3 * i + 2])
                    : Self.premultiplied(
                        UInt32(palette[3 * i]), UInt32(palette[3 * i + 1]), UInt32(palette[3 * i + 2]), alpha)
            }
        }
        paletteTable = table
    }

    @inline(__always)
    static func premultiplied(_ r: UInt32, _ g: UInt32, _ b: UInt32, _ a: UInt32) -> UInt32 {
        if a == 255 { return 0xFF00_0000 | r << 16 | g << 8 | b }
        if a == 0 { return 0 }
        return a << 24 | mul(r, a) << 16 | mul(g, a) << 8 | mul(b, a)
    }

    /// Cairo's rounding of c * a / 255 (exact for all 8-bit inputs).
    @inline(__always)
    static func mul(_ c: UInt32, _ a: UInt32) -> UInt32 {
        let t = c &* a &+ 0x80
        return (t &+ (t >> 8)) >> 8
    }

    @inline(__always)
    func grey(_ g: UInt32) -> UInt32 { 0xFF00_0000 | g << 16 | g << 8 | g }

    /// A pixel's word: premultiplied, or straight when `straight`.
    @inline(__always)
    func pack(_ r: UInt32, _ g: UInt32, _ b: UInt32, _ a: UInt32) -> UInt32 {
        straight ? a << 24 | r << 16 | g << 8 | b : Self.premultiplied(r, g, b, a)
    }

    /// A colour-keyed (tRNS) pixel: transparent black, straight too (as pngjs, which pixelmatch
    /// reads with, gives it).
    @inline(__always)
    func keyed(_ opaque: UInt32) -> UInt32 { 0 }

    /// Converts `n` pixels of one unfiltered scanline; pixel `x` goes to `dst[x * step]`.
    /// `src` must be followed by at least `Inflater.slack` readable bytes.
    ///
    /// Index arithmetic uses wrapping operators: `n` < 2^31 and `step` ≤ 8, so no product can
    /// overflow, and the checked versions cost ~10% of the loop.
    func convert(
        _ src: UnsafePointer<UInt8>, count n: Int, into dst: UnsafeMutablePointer<UInt32>, step: Int,
        maxIndex: inout Int
    ) {
        let raw = UnsafeRawPointer(src)
        switch (colorType, bitDepth) {
        case (2, 8):
            if let key = colorKey {
                for x in 0..<n {
                    let r = src[3 &* x]
                    let g = src[3 &* x + 1]
                    let b = src[3 &* x + 2]
                    let transparent = UInt16(r) == key.0 && UInt16(g) == key.1 && UInt16(b) == key.2
                    let word = 0xFF00_0000 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
                    dst[x &* step] = transparent ? keyed(word) : word
                }
            } else {
                // One unaligned 4-byte load per pixel (R G B next), the slack covers the last.
                for x in 0..<n {
                    let word = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 3 &* x, as: UInt32.self))
                    dst[x &* step] = 0xFF00_0000 | word.byteSwapped >> 8
                }
            }
        case (6, 8) where step == 1:
            // Most rows are opaque: swap R and B for every pixel in a loop the compiler can
            // vectorise, then redo only the translucent ones, if there are any.
            var opaque: UInt32 = 0xFF00_0000
            for x in 0..<n {
                let word = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 &* x, as: UInt32.self))
                opaque &= word
                dst[x] = (word & 0xFF00_FF00) | (word >> 16 & 0xFF) | (word & 0xFF) << 16
            }
            if opaque != 0xFF00_0000 {
                for x in 0..<n {
                    let word = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 &* x, as: UInt32.self))
                    let a = word >> 24
                    if a != 255 { dst[x] = pack(word & 0xFF, word >> 8 & 0xFF, word >> 16 & 0xFF, a) }
                }
            }
        case (6, 8):
            for x in 0..<n {
                // Little-endian word of R G B A: 0xAABBGGRR.
                let word = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 &* x, as: UInt32.self))
                let a = word >> 24
                if a == 255 {
                    dst[x &* step] = (word & 0xFF00_FF00) | (word >> 16 & 0xFF) | (word & 0xFF) << 16
                } else {
                    dst[x &* step] = pack(word & 0xFF, word >> 8 & 0xFF, word >> 16 & 0xFF, a)
                }
            }
        case (3, _):
            paletteTable.withUnsafeBufferPointer { table in
                var highest = 0
                if bitDepth == 8 {
                    for x in 0..<n {
                        let index = Int(src[x])
                        highest = max(highest, index)
                        dst[x &* step] = table[index]
                    }
                } else {
                    forEachPackedSample(src, n) { x, index in
                        highest = max(highest, index)
                        dst[x &* step] = table[index]
                    }
                }
                maxIndex = max(maxIndex, highest)
            }
        case (0, 8):
            let key = colorKey.map { Int($0.0) } ?? -1
            for x in 0..<n {
                let g = Int(src[x])
                dst[x &* step] = g == key ? keyed(grey(UInt32(g))) : grey(UInt32(g))
            }
        case (0, 16):
            let key = colorKey.map { Int($0.0) } ?? -1
            for x in 0..<n {
                let sample = Int(src[2 &* x]) << 8 | Int(src[2 &* x + 1])
                let g = Self.eightBits(src + 2 &* x)
                dst[x &* step] = sample == key ? keyed(grey(g)) : grey(g)
            }
        case (0, _):
            // 1/2/4-bit grey: scale to 8 bits by replicating bits (255 / max: ×255, ×85, ×17).
            let key = colorKey.map { Int($0.0) } ?? -1
            let scale = UInt32(255 / ((1 << bitDepth) - 1))
            forEachPackedSample(src, n) { x, sample in
                dst[x &* step] = sample == key ? keyed(grey(UInt32(sample) * scale)) : grey(UInt32(sample) * scale)
            }
        case (2, _):  // 16-bit RGB: the key compares full samples, the pixel rounds them
            for x in 0..<n {
                let p = src + 6 &* x
                let word = 0xFF00_0000 | Self.eightBits(p) << 16 | Self.eightBits(p + 2) << 8 | Self.eightBits(p + 4)
                if let key = colorKey,
                    UInt16(p[0]) << 8 | UInt16(p[1]) == key.0,
                    UInt16(p[2]) << 8 | UInt16(p[3]) == key.1,
                    UInt16(p[4]) << 8 | UInt16(p[5]) == key.2
                {
                    dst[x &* step] = keyed(word)
                } else {
                    dst[x &* step] = word
                }
            }
        case (4, 8):
            for x in 0..<n {
                let g = UInt32(src[2 &* x])
                dst[x &* step] = pack(g, g, g, UInt32(src[2 &* x + 1]))
            }
        case (4, _):  // 16-bit grey + alpha
            for x in 0..<n {
                let g = Self.eightBits(src + 4 &* x)
                dst[x &* step] = pack(g, g, g, Self.eightBits(src + 4 &* x + 2))
            }
        default:  // (6, 16): 16-bit RGBA
            for x in 0..<n {
                let p = src + 8 &* x
                dst[x &* step] = pack(
                    Self.eightBits(p), Self.eightBits(p + 2), Self.eightBits(p + 4), Self.eightBits(p + 6))
            }
        }
    }

    /// A big-endian 16-bit sample at `p` rounded to 8 bits: round(v / 257), as pngjs scales it
    /// (`floor(v * 255 / 65535 + 0.5)`; 65535 = 255 x 257).
    @inline(__always)
    static func eightBits(_ p: UnsafePointer<UInt8>) -> UInt32 {
        let v = UInt32(p[0]) << 8 | UInt32(p[1])
        return (v &* 2 &+ 257) / 514
    }

    /// Calls `body(x, sample)` for `n` samples of `bitDepth` (1, 2 or 4) bits packed
    /// most-significant first.
    @inline(__always)
    func forEachPackedSample(_ src: UnsafePointer<UInt8>, _ n: Int, _ body: (Int, Int) -> Void) {
        let bits = bitDepth
        let perByte = 8 / bits
        let mask = (1 << bits) - 1
        for x in 0..<n {
            let byte = Int(src[x / perByte])
            let shift = 8 - bits * (x % perByte + 1)
            body(x, (byte >> shift) & mask)
        }
    }
}
