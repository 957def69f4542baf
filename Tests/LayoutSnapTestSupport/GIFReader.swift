import LayoutSnapImaging

/// Reads a GIF89a as the GIF spec describes it, written apart from `GIFWriter` so the tests check
/// the writer against the format rather than against itself: the header, the NETSCAPE2.0 loop
/// count, per frame its graphic control (disposal, delay) and image (region, local colour table,
/// LZW data in sub-blocks, decoded with the variable code width and clear codes). Frames are
/// composited onto the canvas (disposal "leave in place", the one the writer uses) into opaque
/// ARGB32 images.
public struct GIFReader {
    public struct Frame: Sendable, Equatable {
        public var x: Int, y: Int, width: Int, height: Int
        public var centiseconds: Int
        public var disposal: Int
        public var paletteSize: Int
    }

    public struct Malformed: Error, CustomStringConvertible {
        public var description: String
    }

    public let width: Int
    public let height: Int
    public let loops: Int?
    public let frames: [Frame]
    public let images: [PixelImage]

    public init(_ bytes: [UInt8]) throws {
        var p = 0
        func byte() throws -> Int {
            guard p < bytes.count else { throw Malformed(description: "truncated at byte \(p)") }
            p += 1
            return Int(bytes[p - 1])
        }
        func little16() throws -> Int {
            let low = try byte()
            return try low | byte() << 8
        }
        func skipSubBlocks() throws { while case let n = try byte(), n > 0 { p += n } }
        guard bytes.count > 13, Array(bytes[0..<6]) == Array("GIF89a".utf8) else {
            throw Malformed(description: "no GIF89a header")
        }
        p = 6
        width = try little16()
        height = try little16()
        let screenFlags = try byte()
        p += 2
        guard screenFlags & 0x80 == 0 else {
            throw Malformed(description: "a global colour table (the writer uses local ones)")
        }
        var canvas = [UInt32](repeating: 0xFF00_0000, count: width * height)
        var loops: Int?
        var frames: [Frame] = []
        var images: [PixelImage] = []
        var control: (disposal: Int, delay: Int)?
        while true {
            let introducer = try byte()
            if introducer == 0x3B { break }
            if introducer == 0x21 {
                let label = try byte()
                if label == 0xF9 {
                    guard try byte() == 4 else { throw Malformed(description: "graphic control of the wrong size") }
                    let flags = try byte()
                    let delay = try little16()
                    p += 1
                    guard try byte() == 0 else { throw Malformed(description: "unterminated graphic control") }
                    control = (flags >> 2 & 7, delay)
                } else if label == 0xFF {
                    let size = try byte()
                    let name = String(decoding: bytes[p..<min(p + size, bytes.count)], as: UTF8.self)
                    p += size
                    if name == "NETSCAPE2.0" {
                        guard try byte() == 3, try byte() == 1 else { throw Malformed(description: "bad loop block") }
                        loops = try little16()
                        guard try byte() == 0 else { throw Malformed(description: "unterminated loop block") }
                    } else {
                        try skipSubBlocks()
                    }
                } else {
                    try skipSubBlocks()
                }
                continue
            }
            guard introducer == 0x2C else { throw Malformed(description: "unknown block \(introducer) at \(p - 1)") }
            let x = try little16()
            let y = try little16()
            let w = try little16()
            let h = try little16()
            let flags = try byte()
            guard x + w <= width, y + h <= height, w > 0, h > 0 else {
                throw Malformed(description: "frame \(frames.count) outside the canvas")
            }
            guard flags & 0x80 != 0 else { throw Malformed(description: "frame \(frames.count) has no colour table") }
            guard flags & 0x40 == 0 else { throw Malformed(description: "interlaced frame") }
            let paletteSize = 2 << (flags & 7)
            var palette: [UInt32] = []
            for _ in 0..<paletteSize {
                let (r, g, b) = (try byte(), try byte(), try byte())
                palette.append(0xFF00_0000 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b))
            }
            let minimumCodeSize = try byte()
            var data: [UInt8] = []
            while case let n = try byte(), n > 0 {
                guard p + n <= bytes.count else { throw Malformed(description: "truncated image data") }
                data += bytes[p..<p + n]
                p += n
            }
            let indices = try Self.lzwDecode(data, minimumCodeSize: minimumCodeSize, count: w * h)
            for row in 0..<h {
                for column in 0..<w {
                    let index = Int(indices[row * w + column])
                    guard index < palette.count else { throw Malformed(description: "index past the palette") }
                    canvas[(y + row) * width + x + column] = palette[index]
                }
            }
            frames.append(
                Frame(
                    x: x, y: y, width: w, height: h, centiseconds: control?.delay ?? 0,
                    disposal: control?.disposal ?? 0,
                    paletteSize: paletteSize))
            images.append(PixelImage(width: width, height: height, pixels: canvas))
            control = nil
        }
        self.loops = loops
        self.frames = frames
        self.images = images
    }

    /// GIF's LZW: codes from minimumCodeSize + 1 bits, least significant bit first, widening when
    /// the table reaches the width's limit (up to 12 bits), a clear code resetting it.
    static func lzwDecode(_ data: [UInt8], minimumCodeSize: Int, count: Int) throws -> [UInt8] {
        let clear = 1 << minimumCodeSize
        let end = clear + 1
        var table: [[UInt8]] = []
        func resetTable() { table = (0..<clear).map { [UInt8($0)] } + [[], []] }
        resetTable()
        var codeSize = minimumCodeSize + 1
        var out: [UInt8] = []
        var previous: [UInt8]?
        var bitPosition = 0
        while bitPosition + codeSize <= data.count * 8 {
            var code = 0
            for bit in 0..<codeSize {
                let at = bitPosition + bit
                code |= Int(data[at / 8] >> UInt8(at % 8) & 1) << bit
            }
            bitPosition += codeSize
            if code == clear {
                resetTable()
                codeSize = minimumCodeSize + 1
                previous = nil
                continue
            }
            if code == end { break }
            let entry: [UInt8]
            if code < table.count {
                entry = table[code]
            } else if code == table.count, let previous {
                entry = previous + [previous[0]]
            } else {
                throw Malformed(description: "LZW code \(code) past the table (\(table.count))")
            }
            out += entry
            if let previous, table.count < 4096 { table.append(previous + [entry[0]]) }
            if table.count == 1 << codeSize, codeSize < 12 { codeSize += 1 }
            previous = entry
        }
        guard out.count == count else { throw Malformed(description: "\(out.count) pixels decoded, \(count) expected") }
        return out
    }
}
