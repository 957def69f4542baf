import LayoutSnapImaging

/// Reads an animated PNG and checks it against the APNG 1.0 spec: `acTL` before the image data,
/// one `fcTL` per frame, `fcTL`/`fdAT` sequence numbers counting up from 0 with no gap, frame
/// regions inside the canvas, frame 0 covering it, CRCs intact. It composites the frames into
/// whole images (the APNG the preview writes uses dispose NONE and blend SOURCE; the other
/// operations are reported as unsupported), so a test can compare each with the frame it stands
/// for.
public struct APNGReader {
    public struct Frame: Sendable, Equatable {
        public var x: Int, y: Int, width: Int, height: Int
        /// Seconds.
        public var delay: Double
        public var disposeOp: UInt8
        public var blendOp: UInt8
        public var sequence: UInt32
    }

    public let width: Int
    public let height: Int
    /// acTL's count and loops (0: forever).
    public let frameCount: Int
    public let loops: Int
    public let frames: [Frame]
    /// Every frame composited onto the canvas, in order (premultiplied ARGB32, like PNGDecoder's).
    public let images: [PixelImage]

    /// `maxPixels` bounds the canvas and, over all frames, the composited images: a header that
    /// claims more is refused before anything is allocated.
    public init(_ bytes: [UInt8], maxPixels: Int = PNGDecoder.defaultMaxPixels) throws(PNGError) {
        guard bytes.count >= 8, Array(bytes[0..<8]) == PNGChunks.signature else {
            throw PNGError.notPNG("no PNG signature")
        }
        // The decoder's chunk reader: lengths, truncation and CRCs are checked in one place.
        var chunks: [(type: UInt32, data: ArraySlice<UInt8>)] = []
        var failure: PNGError?
        bytes.withUnsafeBytes { raw in
            var reader = PNGDecoder.ChunkReader(bytes: raw)
            do throws(PNGError) {
                while let chunk = try reader.next() {
                    let start = chunk.offset + 8
                    chunks.append((chunk.type, bytes[start..<(start + chunk.data.count)]))
                    if chunk.type == PNG.IEND { break }
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        guard let ihdr = chunks.first, ihdr.type == PNG.IHDR, ihdr.data.count == 13 else {
            throw PNGError.missingChunk("IHDR first")
        }
        guard chunks.last?.type == PNG.IEND else { throw PNGError.missingChunk("IEND") }
        let header = Array(ihdr.data)
        width = Int(PNGChunks.be32(header, 0))
        height = Int(PNGChunks.be32(header, 4))
        guard width > 0, height > 0, width <= maxPixels / height else {
            throw PNGError.tooLarge(width: width, height: height, limit: maxPixels)
        }
        guard let actlIndex = chunks.firstIndex(where: { $0.type == PNG.acTL }) else {
            throw PNGError.missingChunk("acTL")
        }
        guard let firstIDAT = chunks.firstIndex(where: { $0.type == PNG.IDAT }), actlIndex < firstIDAT else {
            throw PNGError.corrupt("acTL must come before the image data")
        }
        let actl = Array(chunks[actlIndex].data)
        guard actl.count == 8 else { throw PNGError.corrupt("acTL is \(actl.count) bytes, not 8") }
        frameCount = Int(PNGChunks.be32(actl, 0))
        loops = Int(PNGChunks.be32(actl, 4))
        // Every frame is composited onto a canvas of its own: bound them all together.
        guard frameCount <= maxPixels / (width * height) else {
            throw PNGError.corrupt(
                "\(frameCount) frames of \(width) x \(height) pixels are more than the limit of \(maxPixels) pixels")
        }

        var parsed: [Frame] = []
        var composited: [PixelImage] = []
        var expectedSequence: UInt32 = 0
        var canvas = [UInt32](repeating: 0, count: width * height)
        var pending: Frame?
        var data: [UInt8] = []

        let canvasWidth = width
        let canvasHeight = height
        func finishFrame() throws(PNGError) {
            guard let frame = pending else { return }
            guard !data.isEmpty else { throw PNGError.missingChunk("image data of frame \(parsed.count)") }
            let image = try PNGDecoder.decode(
                Self.standalonePNG(width: frame.width, height: frame.height, header: header, zlib: data))
            guard frame.blendOp == 0, frame.disposeOp == 0 else {
                throw PNGError.unsupported("frame \(parsed.count): dispose \(frame.disposeOp), blend \(frame.blendOp)")
            }
            for row in 0..<frame.height {
                let dst = (frame.y + row) * canvasWidth + frame.x
                canvas.replaceSubrange(
                    dst..<(dst + frame.width), with: image.pixels[(row * frame.width)..<((row + 1) * frame.width)])
            }
            parsed.append(frame)
            composited.append(PixelImage(width: canvasWidth, height: canvasHeight, pixels: canvas))
            pending = nil
            data = []
        }

        for (index, chunk) in chunks.enumerated() {
            let body = Array(chunk.data)
            switch chunk.type {
            case PNG.fcTL:
                try finishFrame()
                guard body.count == 26 else { throw PNGError.corrupt("fcTL is \(body.count) bytes, not 26") }
                let sequence = PNGChunks.be32(body, 0)
                guard sequence == expectedSequence else {
                    throw PNGError.corrupt("fcTL sequence number \(sequence), expected \(expectedSequence)")
                }
                expectedSequence += 1
                let numerator = Int(body[20]) << 8 | Int(body[21])
                let denominator = Int(body[22]) << 8 | Int(body[23])
                let frame = Frame(
                    x: Int(PNGChunks.be32(body, 12)), y: Int(PNGChunks.be32(body, 16)),
                    width: Int(PNGChunks.be32(body, 4)), height: Int(PNGChunks.be32(body, 8)),
                    delay: Double(numerator) / Double(denominator == 0 ? 100 : denominator),
                    disposeOp: body[24], blendOp: body[25], sequence: sequence)
                guard frame.width > 0, frame.height > 0, frame.x + frame.width <= width,
                    frame.y + frame.height <= height
                else {
                    throw PNGError.corrupt(
                        "frame \(parsed.count) region \(frame.width) x \(frame.height) at (\(frame.x), \(frame.y)) leaves the \(width) x \(height) canvas"
                    )
                }
                if parsed.isEmpty && (frame.x != 0 || frame.y != 0 || frame.width != width || frame.height != height) {
                    throw PNGError.corrupt("the first frame must cover the canvas")
                }
                pending = frame
            case PNG.IDAT:
                guard pending != nil, parsed.isEmpty else {
                    throw PNGError.corrupt("IDAT at chunk \(index) is not the first frame's")
                }
                data += body
            case PNG.fdAT:
                guard pending != nil, !parsed.isEmpty || index > firstIDAT else {
                    throw PNGError.corrupt("fdAT at chunk \(index) has no fcTL")
                }
                guard body.count > 4 else { throw PNGError.corrupt("empty fdAT") }
                let sequence = PNGChunks.be32(body, 0)
                guard sequence == expectedSequence else {
                    throw PNGError.corrupt("fdAT sequence number \(sequence), expected \(expectedSequence)")
                }
                expectedSequence += 1
                data += body[4...]
            default:
                break
            }
        }
        try finishFrame()
        guard parsed.count == frameCount else {
            throw PNGError.corrupt("acTL announces \(frameCount) frames, found \(parsed.count)")
        }
        self.frames = parsed
        self.images = composited
    }

    /// One frame's data as a PNG of its own: IHDR with the frame's size, IDAT, IEND.
    static func standalonePNG(width: Int, height: Int, header: [UInt8], zlib: [UInt8]) -> [UInt8] {
        PNGChunks.signature
            + PNGChunks.chunk(
                "IHDR", PNGChunks.be32(UInt32(width)) + PNGChunks.be32(UInt32(height)) + Array(header[8...]))
            + PNGChunks.chunk("IDAT", zlib)
            + PNGChunks.chunk("IEND", [])
    }
}
