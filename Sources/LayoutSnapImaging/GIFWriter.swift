import Foundation

/// Builds an animated GIF (GIF89a) one frame at a time, for `layoutsnap preview --export gif`.
///
/// Layout: header and logical screen (no global colour table), the NETSCAPE2.0 loop extension,
/// then per frame a graphic control extension (its delay, disposal "leave in place") and an image
/// with its own local colour table and LZW data, and the trailer. As in the APNG, only the
/// rectangle that changed since the previous frame is stored, and an unchanged frame stores one
/// pixel, so every frame added is one GIF frame.
///
/// Colours: each stored rectangle gets its own palette. With at most 256 colours in it the
/// palette is exactly those colours (sorted, so the file depends only on the pixels) and the
/// frame is exact; with more, a median cut of its colours (`GIFPalette`) picks 256. No
/// dithering: a UI's flat colours and text edges stay clean, and the same frames always give the
/// same bytes.
/// Translucent pixels are composited onto white (GIF has no partial transparency).
public struct GIFWriter {
    public let width: Int
    public let height: Int
    private var previous: PreviousFrame
    private var written = 0
    private var out: [UInt8] = []
    private var lzw = LZWEncoder()

    /// - Precondition: `width` and `height` are 1 to 65535.
    public init(width: Int, height: Int, loops: Int = 0) {
        precondition((1...65535).contains(width) && (1...65535).contains(height), "GIFWriter: bad size")
        self.width = width
        self.height = height
        previous = PreviousFrame(width: width, height: height)
        out.append(contentsOf: Array("GIF89a".utf8))
        out += Self.little16(width) + Self.little16(height)
        out += [0x70, 0, 0]  // no global colour table, 8-bit colour resolution; background 0, aspect 0
        out += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01] + Self.little16(max(0, loops)) + [0]
    }

    /// Frames written so far.
    public var frameCount: Int { written }

    /// Adds the next frame: premultiplied ARGB32 rows `stride` pixels apart, shown for
    /// `centiseconds` hundredths of a second (GIF's unit).
    public mutating func add(_ pixels: UnsafePointer<UInt32>, stride: Int, centiseconds: Int) {
        let region = previous.replace(with: pixels, stride: stride, first: written == 0)
        var colors = [UInt32](repeating: 0, count: region.width * region.height)
        for y in 0..<region.height {
            let row = pixels + (region.y + y) * stride + region.x
            for x in 0..<region.width { colors[y * region.width + x] = Self.onWhite(row[x]) }
        }
        let (palette, indices) = GIFPalette.quantize(colors)
        var bits = 1
        while 1 << bits < palette.count { bits += 1 }
        // Graphic control: disposal 1 (leave in place), no transparency, the delay.
        out += [0x21, 0xF9, 0x04, 0x04] + Self.little16(min(max(centiseconds, 0), 65535)) + [0, 0]
        out += [0x2C] + Self.little16(region.x) + Self.little16(region.y)
        out += Self.little16(region.width) + Self.little16(region.height)
        out.append(0x80 | UInt8(bits - 1))  // a local colour table of 2^bits entries
        for k in 0..<(1 << bits) {
            let c = k < palette.count ? palette[k] : 0
            out += [
                UInt8(truncatingIfNeeded: c >> 16), UInt8(truncatingIfNeeded: c >> 8), UInt8(truncatingIfNeeded: c),
            ]
        }
        let minimumCodeSize = max(2, bits)
        out.append(UInt8(minimumCodeSize))
        let data = lzw.encode(indices, minimumCodeSize: minimumCodeSize)
        var start = 0
        while start < data.count {
            let end = min(start + 255, data.count)
            out.append(UInt8(end - start))
            out += data[start..<end]
            start = end
        }
        out.append(0)
        written += 1
    }

    /// The finished file. - Precondition: at least one frame was added.
    public mutating func finish() -> [UInt8] {
        precondition(written > 0, "GIFWriter: no frames")
        return out + [0x3B]
    }

    static func little16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }

    /// 0x00RRGGBB of a premultiplied ARGB32 pixel over white.
    static func onWhite(_ p: UInt32) -> UInt32 {
        let transparency = 255 - (p >> 24)
        if transparency == 0 { return p & 0xFF_FFFF }
        let r = min(255, (p >> 16 & 0xFF) + transparency)
        let g = min(255, (p >> 8 & 0xFF) + transparency)
        let b = min(255, (p & 0xFF) + transparency)
        return r << 16 | g << 8 | b
    }
}

/// A frame's colours as at most 256 palette entries and one index per pixel.
enum GIFPalette {
    /// At most 256 colours: themselves, sorted. More: a median cut over the distinct colours,
    /// weighted by how many pixels have each, splitting the box with the most pixels times
    /// spread on its longest side at its median pixel; each entry is its box's mean, and every
    /// colour takes its own box's entry. A colour that covers much of the frame (a background)
    /// ends up alone in its box, so it stays exact; what merges are rare shades (text edges).
    static func quantize(_ colors: [UInt32]) -> (palette: [UInt32], indices: [UInt8]) {
        var counts: [UInt32: Int] = [:]
        for c in colors { counts[c, default: 0] += 1 }
        let distinct = counts.keys.sorted()
        var entry: [UInt32: UInt8] = [:]
        var palette: [UInt32] = []
        if distinct.count <= 256 {
            palette = distinct
            for (k, c) in distinct.enumerated() { entry[c] = UInt8(k) }
        } else {
            for (k, box) in cut(distinct, counts: counts).enumerated() {
                var n = 0
                var sums = [0, 0, 0]
                for c in box {
                    let w = counts[c]!
                    n += w
                    for (i, shift) in [16, 8, 0].enumerated() { sums[i] += Int(c >> UInt32(shift) & 0xFF) * w }
                }
                let mean = sums.map { UInt32(($0 + n / 2) / n) }
                palette.append(mean[0] << 16 | mean[1] << 8 | mean[2])
                for c in box { entry[c] = UInt8(k) }
            }
        }
        return (palette, colors.map { entry[$0]! })
    }

    /// The median cut: at most 256 boxes of colours.
    static func cut(_ distinct: [UInt32], counts: [UInt32: Int]) -> [[UInt32]] {
        struct Box {
            var colors: [UInt32]
            var pixels: Int
            /// The channel (its shift) with the widest range, and that range.
            var axis: UInt32
            var spread: Int

            init(_ colors: [UInt32], counts: [UInt32: Int]) {
                self.colors = colors
                pixels = colors.reduce(0) { $0 + counts[$1]! }
                axis = 16
                spread = -1
                for shift: UInt32 in [16, 8, 0] {
                    let values = colors.map { Int($0 >> shift & 0xFF) }
                    let range = values.max()! - values.min()!
                    if range > spread {
                        spread = range
                        axis = shift
                    }
                }
            }
        }
        var boxes = [Box(distinct, counts: counts)]
        while boxes.count < 256 {
            var best = -1
            for i in boxes.indices where boxes[i].colors.count > 1 {
                if best < 0 || boxes[i].pixels * boxes[i].spread > boxes[best].pixels * boxes[best].spread {
                    best = i
                }
            }
            guard best >= 0 else { break }
            let box = boxes[best]
            let axis = box.axis
            let sorted = box.colors.sorted { ($0 >> axis & 0xFF, $0) < ($1 >> axis & 0xFF, $1) }
            var seen = 0
            var cut = sorted.count - 1
            for (k, c) in sorted.enumerated() {
                seen += counts[c]!
                if seen * 2 >= box.pixels {
                    cut = min(max(k + 1, 1), sorted.count - 1)
                    break
                }
            }
            boxes[best] = Box(Array(sorted[..<cut]), counts: counts)
            boxes.append(Box(Array(sorted[cut...]), counts: counts))
        }
        return boxes.map(\.colors)
    }
}

/// GIF's variable-width LZW: codes from minimumCodeSize + 1 bits up to 12, a clear code first
/// and whenever the table is full, packed least significant bit first.
struct LZWEncoder {
    /// The code for (prefix code, next index) at prefix * 256 + index, 0 when absent.
    private var table = [UInt16](repeating: 0, count: 4096 * 256)
    private var used: [Int] = []

    mutating func encode(_ indices: [UInt8], minimumCodeSize: Int) -> [UInt8] {
        var out: [UInt8] = []
        var buffer: UInt32 = 0
        var filled = 0
        let clear = 1 << minimumCodeSize
        let end = clear + 1
        var codeSize = minimumCodeSize + 1
        var next = end + 1
        func emit(_ code: Int) {
            buffer |= UInt32(code) << UInt32(filled)
            filled += codeSize
            while filled >= 8 {
                out.append(UInt8(buffer & 0xFF))
                buffer >>= 8
                filled -= 8
            }
        }
        reset()
        emit(clear)
        guard var current = indices.first.map(Int.init) else {
            emit(end)
            if filled > 0 { out.append(UInt8(buffer & 0xFF)) }
            return out
        }
        for k in indices.dropFirst() {
            let key = current << 8 | Int(k)
            let found = table[key]
            if found != 0 {
                current = Int(found)
                continue
            }
            emit(current)
            if next == 4096 {
                emit(clear)
                reset()
                codeSize = minimumCodeSize + 1
                next = end + 1
            } else {
                if next >= 1 << codeSize { codeSize += 1 }
                table[key] = UInt16(next)
                used.append(key)
                next += 1
            }
            current = Int(k)
        }
        emit(current)
        emit(end)
        if filled > 0 { out.append(UInt8(buffer & 0xFF)) }
        reset()
        return out
    }

    private mutating func reset() {
        for key in used { table[key] = 0 }
        used.removeAll(keepingCapacity: true)
    }
}
