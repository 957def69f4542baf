/// PNG scanline filters (spec section 9): undone when decoding (the encoder writes None).
package enum PNGFilter {
    @inline(__always)
    package static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let ia = Int(a)
        let ib = Int(b)
        let ic = Int(c)
        let pa = abs(ib - ic)  // |p - a| with p = a + b - c
        let pb = abs(ia - ic)  // |p - b|
        let pc = abs(ia + ib - 2 * ic)  // |p - c|
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    /// Paeth for 4 bytes a pixel (RGBA 8-bit, the common case), the four channels of a pixel at
    /// once: the chain runs from pixel to pixel, not byte to byte. The same predictor as
    /// `paeth`, with a = c = 0 before the first pixel (paeth(0, b, 0) = b).
    @inline(__always)
    static func paeth4(_ cur: UnsafeMutablePointer<UInt8>, _ prior: UnsafePointer<UInt8>, count n: Int) {
        var a = SIMD4<Int16>(repeating: 0)
        var c = SIMD4<Int16>(repeating: 0)
        let pixels = n / 4
        for p in 0..<pixels {
            let o = p &* 4
            let b = SIMD4<Int16>(Int16(prior[o]), Int16(prior[o &+ 1]), Int16(prior[o &+ 2]), Int16(prior[o &+ 3]))
            let pa = magnitude(b &- c)
            let pb = magnitude(a &- c)
            let pc = magnitude(a &+ b &- c &- c)
            let useA = (pa .<= pb) .& (pa .<= pc)
            let useB = pb .<= pc
            let predictor = a.replacing(with: b.replacing(with: c, where: .!useB), where: .!useA)
            let x = SIMD4<Int16>(Int16(cur[o]), Int16(cur[o &+ 1]), Int16(cur[o &+ 2]), Int16(cur[o &+ 3]))
            let out = (x &+ predictor) & 0xFF
            cur[o] = UInt8(truncatingIfNeeded: out[0])
            cur[o &+ 1] = UInt8(truncatingIfNeeded: out[1])
            cur[o &+ 2] = UInt8(truncatingIfNeeded: out[2])
            cur[o &+ 3] = UInt8(truncatingIfNeeded: out[3])
            a = out
            c = b
        }
    }

    @inline(__always)
    static func magnitude(_ v: SIMD4<Int16>) -> SIMD4<Int16> { v.replacing(with: 0 &- v, where: v .< 0) }

    // MARK: Decoding

    /// Undoes the filters of `rows` scanlines (each a filter byte + `rowBytes` bytes) in
    /// place. `firstRow` only numbers rows in error messages.
    static func unfilter(
        _ data: UnsafeMutablePointer<UInt8>, rows: Int, rowBytes: Int, bytesPerPixel bpp: Int,
        firstRow: Int
    ) throws(PNGError) {
        let lineBytes = rowBytes + 1
        for y in 0..<rows {
            let line = data + y * lineBytes
            try unfilterRow(
                line, prior: y == 0 ? nil : UnsafePointer(line - lineBytes + 1), rowBytes: rowBytes,
                bytesPerPixel: bpp, row: firstRow + y)
        }
    }

    /// Undoes the filter of one scanline (`line`: its filter byte, then `rowBytes` bytes) in
    /// place. `prior` is the row above, already unfiltered (without its filter byte), or nil for
    /// the first row of an image or pass. `row` only numbers the row in error messages.
    @inline(__always)
    static func unfilterRow(
        _ line: UnsafeMutablePointer<UInt8>, prior: UnsafePointer<UInt8>?, rowBytes n: Int,
        bytesPerPixel bpp: Int, row: Int
    ) throws(PNGError) {
        let cur = line + 1
        let type = line[0]
        guard let prior else {
            // The row above the first is all zeros: Up is None, Average halves the left
            // byte only, Paeth picks the left byte (= Sub).
            switch type {
            case 0, 2: break
            case 1, 4:
                if n > bpp { for i in bpp..<n { cur[i] &+= cur[i - bpp] } }
            case 3:
                if n > bpp { for i in bpp..<n { cur[i] &+= cur[i - bpp] >> 1 } }
            default:
                throw .badFilter(type: type, row: row)
            }
            return
        }
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
        case 4 where bpp == 4:
            paeth4(cur, prior, count: n)
        case 4:
            let head = min(bpp, n)
            for i in 0..<head { cur[i] &+= prior[i] }  // paeth(0, b, 0) = b
            if n > bpp {
                for i in bpp..<n { cur[i] &+= paeth(cur[i - bpp], prior[i], prior[i - bpp]) }
            }
        default:
            throw .badFilter(type: type, row: row)
        }
    }
}
