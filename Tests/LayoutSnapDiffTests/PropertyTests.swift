import LayoutSnapCore
import LayoutSnapDiff
import LayoutSnapTestSupport
import XCTest

/// Seeded property tests over small random images (1...64 px sides).
final class PropertyTests: XCTestCase {

    func testImageAgainstItselfIsIdentical() {
        var rng = SplitMix64(seed: 1)
        for case_ in 0..<400 {
            let w = rng.int(1...64)
            let h = rng.int(1...64)
            let img = randomStructuredImage(&rng, width: w, height: h, translucent: case_ % 2 == 0)
            let copy = img.pixels.map { $0 }  // a distinct buffer
            for other in [img.pixels, copy] {
                let (r, diffImage) = PixelDiff.compareWithDiffImage(
                    img.pixels, other, width: w, height: h,
                    options: DiffOptions(threshold: 0, includeAntialiasing: case_ % 3 == 0))
                XCTAssertTrue(r.isIdentical, "case \(case_)")
                XCTAssertEqual(r.differentPixels, 0)
                XCTAssertEqual(r.antialiasedPixels, 0)
                XCTAssertEqual(r.ratio, 0)
                XCTAssertEqual(r.maxChannelDifference, 0)
                XCTAssertEqual(r.regions, [])
                XCTAssertEqual(r.clusterCount, 0)
                XCTAssertEqual(r.verdict(), .identical)
                XCTAssertEqual(r.width, w)
                XCTAssertEqual(r.height, h)
                // the diff image is the faded grayscale, opaque and gray everywhere
                for p in diffImage {
                    XCTAssertEqual(p >> 24, 255)
                    XCTAssertEqual((p >> 16) & 255, p & 255)
                    XCTAssertEqual((p >> 8) & 255, p & 255)
                    XCTAssertGreaterThanOrEqual(p & 255, 229)  // 255 - 0.1 * 255, rounded down
                }
            }
        }
    }

    func testSingleChangedPixelIsFoundAtItsPlace() {
        var rng = SplitMix64(seed: 2)
        for case_ in 0..<400 {
            let w = rng.int(1...64)
            let h = rng.int(1...64)
            // Noise (every pixel random) cannot look like anti-aliasing: no pixel has equal siblings.
            // Structured images are checked with includeAntialiasing, where the count is exact anyway.
            let noise = case_ % 2 == 0
            var a = Image(width: w, height: h, fill: 0)
            if noise {
                for i in 0..<a.pixels.count {
                    a.pixels[i] = opaque(rng.int(0...255), rng.int(0...255), rng.int(0...255))
                }
            } else {
                a = randomStructuredImage(&rng, width: w, height: h, translucent: case_ % 4 == 1)
            }
            let x = rng.int(0...(w - 1))
            let y = rng.int(0...(h - 1))
            var b = a
            let old = a[x, y]
            let oa = Int(old >> 24)
            // straight colour of the old pixel, then a large change of every channel
            func straight(_ c: UInt32) -> Int { oa == 0 ? 0 : min(255, (Int(c & 255) * 255 + oa / 2) / oa) }
            let (r0, g0, b0) = (straight(old >> 16), straight(old >> 8), straight(old))
            // what the comparison sees: the colour composited onto white
            func composite(_ c: UInt32) -> Int { Int(c & 255) + 255 - oa }
            let (r1, g1, b1) = (
                composite(old >> 16) < 128 ? 255 : 0, composite(old >> 8) < 128 ? 255 : 0,
                composite(old) < 128 ? 255 : 0
            )
            b[x, y] = opaque(r1, g1, b1)
            let expectedMax = max(abs(r1 - r0), abs(g1 - g0), abs(b1 - b0), 255 - oa)
            let options = DiffOptions(includeAntialiasing: !noise)
            let r = PixelDiff.compare(a.pixels, b.pixels, width: w, height: h, options: options)
            XCTAssertEqual(r.differentPixels, 1, "case \(case_) \(w)x\(h) at \(x),\(y)")
            XCTAssertEqual(r.regions, [PixelRegion(x: x, y: y, width: 1, height: 1)], "case \(case_)")
            XCTAssertEqual(r.clusterCount, 1)
            XCTAssertEqual(r.maxChannelDifference, expectedMax, "case \(case_)")
            XCTAssertFalse(r.isIdentical)
            XCTAssertEqual(r.ratio, 1 / Double(w * h))
            XCTAssertEqual(r.verdict(), .different(DiffFigures(r)))
            XCTAssertEqual(r.verdict(tolerance: DiffTolerance(maxDiffPixels: 1)), .similar(DiffFigures(r)))
        }
    }

    func testShiftedAntialiasedGlyphIsMostlyAntialiasing() {
        var rng = SplitMix64(seed: 3)
        var totalAA = 0
        var totalDiff = 0
        for case_ in 0..<300 {
            let w = rng.int(24...64)
            let h = rng.int(24...64)
            let bg = opaque(rng.int(200...255), rng.int(200...255), rng.int(200...255))
            let ink = (rng.int(0...80), rng.int(0...80), rng.int(0...80))
            let radius = 3 + rng.unit() * Double(min(w, h) / 2 - 8)
            let cx = Double(w) / 2 + rng.unit() - 1
            let cy = Double(h) / 2 + rng.unit()
            let softness = 1.2 + rng.unit() * 1.3
            var a = Image(width: w, height: h, fill: bg)
            var b = a
            a.softDisc(cx: cx, cy: cy, radius: radius, softness: softness, colour: ink)
            b.softDisc(cx: cx + 1, cy: cy, radius: radius, softness: softness, colour: ink)

            let r = PixelDiff.compare(a.pixels, b.pixels, width: w, height: h)
            XCTAssertGreaterThan(r.antialiasedPixels, r.differentPixels, "case \(case_): \(r)")
            let rAA = PixelDiff.compare(
                a.pixels, b.pixels, width: w, height: h, options: DiffOptions(includeAntialiasing: true))
            XCTAssertGreaterThan(rAA.differentPixels, r.differentPixels, "case \(case_)")
            // the anti-aliased pixels are exactly what includeAntialiasing adds
            XCTAssertEqual(rAA.differentPixels, r.differentPixels + r.antialiasedPixels, "case \(case_)")
            XCTAssertEqual(rAA.antialiasedPixels, r.antialiasedPixels)
            totalAA += r.antialiasedPixels
            totalDiff += r.differentPixels
        }
        XCTAssertGreaterThan(totalAA, 4 * totalDiff, "AA \(totalAA) vs counted \(totalDiff)")
    }

    /// The exact figures FrameComparison takes from the perceptual scan are ExactDiff.measure's,
    /// straight (invisible words equal) and premultiplied, with and without a tolerance.
    func testOneScanGivesTheExactFigures() {
        var rng = SplitMix64(seed: 21)
        var changed = 0
        for case_ in 0..<400 {
            let w = rng.int(1...64)
            let h = rng.int(1...64)
            let translucent = case_ % 2 == 0
            var a = randomStructuredImage(&rng, width: w, height: h, translucent: translucent)
            var b = randomlyModified(a, &rng, translucent: translucent)
            if case_ % 7 == 0 {  // invisible words that differ only in the colour under alpha 0
                for i in stride(from: 0, to: b.pixels.count, by: 5) {
                    a.pixels[i] = 0x00AB_CDEF
                    b.pixels[i] = 0x0012_3456
                }
            }
            let straight = case_ % 3 != 0
            var drawing = DiffOptions(transparencyBackground: case_ % 4 == 0 ? .white : .checkerboard)
            drawing.straightAlpha = straight
            let tolerance: Tolerance? = case_ % 5 == 0 ? nil : Tolerance()
            let outcome = a.pixels.withUnsafeBufferPointer { pa in
                b.pixels.withUnsafeBufferPointer { pb in
                    FrameComparison.compare(
                        expected: pa, actual: pb, width: w, height: h, tolerance: tolerance, drawing: drawing)
                }
            }
            let measured = a.pixels.withUnsafeBufferPointer { pa in
                b.pixels.withUnsafeBufferPointer { pb in ExactDiff.measure(pa, pb, invisibleAreEqual: straight) }
            }
            XCTAssertEqual(outcome.exact, measured, "case \(case_)")
            XCTAssertEqual(outcome.comparison == .identical, measured.changedPixels == 0, "case \(case_)")
            changed += measured.changedPixels
        }
        XCTAssertGreaterThan(changed, 1000, "the cases must change pixels for the check to mean anything")
    }

    func testCountIsSymmetric() {
        var rng = SplitMix64(seed: 4)
        for case_ in 0..<400 {
            let w = rng.int(1...64)
            let h = rng.int(1...64)
            let translucent = case_ % 3 == 0
            let a = randomStructuredImage(&rng, width: w, height: h, translucent: translucent)
            let b = randomlyModified(a, &rng, translucent: translucent)
            let options = DiffOptions(
                threshold: [0, 0.05, 0.1, 0.3][case_ % 4],
                transparencyBackground: case_ % 5 == 0 ? .checkerboard : .white)
            let ab = PixelDiff.compare(a.pixels, b.pixels, width: w, height: h, options: options)
            let ba = PixelDiff.compare(b.pixels, a.pixels, width: w, height: h, options: options)
            XCTAssertEqual(ab.differentPixels, ba.differentPixels, "case \(case_)")
            XCTAssertEqual(ab.antialiasedPixels, ba.antialiasedPixels, "case \(case_)")
            XCTAssertEqual(ab.regions, ba.regions, "case \(case_)")
            XCTAssertEqual(ab.maxChannelDifference, ba.maxChannelDifference, "case \(case_)")
        }
    }

    func testThresholdZeroCountsEveryUnequalPixelAndHigherThresholdsNeverCountMore() {
        var rng = SplitMix64(seed: 5)
        let thresholds = [0, 0.01, 0.03, 0.05, 0.1, 0.2, 0.4, 0.7, 1.0]
        for case_ in 0..<300 {
            let w = rng.int(1...64)
            let h = rng.int(1...64)
            let a = randomStructuredImage(&rng, width: w, height: h)  // opaque
            let b = randomlyModified(a, &rng)
            let unequal = zip(a.pixels, b.pixels).filter { $0 != $1 }.count

            let all = PixelDiff.compare(
                a.pixels, b.pixels, width: w, height: h, options: DiffOptions(threshold: 0, includeAntialiasing: true))
            XCTAssertEqual(all.differentPixels, unequal, "case \(case_)")
            XCTAssertEqual(all.isIdentical, unequal == 0)
            let zero = PixelDiff.compare(a.pixels, b.pixels, width: w, height: h, options: DiffOptions(threshold: 0))
            XCTAssertEqual(zero.differentPixels + zero.antialiasedPixels, unequal, "case \(case_)")

            for includeAA in [false, true] {
                var previous = Int.max
                var previousAA = Int.max
                for t in thresholds {
                    let r = PixelDiff.compare(
                        a.pixels, b.pixels, width: w, height: h,
                        options: DiffOptions(threshold: t, includeAntialiasing: includeAA))
                    XCTAssertLessThanOrEqual(r.differentPixels, previous, "case \(case_) threshold \(t)")
                    XCTAssertLessThanOrEqual(r.antialiasedPixels, previousAA, "case \(case_) threshold \(t)")
                    previous = r.differentPixels
                    previousAA = r.antialiasedPixels
                }
            }
        }
    }

    /// The optimised implementation agrees with a literal port of pixelmatch on counts, on the
    /// counted pixels (via their clusters) and on the diff image, byte for byte.
    func testAgreesWithLiteralPixelmatchPort() {
        var rng = SplitMix64(seed: 6)
        var totalAA = 0
        var totalDiff = 0
        var casesWithAA = 0
        var borderAA = 0
        defer {
            // the random cases must actually exercise the anti-aliasing test, borders included
            XCTAssertGreaterThan(casesWithAA, 40, "cases with AA pixels")
            XCTAssertGreaterThan(totalAA, 200)
            XCTAssertGreaterThan(totalDiff, 2000)
            XCTAssertGreaterThan(borderAA, 10, "AA pixels on the border")
        }
        for case_ in 0..<400 {
            let w = rng.int(1...48)
            let h = rng.int(1...48)
            let translucent = case_ % 3 == 0
            let a = randomStructuredImage(&rng, width: w, height: h, translucent: translucent)
            let b = randomlyModified(a, &rng, translucent: translucent)
            let threshold = [0, 0.05, 0.1, 0.25][case_ % 4]
            let includeAA = case_ % 5 == 4
            let checker = case_ % 6 == 0
            let alpha = case_ % 7 == 0 ? 0.5 : 0.1
            let ref = ReferencePixelmatch(
                threshold: threshold, includeAA: includeAA, checkerboard: checker, alpha: alpha
            )
            .run(straightRGBA(a), straightRGBA(b), width: w, height: h)
            let options = DiffOptions(
                threshold: threshold, includeAntialiasing: includeAA,
                transparencyBackground: checker ? .checkerboard : .white, alpha: alpha)
            let (r, diffImage) = PixelDiff.compareWithDiffImage(
                a.pixels, b.pixels, width: w, height: h, options: options)
            XCTAssertEqual(r.differentPixels, ref.diff, "case \(case_)")
            if !includeAA { XCTAssertEqual(r.antialiasedPixels, ref.aa, "case \(case_)") }
            totalAA += ref.aa
            totalDiff += ref.diff
            if ref.aa > 0 { casesWithAA += 1 }
            for i in 0..<(w * h) where ref.diffImage[i * 4 + 2] == 0 && ref.diffImage[i * 4 + 1] == 255 {
                let x = i % w
                let y = i / w
                if x == 0 || y == 0 || x == w - 1 || y == h - 1 { borderAA += 1 }
            }
            let refRegions = referenceRegions(ref.counted, width: w, height: h)
            if refRegions.count <= PixelDiff.maxRegions { XCTAssertEqual(r.regions, refRegions, "case \(case_)") }
            XCTAssertEqual(r.clusterCount, refRegions.count, "case \(case_)")
            var refWords = [UInt32]()
            for i in 0..<(w * h) {
                let o = ref.diffImage
                refWords.append(argb(Int(o[i * 4 + 3]), Int(o[i * 4]), Int(o[i * 4 + 1]), Int(o[i * 4 + 2])))
            }
            XCTAssertEqual(diffImage, refWords, "case \(case_)")
        }
    }

    func testRegionsMatchFloodFill() {
        var rng = SplitMix64(seed: 7)
        for case_ in 0..<300 {
            let w = rng.int(1...64)
            let h = rng.int(1...64)
            let a = Image(width: w, height: h, fill: opaque(255, 255, 255))
            var b = a
            var mask = [Bool](repeating: false, count: w * h)
            let density = [0.01, 0.05, 0.2, 0.5][case_ % 4]
            for i in 0..<(w * h) where rng.chance(density) {
                mask[i] = true
                b.pixels[i] = opaque(0, 0, 0)
            }
            let r = PixelDiff.compare(
                a.pixels, b.pixels, width: w, height: h, options: DiffOptions(includeAntialiasing: true))
            let expected = referenceRegions(mask, width: w, height: h)
            XCTAssertEqual(r.differentPixels, mask.filter { $0 }.count)
            XCTAssertEqual(r.clusterCount, expected.count, "case \(case_)")
            if expected.count <= PixelDiff.maxRegions {
                XCTAssertEqual(r.regions, expected, "case \(case_)")
            } else {
                XCTAssertEqual(r.regions.count, PixelDiff.maxRegions)
                XCTAssertEqual(Array(r.regions.prefix(99)), Array(expected.prefix(99)), "case \(case_)")
                let rest = expected[99...]
                let x0 = rest.map(\.x).min()!
                let y0 = rest.map(\.y).min()!
                let x1 = rest.map { $0.x + $0.width }.max()!
                let y1 = rest.map { $0.y + $0.height }.max()!
                XCTAssertEqual(r.regions.last, PixelRegion(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
            }
        }
    }

    /// Larger masks (ids are recycled as clusters finish), shapes that merge late (combs, spirals,
    /// diagonals), and gaps of empty rows.
    func testRegionsMatchFloodFillOnLargerAndHarderShapes() {
        var rng = SplitMix64(seed: 8)
        for case_ in 0..<120 {
            let w = rng.int(1...300)
            let h = rng.int(1...200)
            var mask = [Bool](repeating: false, count: w * h)
            func set(_ x: Int, _ y: Int) { if x >= 0 && y >= 0 && x < w && y < h { mask[y * w + x] = true } }
            switch case_ % 4 {
            case 0:  // random noise of varying density
                let d = rng.unit() * 0.6
                for i in 0..<(w * h) where rng.chance(d) { mask[i] = true }
            case 1:  // combs: teeth joined by a bar at the bottom (or top)
                let teeth = rng.int(1...40)
                let bar = rng.int(0...(h - 1))
                for _ in 0..<teeth {
                    let x = rng.int(0...(w - 1))
                    for y in 0..<bar { set(x, y) }
                }
                for x in 0..<w where rng.chance(0.9) { set(x, bar) }
            case 2:  // diagonal lines (connected only through corners) and empty rows
                for _ in 0..<rng.int(1...30) {
                    var x = rng.int(0...(w - 1))
                    var y = rng.int(0...(h - 1))
                    let dx = rng.chance(0.5) ? 1 : -1
                    for _ in 0..<rng.int(1...80) {
                        set(x, y)
                        x += dx
                        y += 1
                    }
                }
            default:  // random rectangles and single pixels
                for _ in 0..<rng.int(1...200) {
                    let x = rng.int(0...(w - 1))
                    let y = rng.int(0...(h - 1))
                    let rw = rng.chance(0.5) ? 1 : rng.int(1...12)
                    let rh = rng.chance(0.5) ? 1 : rng.int(1...12)
                    for yy in y..<(y + rh) { for xx in x..<(x + rw) { set(xx, yy) } }
                }
            }
            let a = Image(width: w, height: h, fill: opaque(255, 255, 255))
            var b = a
            for i in 0..<(w * h) where mask[i] { b.pixels[i] = opaque(0, 0, 0) }
            let r = PixelDiff.compare(
                a.pixels, b.pixels, width: w, height: h, options: DiffOptions(includeAntialiasing: true))
            let expected = referenceRegions(mask, width: w, height: h)
            XCTAssertEqual(r.clusterCount, expected.count, "case \(case_)")
            if expected.count <= PixelDiff.maxRegions {
                XCTAssertEqual(r.regions, expected, "case \(case_)")
            } else {
                XCTAssertEqual(Array(r.regions.prefix(99)), Array(expected.prefix(99)), "case \(case_)")
                let rest = expected[99...]
                let x0 = rest.map(\.x).min()!
                let y0 = rest.map(\.y).min()!
                let x1 = rest.map { $0.x + $0.width }.max()!
                let y1 = rest.map { $0.y + $0.height }.max()!
                XCTAssertEqual(
                    r.regions.last, PixelRegion(x: x0, y: y0, width: x1 - x0, height: y1 - y0), "case \(case_)")
            }
        }
    }
}
