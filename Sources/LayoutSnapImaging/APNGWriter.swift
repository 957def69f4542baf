import CDeflate
import Foundation

/// Builds an animated PNG (APNG 1.0) one frame at a time, for `layoutsnap preview`.
///
/// Layout: signature, `IHDR` (RGBA, 8-bit), `acTL` (frame count, loops), then per frame an
/// `fcTL` and its image data: frame 0 as `IDAT` (so a viewer without APNG support shows the first
/// frame), every later frame as `fdAT`. `fcTL` and `fdAT` share one sequence counter starting at 0,
/// as the APNG spec requires. `IEND` closes the file.
///
/// Only the rectangle that changed since the previous frame is stored (dispose NONE, blend
/// SOURCE), so a card that grows at the top of the canvas costs that card's rows, not the whole
/// screen. An unchanged frame stores a single pixel, keeping one APNG frame per layout frame.
///
/// RGBA always: every frame must share `IHDR`'s colour type, and the writer does not know the
/// later frames when it writes the first. Memory: one copy of the previous frame plus the output.
public struct APNGWriter {
    public let width: Int
    public let height: Int
    public let frameCount: Int
    private var previous: PreviousFrame
    private var written = 0
    private var sequence: UInt32 = 0
    private var out: [UInt8] = []

    /// Frame delays are written as `num / 10000` seconds: fine enough for any fps up to 240, and
    /// up to 6.5 s per frame.
    public static let delayDenominator: UInt16 = 10_000

    /// - Precondition: `width`, `height` and `frameCount` are at least 1.
    public init(width: Int, height: Int, frameCount: Int, loops: Int = 0) {
        precondition(width > 0 && height > 0 && frameCount > 0, "APNGWriter: empty animation")
        self.width = width
        self.height = height
        self.frameCount = frameCount
        previous = PreviousFrame(width: width, height: height)
        out.append(contentsOf: PNG.signature)
        var ihdr: [UInt8] = []
        ihdr += PNG.bigEndianBytes(UInt32(width))
        ihdr += PNG.bigEndianBytes(UInt32(height))
        ihdr += [8, 6, 0, 0, 0]
        chunk(PNG.IHDR, ihdr)
        chunk(PNG.acTL, PNG.bigEndianBytes(UInt32(frameCount)) + PNG.bigEndianBytes(UInt32(max(0, loops))))
    }

    /// Adds the next frame: premultiplied ARGB32 rows `stride` pixels apart, shown for `delay`
    /// seconds.
    public mutating func add(_ pixels: UnsafePointer<UInt32>, stride: Int, delay: Double) {
        precondition(written < frameCount, "APNGWriter: more frames than announced")
        let region = previous.replace(with: pixels, stride: stride, first: written == 0)
        let origin = pixels + region.y * stride + region.x
        let data = PNGEncoder.compressedRGBA(origin, width: region.width, height: region.height, stride: stride)

        var fctl: [UInt8] = PNG.bigEndianBytes(sequence)
        sequence += 1
        fctl += PNG.bigEndianBytes(UInt32(region.width)) + PNG.bigEndianBytes(UInt32(region.height))
        fctl += PNG.bigEndianBytes(UInt32(region.x)) + PNG.bigEndianBytes(UInt32(region.y))
        let numerator = UInt16(clamping: Int((max(0, delay) * Double(Self.delayDenominator)).rounded()))
        fctl += [UInt8(numerator >> 8), UInt8(numerator & 0xFF)]
        fctl += [UInt8(Self.delayDenominator >> 8), UInt8(Self.delayDenominator & 0xFF)]
        fctl += [0, 0]  // dispose_op NONE, blend_op SOURCE
        chunk(PNG.fcTL, fctl)
        if written == 0 {
            chunk(PNG.IDAT, data)
        } else {
            chunk(PNG.fdAT, PNG.bigEndianBytes(sequence) + data)
            sequence += 1
        }
        written += 1
    }

    /// The finished file. - Precondition: every announced frame was added.
    public mutating func finish() -> [UInt8] {
        precondition(written == frameCount, "APNGWriter: \(written) of \(frameCount) frames added")
        chunk(PNG.IEND, [])
        return out
    }

    private mutating func chunk(_ type: UInt32, _ data: [UInt8]) { PNG.appendChunk(type, data, to: &out) }
}

extension PNGEncoder {
    /// The zlib stream of `height` RGBA scanlines (filter None), as an `IDAT` or `fdAT` carries it.
    static func compressedRGBA(_ pixels: UnsafePointer<UInt32>, width: Int, height: Int, stride: Int) -> [UInt8] {
        let rawCount = height * (width * 4 + 1)
        let raw = UnsafeMutablePointer<UInt8>.allocate(capacity: rawCount + 1)
        defer { raw.deallocate() }
        writeRGBAScanlines(pixels, width: width, height: height, stride: stride, into: raw)
        return zlib(raw, count: rawCount, level: level) { Array($0) }
    }
}
