/// PNG scanline filters (spec section 9) in both directions.
enum PNGFilter {
    @inline(__always)
    static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let ia = Int(a), ib = Int(b), ic = Int(c)
        let pa = abs(ib - ic)            // |p - a| with p = a + b - c
        let pb = abs(ia - ic)            // |p - b|
        let pc = abs(ia + ib - 2 * ic)   // |p - c|
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    // MARK: Encoding (benchmark comparisons only; `PNGEncoder.encode` always writes None)

    /// Filters scanlines that were written unfiltered (filter byte 0), in place. Rows are done
    /// bottom-up and each row right-to-left, so every filter still sees raw neighbours.
    static func apply(_ filter: PNGEncoder.Options.Filter, to raw: UnsafeMutablePointer<UInt8>,
                      rows: Int, rowBytes: Int, bytesPerPixel bpp: Int) {
        let lineBytes = rowBytes + 1
        let zeros = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes)
        zeros.initialize(repeating: 0, count: rowBytes)
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes * 5)
        defer { zeros.deallocate(); scratch.deallocate() }

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
                    if sum < bestSum { bestSum = sum; best = t }
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
    static func filterRow(_ type: UInt8, _ cur: UnsafeMutablePointer<UInt8>, _ prior: UnsafePointer<UInt8>,
                          _ count: Int, _ bpp: Int) {
        var i = count - 1
        while i >= 0 {
            let left: UInt8 = i >= bpp ? cur[i - bpp] : 0
            let upLeft: UInt8 = i >= bpp ? prior[i - bpp] : 0
            switch type {
            case 1: cur[i] &-= left
            case 2: cur[i] &-= prior[i]
            case 3: cur[i] &-= UInt8((Int(left) + Int(prior[i])) >> 1)
            case 4: cur[i] &-= paeth(left, prior[i], upLeft)
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

    // MARK: Decoding

    /// Undoes the filters of `rows` scanlines (each a filter byte + `rowBytes` bytes) in
    /// place. `firstRow` only numbers rows in error messages.
    static func unfilter(_ data: UnsafeMutablePointer<UInt8>, rows: Int, rowBytes: Int, bytesPerPixel bpp: Int,
                         firstRow: Int) throws(PNGError) {
        let lineBytes = rowBytes + 1
        let n = rowBytes
        for y in 0..<rows {
            let line = data + y * lineBytes
            let cur = line + 1
            let type = line[0]
            if y == 0 {
                // The row above the first is all zeros: Up is None, Average halves the left
                // byte only, Paeth picks the left byte (= Sub).
                switch type {
                case 0, 2: break
                case 1, 4:
                    if n > bpp { for i in bpp..<n { cur[i] &+= cur[i - bpp] } }
                case 3:
                    if n > bpp { for i in bpp..<n { cur[i] &+= cur[i - bpp] >> 1 } }
                default:
                    throw .badFilter(type: type, row: firstRow + y)
                }
                continue
            }
            let prior = UnsafePointer(cur - lineBytes)
            switch type {
            case 0:
                break
            case 1:
                if n > bpp { for i in bpp..<n { cur[i] &+= cur[i - bpp] } }
            case 2:
                for i in 0..<n { cur[i] &+= prior[i] }
            case 3:
                let head = min(bpp, n)
                for i in 0..<head { cur[i] &+= prior[i] >> 1 }
                if n > bpp {
                    for i in bpp..<n { cur[i] &+= UInt8((UInt16(cur[i - bpp]) + UInt16(prior[i])) >> 1) }
                }
            case 4:
                let head = min(bpp, n)
                for i in 0..<head { cur[i] &+= prior[i] }  // paeth(0, b, 0) = b
                if n > bpp {
                    for i in bpp..<n { cur[i] &+= paeth(cur[i - bpp], prior[i], prior[i - bpp]) }
                }
            default:
                throw .badFilter(type: type, row: firstRow + y)
            }
        }
    }
}
