import LayoutSnapCore
import LayoutSnapDiff
import LayoutSnapTestSupport

// MARK: - pixels

func argb(_ a: Int, _ r: Int, _ g: Int, _ b: Int) -> UInt32 {
    UInt32(a) << 24 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
}

func opaque(_ r: Int, _ g: Int, _ b: Int) -> UInt32 { argb(255, r, g, b) }

/// A straight-alpha RGBA pixel whose premultiplication is exact (so pixelmatch, which works on
/// straight values, and PixelDiff, which works on premultiplied ones, see the same colour).
struct Straight: Equatable {
    var r, g, b, a: Int
    var premultiplied: UInt32 {
        precondition((r * a) % 255 == 0 && (g * a) % 255 == 0 && (b * a) % 255 == 0)
        return argb(a, r * a / 255, g * a / 255, b * a / 255)
    }
}

/// A random straight colour from a small palette of exactly-premultipliable alphas.
func randomStraight(_ rng: inout SplitMix64, translucent: Bool) -> Straight {
    if !translucent || rng.chance(0.5) {
        return Straight(r: rng.int(0...255), g: rng.int(0...255), b: rng.int(0...255), a: 255)
    }
    switch rng.int(0...2) {
    case 0: return Straight(r: 0, g: 0, b: 0, a: 0)
    case 1: return Straight(r: rng.int(0...51) * 5, g: rng.int(0...51) * 5, b: rng.int(0...51) * 5, a: 51)
    default: return Straight(r: rng.int(0...85) * 3, g: rng.int(0...85) * 3, b: rng.int(0...85) * 3, a: 85)
    }
}

// MARK: - images

struct Image {
    var width: Int
    var height: Int
    var pixels: [UInt32]

    init(width: Int, height: Int, fill: UInt32) {
        self.width = width
        self.height = height
        pixels = [UInt32](repeating: fill, count: width * height)
    }

    subscript(x: Int, y: Int) -> UInt32 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    mutating func fillRect(x: Int, y: Int, w: Int, h: Int, _ c: UInt32) {
        let x0 = max(0, x)
        let x1 = min(width, x + w)
        let y0 = max(0, y)
        let y1 = min(height, y + h)
        guard x0 < x1, y0 < y1 else { return }
        for yy in y0..<y1 {
            for xx in x0..<x1 { self[xx, yy] = c }
        }
    }

    /// Source-over of an opaque colour with coverage `cov` onto an opaque pixel.
    mutating func blend(x: Int, y: Int, colour: (Int, Int, Int), cov: Double) {
        guard x >= 0, y >= 0, x < width, y < height, cov > 0 else { return }
        let d = self[x, y]
        func mix(_ s: Int, _ dst: UInt32) -> Int {
            Int((Double(s) * cov + Double(dst) * (1 - cov)).rounded())
        }
        self[x, y] = opaque(
            mix(colour.0, (d >> 16) & 255), mix(colour.1, (d >> 8) & 255), mix(colour.2, d & 255))
    }

    /// A filled disc with an anti-aliased edge `softness` pixels wide.
    mutating func softDisc(cx: Double, cy: Double, radius: Double, softness: Double, colour: (Int, Int, Int)) {
        let ext = Int(radius + softness + 2)
        for y in (Int(cy) - ext)...(Int(cy) + ext) {
            for x in (Int(cx) - ext)...(Int(cx) + ext) {
                let dx = Double(x) + 0.5 - cx
                let dy = Double(y) + 0.5 - cy
                let d = (dx * dx + dy * dy).squareRoot() - radius
                blend(x: x, y: y, colour: colour, cov: min(1, max(0, 0.5 - d / softness)))
            }
        }
    }
}

/// A UI-like random image: a background and a few flat rectangles (so there are runs of equal
/// pixels, which the anti-aliasing test cares about), plus some noise.
func randomStructuredImage(_ rng: inout SplitMix64, width: Int, height: Int, translucent: Bool = false) -> Image {
    var img = Image(width: width, height: height, fill: randomStraight(&rng, translucent: translucent).premultiplied)
    for _ in 0..<rng.int(0...6) {
        img.fillRect(
            x: rng.int(-4...width), y: rng.int(-4...height), w: rng.int(1...max(1, width)),
            h: rng.int(1...max(1, height)), randomStraight(&rng, translucent: translucent).premultiplied)
    }
    for _ in 0..<rng.int(0...(width * height / 8)) {
        img[rng.int(0...(width - 1)), rng.int(0...(height - 1))] =
            randomStraight(&rng, translucent: translucent).premultiplied
    }
    return img
}

/// A copy of `img` with a few random changes: recoloured rectangles, single pixels, and small
/// perturbations (below and above the threshold).
func randomlyModified(_ img: Image, _ rng: inout SplitMix64, translucent: Bool = false) -> Image {
    var out = img
    let w = img.width
    let h = img.height
    for _ in 0..<rng.int(0...3) {
        out.fillRect(
            x: rng.int(0...(w - 1)), y: rng.int(0...(h - 1)), w: rng.int(1...max(1, w / 3)),
            h: rng.int(1...max(1, h / 3)), randomStraight(&rng, translucent: translucent).premultiplied)
    }
    for _ in 0..<rng.int(0...(w * h / 10 + 1)) {
        let x = rng.int(0...(w - 1))
        let y = rng.int(0...(h - 1))
        if rng.chance(0.5) {
            out[x, y] = randomStraight(&rng, translucent: translucent).premultiplied
        } else if out[x, y] >> 24 == 255 {
            // nudge an opaque pixel's channels a little
            let p = out[x, y]
            func nudge(_ c: UInt32) -> Int { max(0, min(255, Int(c & 255) + rng.int(-12...12))) }
            out[x, y] = opaque(nudge(p >> 16), nudge(p >> 8), nudge(p))
        }
    }
    return out
}

/// The image as straight RGBA bytes (pixelmatch's input layout). Only for exactly premultiplied
/// images made with `Straight`.
func straightRGBA(_ img: Image) -> [UInt8] {
    var out = [UInt8]()
    out.reserveCapacity(img.pixels.count * 4)
    for p in img.pixels {
        let a = Int(p >> 24)
        func un(_ c: UInt32) -> UInt8 { a == 0 ? 0 : UInt8(Int(c & 255) * 255 / a) }
        out += [un(p >> 16), un(p >> 8), un(p), UInt8(a)]
    }
    return out
}

// MARK: - a literal reference port of pixelmatch, on straight RGBA bytes

/// Written to follow pixelmatch's index.js line by line (loops, early returns, border rule), as an
/// independent check of the optimised implementation. `checkerboard` selects pixelmatch 7's
/// background for translucent pixels; otherwise white (pixelmatch <= 6).
struct ReferencePixelmatch {
    var threshold = 0.1
    var includeAA = false
    var checkerboard = false
    var alpha = 0.1

    struct Output {
        var diff: Int
        var aa: Int  // pixels pixelmatch would draw yellow (only when !includeAA)
        var counted: [Bool]
        var diffImage: [UInt8]  // RGBA
    }

    func run(_ img1: [UInt8], _ img2: [UInt8], width: Int, height: Int) -> Output {
        var output = [UInt8](repeating: 0, count: width * height * 4)
        var counted = [Bool](repeating: false, count: width * height)
        let maxDelta = 35215 * threshold * threshold
        var diff = 0
        var aa = 0
        for y in 0..<height {
            for x in 0..<width {
                let pos = (y * width + x) * 4
                let delta = colorDelta(img1, img2, pos, pos, yOnly: false)
                if abs(delta) > maxDelta {
                    if !includeAA
                        && (antialiased(img1, x, y, width, height, img2)
                            || antialiased(img2, x, y, width, height, img1))
                    {
                        drawPixel(&output, pos, 255, 255, 0)
                        aa += 1
                    } else {
                        drawPixel(&output, pos, 255, 0, 0)
                        counted[y * width + x] = true
                        diff += 1
                    }
                } else {
                    drawGrayPixel(img1, pos, &output)
                }
            }
        }
        return Output(diff: diff, aa: aa, counted: counted, diffImage: output)
    }

    func antialiased(_ img: [UInt8], _ x1: Int, _ y1: Int, _ width: Int, _ height: Int, _ img2: [UInt8]) -> Bool {
        let x0 = max(x1 - 1, 0)
        let y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1)
        let y2 = min(y1 + 1, height - 1)
        let pos = (y1 * width + x1) * 4
        var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
        var min = 0.0
        var max = 0.0
        var minX = 0
        var minY = 0
        var maxX = 0
        var maxY = 0
        for x in x0...x2 {
            for y in y0...y2 {
                if x == x1 && y == y1 { continue }
                let delta = colorDelta(img, img, pos, (y * width + x) * 4, yOnly: true)
                if delta == 0 {
                    zeroes += 1
                    if zeroes > 2 { return false }
                } else if delta < min {
                    min = delta
                    minX = x
                    minY = y
                } else if delta > max {
                    max = delta
                    maxX = x
                    maxY = y
                }
            }
        }
        if min == 0 || max == 0 { return false }
        return (hasManySiblings(img, minX, minY, width, height) && hasManySiblings(img2, minX, minY, width, height))
            || (hasManySiblings(img, maxX, maxY, width, height) && hasManySiblings(img2, maxX, maxY, width, height))
    }

    func hasManySiblings(_ img: [UInt8], _ x1: Int, _ y1: Int, _ width: Int, _ height: Int) -> Bool {
        let x0 = max(x1 - 1, 0)
        let y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1)
        let y2 = min(y1 + 1, height - 1)
        let pos = (y1 * width + x1) * 4
        var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
        for x in x0...x2 {
            for y in y0...y2 {
                if x == x1 && y == y1 { continue }
                let pos2 = (y * width + x) * 4
                if img[pos] == img[pos2] && img[pos + 1] == img[pos2 + 1] && img[pos + 2] == img[pos2 + 2]
                    && img[pos + 3] == img[pos2 + 3]
                {
                    zeroes += 1
                }
                if zeroes > 2 { return true }
            }
        }
        return false
    }

    func colorDelta(_ img1: [UInt8], _ img2: [UInt8], _ k: Int, _ m: Int, yOnly: Bool) -> Double {
        let r1 = Double(img1[k])
        let g1 = Double(img1[k + 1])
        let b1 = Double(img1[k + 2])
        let a1 = Double(img1[k + 3])
        let r2 = Double(img2[m])
        let g2 = Double(img2[m + 1])
        let b2 = Double(img2[m + 2])
        let a2 = Double(img2[m + 3])
        if a1 == a2 && r1 == r2 && g1 == g2 && b1 == b2 { return 0 }
        var dr = r1 - r2
        var dg = g1 - g2
        var db = b1 - b2
        if a1 < 255 || a2 < 255 {
            let da = a1 - a2
            let rb: Double
            let gb: Double
            let bb: Double
            if checkerboard {
                rb = Double(48 + 159 * (k % 2))
                gb = Double(48 + 159 * (Int(Double(k) / 1.618033988749895) % 2))
                bb = Double(48 + 159 * (Int(Double(k) / 2.618033988749895) % 2))
            } else {
                rb = 255
                gb = 255
                bb = 255
            }
            dr = (r1 * a1 - r2 * a2 - rb * da) / 255
            dg = (g1 * a1 - g2 * a2 - gb * da) / 255
            db = (b1 * a1 - b2 * a2 - bb * da) / 255
        }
        let y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
        if yOnly { return y }
        let i = dr * 0.59597799 - dg * 0.27417610 - db * 0.32180189
        let q = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694
        let delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
        return y > 0 ? -delta : delta
    }

    func drawPixel(_ output: inout [UInt8], _ pos: Int, _ r: UInt8, _ g: UInt8, _ b: UInt8) {
        output[pos] = r
        output[pos + 1] = g
        output[pos + 2] = b
        output[pos + 3] = 255
    }

    func drawGrayPixel(_ img: [UInt8], _ i: Int, _ output: inout [UInt8]) {
        let y = Double(img[i]) * 0.29889531 + Double(img[i + 1]) * 0.58662247 + Double(img[i + 2]) * 0.11448223
        let val = 255 + (y - 255) * alpha * Double(img[i + 3]) / 255
        let v = UInt8(Swift.max(0, Swift.min(255, val.rounded(.towardZero))))
        drawPixel(&output, i, v, v, v)
    }
}

/// Connected components (8-connectivity) of a mask by flood fill: bounding boxes, sorted by y, x,
/// height, width.
func referenceRegions(_ mask: [Bool], width: Int, height: Int) -> [PixelRegion] {
    var seen = [Bool](repeating: false, count: mask.count)
    var boxes: [PixelRegion] = []
    for start in 0..<mask.count where mask[start] && !seen[start] {
        var stack = [start]
        seen[start] = true
        var x0 = Int.max
        var y0 = Int.max
        var x1 = Int.min
        var y1 = Int.min
        while let i = stack.popLast() {
            let x = i % width
            let y = i / width
            x0 = min(x0, x)
            x1 = max(x1, x)
            y0 = min(y0, y)
            y1 = max(y1, y)
            for dy in -1...1 {
                for dx in -1...1 {
                    let nx = x + dx
                    let ny = y + dy
                    if nx < 0 || ny < 0 || nx >= width || ny >= height { continue }
                    let j = ny * width + nx
                    if mask[j] && !seen[j] {
                        seen[j] = true
                        stack.append(j)
                    }
                }
            }
        }
        boxes.append(PixelRegion(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1))
    }
    return boxes.sorted { l, r in
        (l.y, l.x, l.height, l.width) < (r.y, r.x, r.height, r.width)
    }
}
