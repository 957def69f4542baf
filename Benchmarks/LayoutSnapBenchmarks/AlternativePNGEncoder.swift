import CZlib
import Foundation
import LayoutSnapRunner
import LayoutSnapImaging

/// What `PNGEncoder` was measured against, kept for the benchmark's comparison ("zlib level 1 +
/// filter None") and for trying other settings: zlib at any level, strategy and memory level,
/// streamed in row blocks or in one call, with any of PNG's filters. The product encodes with
/// libdeflate only (`PNGEncoder`'s comment says why); these share its scanlines and chunks.
public enum AlternativePNGEncoder {
    public struct Options: Sendable {
        public enum Filter: Sendable, CaseIterable {
            /// Filter 0 on every row (what `PNGEncoder` does).
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
        /// 0: convert the whole image into one scanline buffer, then one `deflate(Z_FINISH)`.
        /// > 0: convert about this many bytes of scanlines at a time into a reused buffer and
        /// feed each block to `deflate` (only with `filter == .none`).
        public var blockBytes: Int

        public init(
            level: Int32, strategy: Int32 = Z_DEFAULT_STRATEGY, memLevel: Int32 = 8, filter: Filter = .none,
            blockBytes: Int = 0
        ) {
            self.level = level
            self.strategy = strategy
            self.memLevel = memLevel
            self.filter = filter
            self.blockBytes = blockBytes
        }

        /// zlib level 1, filter None, streamed in row blocks: the original specification's suggestion, docs/goldens.md.
        public static let zlibFast = Options(level: 1, blockBytes: 256 << 10)
    }

    public static func encode(pixels: UnsafePointer<UInt32>, width: Int, height: Int, stride: Int, options: Options)
        -> [UInt8]
    {
        PNGEncoder.checkDimensions(width: width, height: height, stride: stride)
        let opaque = PNGEncoder.isOpaque(pixels, width: width, height: height, stride: stride)
        let channels = opaque ? 3 : 4
        let lineBytes = width * channels + 1
        let rawCount = height * lineBytes
        let deflater = Deflater(options: options, sourceLength: rawCount)

        if options.blockBytes > 0 && options.filter == .none {
            let rowsPerBlock = max(1, options.blockBytes / lineBytes)
            // +1: the RGB scanlines' 4-byte stores spill one byte past the last row.
            let block = UnsafeMutablePointer<UInt8>.allocate(capacity: min(rowsPerBlock, height) * lineBytes + 1)
            defer { block.deallocate() }
            var y = 0
            while y < height {
                let end = min(height, y + rowsPerBlock)
                PNGEncoder.writeScanlines(
                    pixels + y * stride, width: width, height: end - y, stride: stride, opaque: opaque, into: block)
                deflater.push(block, count: (end - y) * lineBytes, finish: end == height)
                y = end
            }
        } else {
            let raw = UnsafeMutablePointer<UInt8>.allocate(capacity: rawCount + 1)
            defer { raw.deallocate() }
            PNGEncoder.writeScanlines(pixels, width: width, height: height, stride: stride, opaque: opaque, into: raw)
            if options.filter != .none {
                applyFilter(options.filter, to: raw, rows: height, rowBytes: lineBytes - 1, bytesPerPixel: channels)
            }
            deflater.push(raw, count: rawCount, finish: true)
        }
        return PNGEncoder.assemble(
            width: width, height: height, colorType: opaque ? 2 : 6,
            idat: deflater.output, idatCount: deflater.produced)
    }

    // MARK: - Filters

    /// Filters scanlines that were written unfiltered (filter byte 0), in place. Rows are done
    /// bottom-up and each row right-to-left, so every filter still sees raw neighbours.
    static func applyFilter(
        _ filter: Options.Filter, to raw: UnsafeMutablePointer<UInt8>,
        rows: Int, rowBytes: Int, bytesPerPixel bpp: Int
    ) {
        let lineBytes = rowBytes + 1
        let zeros = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes)
        zeros.initialize(repeating: 0, count: rowBytes)
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes * 5)
        defer {
            zeros.deallocate()
            scratch.deallocate()
        }

        for y in stride(from: rows - 1, through: 0, by: -1) {
            let cur = raw + y * lineBytes + 1
            let prior = y > 0 ? UnsafePointer(raw + (y - 1) * lineBytes + 1) : UnsafePointer(zeros)
            let type: UInt8
            switch filter {
            case .none: type = 0
            case .sub: type = 1
            case .up: type = 2
            case .paeth: type = 4
            case .adaptive:
                // Candidates 1...4 into scratch; keep the one with the least sum of |Int8(byte)|.
                var best = 0
                var bestSum = sumAbs(UnsafePointer(cur), rowBytes)
                for t in 1...4 {
                    let candidate = scratch + (t - 1) * rowBytes
                    candidate.update(from: cur, count: rowBytes)
                    filterRow(UInt8(t), candidate, prior, rowBytes, bpp)
                    let sum = sumAbs(UnsafePointer(candidate), rowBytes)
                    if sum < bestSum {
                        bestSum = sum
                        best = t
                    }
                }
                if best > 0 { cur.update(from: scratch + (best - 1) * rowBytes, count: rowBytes) }
                cur[-1] = UInt8(best)
                continue
            }
            filterRow(type, cur, prior, rowBytes, bpp)
            cur[-1] = type
        }
    }

    /// Filters one raw row in place (right to left) against the raw `prior` row.
    static func filterRow(
        _ type: UInt8, _ cur: UnsafeMutablePointer<UInt8>, _ prior: UnsafePointer<UInt8>,
        _ count: Int, _ bpp: Int
    ) {
        var i = count - 1
        while i >= 0 {
            let left: UInt8 = i >= bpp ? cur[i - bpp] : 0
            let upLeft: UInt8 = i >= bpp ? prior[i - bpp] : 0
            switch type {
            case 1: cur[i] &-= left
            case 2: cur[i] &-= prior[i]
            case 3: cur[i] &-= UInt8((Int(left) + Int(prior[i])) >> 1)
            case 4: cur[i] &-= PNGFilter.paeth(left, prior[i], upLeft)
            default: break
            }
            i -= 1
        }
    }

    static func sumAbs(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int {
        var sum = 0
        for i in 0..<count { sum += abs(Int(Int8(bitPattern: p[i]))) }
        return sum
    }

    // MARK: - zlib

    /// A zlib deflate stream writing into one growing buffer, sized by `deflateBound` up
    /// front so that growing never happens in practice (untouched pages cost nothing).
    final class Deflater {
        private let stream: UnsafeMutablePointer<z_stream>
        private(set) var output: UnsafeMutablePointer<UInt8>
        private var capacity: Int
        private(set) var produced = 0

        init(options: Options, sourceLength: Int) {
            // zlib keeps a back-pointer to the z_stream in its state and checks it on every
            // call, so the stream needs a stable address: heap-allocate it.
            stream = .allocate(capacity: 1)
            stream.initialize(to: z_stream())
            let rc = deflateInit2_(
                stream, options.level, Z_DEFLATED, 15, options.memLevel, options.strategy,
                zlibVersion(), Int32(MemoryLayout<z_stream>.size))
            // Only Z_MEM_ERROR (or a broken zlib install) can fail here; neither is recoverable.
            guard rc == Z_OK else { fatalError("AlternativePNGEncoder: deflateInit2 failed (\(rc))") }
            capacity = Int(deflateBound(stream, UInt(sourceLength))) + 64
            output = .allocate(capacity: capacity)
        }

        deinit {
            deflateEnd(stream)
            stream.deallocate()
            output.deallocate()
        }

        /// Compresses `count` bytes; `finish` ends the stream after them.
        func push(_ input: UnsafeMutablePointer<UInt8>, count: Int, finish: Bool) {
            var consumed = 0
            while true {
                // avail_in/avail_out are 32-bit: inputs above 4 GiB take several calls.
                let inChunk = min(count - consumed, Int(UInt32.max))
                let lastInput = consumed + inChunk == count
                if produced == capacity { grow() }
                let outChunk = min(capacity - produced, Int(UInt32.max))
                stream.pointee.next_in = input + consumed
                stream.pointee.avail_in = UInt32(inChunk)
                stream.pointee.next_out = output + produced
                stream.pointee.avail_out = UInt32(outChunk)
                let status = deflate(stream, finish && lastInput ? Z_FINISH : Z_NO_FLUSH)
                consumed += inChunk - Int(stream.pointee.avail_in)
                produced += outChunk - Int(stream.pointee.avail_out)
                switch status {
                case Z_STREAM_END:
                    return
                case Z_OK, Z_BUF_ERROR:
                    // Done with this input unless finishing (then loop until Z_STREAM_END).
                    if !finish && consumed == count && stream.pointee.avail_out > 0 { return }
                default:
                    fatalError("AlternativePNGEncoder: deflate failed (\(status))")
                }
            }
        }

        /// `deflateBound` only covers a single `deflate(Z_FINISH)` call; the multi-call paths
        /// (blocks, > 4 GiB) may in theory need more room.
        private func grow() {
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            bigger.update(from: output, count: produced)
            output.deallocate()
            output = bigger
            capacity *= 2
        }
    }
}
