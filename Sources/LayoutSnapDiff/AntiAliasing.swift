// pixelmatch's anti-aliasing test, after "Anti-aliased Pixel and Intensity Slope Detector"
// (V. Vysniauskas, 2009). Ported to premultiplied ARGB32 words; neighbours are visited in
// pixelmatch's order (x outer, y inner), which decides which darkest/brightest neighbour wins a tie.

import LayoutSnapCore

struct Neighbourhood<C: Compositor> {
    let width: Int
    let height: Int

    /// Is the pixel at (x1, y1) of `img` likely anti-aliasing? `other` is the other image
    /// (the darkest or brightest neighbour must have many equal siblings in both).
    @inline(__always)
    func antialiased(
        _ img: UnsafePointer<UInt32>, _ other: UnsafePointer<UInt32>, x1: Int, y1: Int
    ) -> Bool {
        // Away from the border (including the neighbours' own neighbourhoods) use the unrolled form.
        if x1 >= 2 && y1 >= 2 && x1 &+ 2 < width && y1 &+ 2 < height {
            return antialiasedInterior(img, other, x1: x1, y1: y1)
        }
        return antialiasedGeneral(img, other, x1: x1, y1: y1)
    }

    /// `antialiased` for 2 <= x1 < width - 2, 2 <= y1 < height - 2: same result, fewer branches.
    @inline(__always)
    func antialiasedInterior(
        _ img: UnsafePointer<UInt32>, _ other: UnsafePointer<UInt32>, x1: Int, y1: Int
    ) -> Bool {
        let w = width
        let pos = y1 &* w &+ x1
        let p = img + pos
        let c = p[0]
        // The neighbours in pixelmatch's visiting order (x outer, y inner).
        let offsets: (Int, Int, Int, Int, Int, Int, Int, Int) =
            (-w &- 1, -1, w &- 1, -w, w, -w &+ 1, 1, w &+ 1)
        let nb: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
            p[offsets.0], p[offsets.1], p[offsets.2], p[offsets.3],
            p[offsets.4], p[offsets.5], p[offsets.6], p[offsets.7]
        )
        // Equal words have a zero brightness delta; 3 or more of them settle it (not anti-aliasing)
        // whatever the order, so count them without branches first.
        var equal = (nb.0 == c ? 1 : 0) &+ (nb.1 == c ? 1 : 0) &+ (nb.2 == c ? 1 : 0)
        equal &+= (nb.3 == c ? 1 : 0) &+ (nb.4 == c ? 1 : 0) &+ (nb.5 == c ? 1 : 0)
        equal &+= (nb.6 == c ? 1 : 0) &+ (nb.7 == c ? 1 : 0)
        if equal > 2 { return false }

        let k = pos &* 4
        var zeroes = 0
        var minDelta = 0.0
        var maxDelta = 0.0
        var minOff = 0
        var maxOff = 0
        @inline(__always) func visit(_ n: UInt32, _ off: Int) {
            let delta = brightnessDelta(c, n, k: k, C.self)
            if delta == 0 {
                zeroes &+= 1
            } else if delta < minDelta {
                minDelta = delta
                minOff = off
            } else if delta > maxDelta {
                maxDelta = delta
                maxOff = off
            }
        }
        visit(nb.0, offsets.0)
        visit(nb.1, offsets.1)
        visit(nb.2, offsets.2)
        visit(nb.3, offsets.3)
        visit(nb.4, offsets.4)
        visit(nb.5, offsets.5)
        visit(nb.6, offsets.6)
        visit(nb.7, offsets.7)
        // pixelmatch stops as soon as it has seen 3 zero deltas; the outcome is the same
        if zeroes > 2 { return false }
        if minDelta == 0 || maxDelta == 0 { return false }
        let minPos = pos &+ minOff
        let maxPos = pos &+ maxOff
        return (manySiblingsInterior(img, minPos) && manySiblingsInterior(other, minPos))
            || (manySiblingsInterior(img, maxPos) && manySiblingsInterior(other, maxPos))
    }

    /// `hasManySiblings` for a pixel that is not on the border.
    @inline(__always)
    func manySiblingsInterior(_ img: UnsafePointer<UInt32>, _ pos: Int) -> Bool {
        let w = width
        let p = img + pos
        let v = p[0]
        var n = (p[-w &- 1] == v ? 1 : 0) &+ (p[-w] == v ? 1 : 0) &+ (p[-w &+ 1] == v ? 1 : 0)
        n &+= (p[-1] == v ? 1 : 0) &+ (p[1] == v ? 1 : 0)
        n &+= (p[w &- 1] == v ? 1 : 0) &+ (p[w] == v ? 1 : 0) &+ (p[w &+ 1] == v ? 1 : 0)
        return n > 2
    }

    /// pixelmatch's `antialiased`, literally (any position, including the border).
    @inline(__always)
    func antialiasedGeneral(
        _ img: UnsafePointer<UInt32>, _ other: UnsafePointer<UInt32>, x1: Int, y1: Int
    ) -> Bool {
        let x0 = max(x1 &- 1, 0)
        let y0 = max(y1 &- 1, 0)
        let x2 = min(x1 &+ 1, width &- 1)
        let y2 = min(y1 &+ 1, height &- 1)
        let pos = y1 &* width &+ x1
        let centre = img[pos]
        let k = pos &* 4
        var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
        var minDelta = 0.0
        var maxDelta = 0.0
        var minX = 0
        var minY = 0
        var maxX = 0
        var maxY = 0

        var x = x0
        while x <= x2 {
            var y = y0
            while y <= y2 {
                if x != x1 || y != y1 {
                    // brightness delta between the centre pixel and this neighbour
                    let delta = brightnessDelta(centre, img[y &* width &+ x], k: k, C.self)
                    if delta == 0 {
                        zeroes &+= 1
                        // more than 2 equal siblings: definitely not anti-aliasing
                        if zeroes > 2 { return false }
                    } else if delta < minDelta {
                        minDelta = delta
                        minX = x
                        minY = y
                    } else if delta > maxDelta {
                        maxDelta = delta
                        maxX = x
                        maxY = y
                    }
                }
                y &+= 1
            }
            x &+= 1
        }

        // no darker or no brighter neighbour: not anti-aliasing
        if minDelta == 0 || maxDelta == 0 { return false }

        // the darkest or the brightest neighbour has 3+ equal siblings in both images
        return (hasManySiblings(img, x1: minX, y1: minY) && hasManySiblings(other, x1: minX, y1: minY))
            || (hasManySiblings(img, x1: maxX, y1: maxY) && hasManySiblings(other, x1: maxX, y1: maxY))
    }

    /// Does the pixel at (x1, y1) have 3+ adjacent pixels of exactly the same value? A pixel on the
    /// image border starts with one "equal sibling", as in pixelmatch.
    @inline(__always)
    func hasManySiblings(_ img: UnsafePointer<UInt32>, x1: Int, y1: Int) -> Bool {
        let x0 = max(x1 &- 1, 0)
        let y0 = max(y1 &- 1, 0)
        let x2 = min(x1 &+ 1, width &- 1)
        let y2 = min(y1 &+ 1, height &- 1)
        let value = img[y1 &* width &+ x1]
        var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
        var y = y0
        // The count does not depend on the visiting order, so walk rows (cache friendly).
        while y <= y2 {
            let row = img + y &* width
            var x = x0
            while x <= x2 {
                if (x != x1 || y != y1) && row[x] == value {
                    zeroes &+= 1
                    if zeroes > 2 { return true }
                }
                x &+= 1
            }
            y &+= 1
        }
        return false
    }
}
