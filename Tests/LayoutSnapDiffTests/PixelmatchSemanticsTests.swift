import LayoutSnapCore
import LayoutSnapDiff
import LayoutSnapTestSupport
import XCTest

/// Hand-worked cases of pixelmatch's rules (constants, anti-aliasing test, diff image, options).
final class PixelmatchSemanticsTests: XCTestCase {
    let white = opaque(255, 255, 255)
    let black = opaque(0, 0, 0)

    func count(_ a: [UInt32], _ b: [UInt32], _ w: Int, _ h: Int, _ options: DiffOptions = DiffOptions()) -> DiffResult {
        PixelDiff.compare(a, b, width: w, height: h, options: options)
    }

    // MARK: colour distance

    func testBlackVersusWhiteThresholdBoundary() {
        // delta = 0.5053 * (255 * 1.00000001)^2 = 32857.13...; counted while 35215 t^2 < delta,
        // i.e. t < 0.965941...
        XCTAssertEqual(count([black], [white], 1, 1, DiffOptions(threshold: 0.96594)).differentPixels, 1)
        XCTAssertEqual(count([black], [white], 1, 1, DiffOptions(threshold: 0.96595)).differentPixels, 0)
        XCTAssertEqual(count([black], [white], 1, 1).differentPixels, 1)
        XCTAssertEqual(count([black], [white], 1, 1).maxChannelDifference, 255)
    }

    func testMaximumDistanceIsJustBelow35215() {
        // cyan vs red is the largest YIQ distance (35214.75): never counted at threshold 1
        let cyan = opaque(0, 255, 255)
        let red = opaque(255, 0, 0)
        XCTAssertEqual(count([cyan], [red], 1, 1, DiffOptions(threshold: 0.9999)).differentPixels, 1)
        XCTAssertEqual(count([cyan], [red], 1, 1, DiffOptions(threshold: 1)).differentPixels, 0)
    }

    func testSmallChangesAreBelowTheDefaultThreshold() {
        // maxDelta at 0.1 is 352.15; a gray step of 10 gives 0.5053 * 100 = 50.5
        let a = opaque(100, 100, 100)
        let b = opaque(110, 110, 110)
        let r = count([a], [b], 1, 1)
        XCTAssertEqual(r.differentPixels, 0)
        XCTAssertFalse(r.isIdentical)
        XCTAssertEqual(r.verdict(), .similar(DiffFigures(r)))
        // a gray step of 27: 0.5053 * 729 = 368.4 > 352.15
        XCTAssertEqual(count([a], [opaque(127, 127, 127)], 1, 1).differentPixels, 1)
        XCTAssertEqual(count([a], [opaque(126, 126, 126)], 1, 1).differentPixels, 0)
    }

    func testTranslucentPixelsAreCompositedOntoWhite() {
        // fully transparent and opaque white look the same on white
        let clear = argb(0, 0, 0, 0)
        let r = count([clear, clear], [white, white], 2, 1, DiffOptions(threshold: 0))
        XCTAssertEqual(r.differentPixels, 0)
        XCTAssertFalse(r.isIdentical)
        // 50%-ish black (premultiplied 0,0,0 with alpha 128) is mid gray on white: 127 vs 255
        let halfBlack = argb(128, 0, 0, 0)
        XCTAssertEqual(count([halfBlack], [opaque(127, 127, 127)], 1, 1, DiffOptions(threshold: 0)).differentPixels, 0)
        XCTAssertEqual(count([halfBlack], [opaque(126, 126, 126)], 1, 1, DiffOptions(threshold: 0)).differentPixels, 1)
        // maxChannelDifference uses straight colour: transparent vs white differs by 255 in alpha
        let r2 = count([clear], [white], 1, 1, DiffOptions(threshold: 0, transparencyBackground: .checkerboard))
        XCTAssertEqual(r2.differentPixels, 1, "on pixelmatch 7's checkerboard they differ")
        XCTAssertEqual(r2.maxChannelDifference, 255)
    }

    // MARK: anti-aliasing

    /// Columns: black, black, gray, white, white. The gray column is an anti-aliased edge: every
    /// gray pixel has a darker and a brighter neighbour, both with many equal siblings.
    func testAntialiasedEdgeColumnIsNotCounted() {
        let w = 5
        let h = 5
        var a = Image(width: w, height: h, fill: white)
        a.fillRect(x: 0, y: 0, w: 2, h: h, black)
        a.fillRect(x: 2, y: 0, w: 1, h: h, opaque(128, 128, 128))
        var b = a
        b.fillRect(x: 2, y: 0, w: 1, h: h, opaque(200, 200, 200))  // a different edge intensity

        let r = count(a.pixels, b.pixels, w, h)
        XCTAssertEqual(r.differentPixels, 0)
        XCTAssertEqual(r.antialiasedPixels, 5)
        XCTAssertEqual(r.regions, [])
        XCTAssertEqual(r.verdict(), .similar(DiffFigures(r)))

        let rAA = count(a.pixels, b.pixels, w, h, DiffOptions(includeAntialiasing: true))
        XCTAssertEqual(rAA.differentPixels, 5)
        XCTAssertEqual(rAA.regions, [PixelRegion(x: 2, y: 0, width: 1, height: 5)])
        XCTAssertEqual(rAA.maxChannelDifference, 72)
    }

    func testIsolatedDotIsCounted() {
        // A dot on a flat background: in A the centre has 8 equal siblings; in B all neighbours are
        // on the same side (all brighter), so neither image sees an edge.
        let w = 7
        let h = 6
        let a = Image(width: w, height: h, fill: white)
        var b = a
        b[3, 2] = opaque(40, 40, 40)
        let r = count(a.pixels, b.pixels, w, h)
        XCTAssertEqual(r.differentPixels, 1)
        XCTAssertEqual(r.antialiasedPixels, 0)
        XCTAssertEqual(r.regions, [PixelRegion(x: 3, y: 2, width: 1, height: 1)])
        XCTAssertEqual(r.maxChannelDifference, 215)
    }

    func testEdgeWhoseDarkSideIsNotFlatIsCounted() {
        // Same as the edge column, but the black side is noisy, so the darkest neighbour has no
        // equal siblings; the bright side is flat in A but changed in B next to the edge, so it
        // fails "many siblings in both images" as well.
        let w = 5
        let h = 5
        var a = Image(width: w, height: h, fill: white)
        for y in 0..<h {
            a[0, y] = opaque(y * 7, 0, 0)
            a[1, y] = opaque(0, y * 9 + 1, 3)
        }
        a.fillRect(x: 2, y: 0, w: 1, h: h, opaque(128, 128, 128))
        var b = a
        b.fillRect(x: 2, y: 0, w: 1, h: h, opaque(200, 200, 200))
        for y in 0..<h { b[3, y] = opaque(255, 254 - y, 255) }  // too small to count, breaks siblings
        let r = count(a.pixels, b.pixels, w, h)
        XCTAssertEqual(r.antialiasedPixels, 0)
        XCTAssertEqual(r.differentPixels, 5)
        XCTAssertEqual(r.regions, [PixelRegion(x: 2, y: 0, width: 1, height: 5)])
    }

    func testTinyImagesNeverLookAntialiased() {
        // 1x1: no neighbours; 1xN: pixelmatch's border rule still applies
        XCTAssertEqual(count([black], [white], 1, 1).antialiasedPixels, 0)
        let a: [UInt32] = [black, opaque(128, 128, 128), white]
        let b: [UInt32] = [black, opaque(200, 200, 200), white]
        let r = count(a, b, 3, 1)
        // centre: zeroes starts at 1 (border), black is darker, white brighter; but no pixel of
        // a 3x1 image has 3 equal siblings, so it is counted
        XCTAssertEqual(r.antialiasedPixels, 0)
        XCTAssertEqual(r.differentPixels, 1)
    }

    // MARK: diff image

    func testDiffImageColours() {
        let w = 5
        let h = 5
        var a = Image(width: w, height: h, fill: white)
        a.fillRect(x: 0, y: 0, w: 2, h: h, black)
        a.fillRect(x: 2, y: 0, w: 1, h: h, opaque(128, 128, 128))
        var b = a
        b.fillRect(x: 2, y: 0, w: 1, h: h, opaque(200, 200, 200))
        b[4, 4] = opaque(255, 0, 0)  // counted

        let (r, img) = PixelDiff.compareWithDiffImage(a.pixels, b.pixels, width: w, height: h)
        XCTAssertEqual(r.differentPixels, 1)
        XCTAssertEqual(r.antialiasedPixels, 5)
        // black faded: 255 + (0 - 255) * 0.1 = 229.5 -> 229; white stays 255
        XCTAssertEqual(img[0], opaque(229, 229, 229))
        XCTAssertEqual(img[3], opaque(255, 255, 255))
        for y in 0..<h { XCTAssertEqual(img[y * w + 2], opaque(255, 255, 0), "yellow AA at row \(y)") }
        XCTAssertEqual(img[4 * w + 4], opaque(255, 0, 0))

        // with includeAntialiasing everything above the threshold is red
        let (_, imgAA) = PixelDiff.compareWithDiffImage(
            a.pixels, b.pixels, width: w, height: h, options: DiffOptions(includeAntialiasing: true))
        for y in 0..<h { XCTAssertEqual(imgAA[y * w + 2], opaque(255, 0, 0)) }

        // custom colours and alpha; the alternative colour marks pixels darker in B
        var c = a
        c[4, 0] = black  // darker in B
        let options = DiffOptions(
            alpha: 0.5, diffColor: DiffColor(r: 255, g: 0, b: 255), antialiasedColor: DiffColor(r: 0, g: 192, b: 0),
            diffColorAlt: .green)
        let (_, img2) = PixelDiff.compareWithDiffImage(a.pixels, b.pixels, width: w, height: h, options: options)
        XCTAssertEqual(img2[0], opaque(127, 127, 127))  // 255 - 127.5, truncated
        XCTAssertEqual(img2[2], opaque(0, 192, 0))
        XCTAssertEqual(img2[4 * w + 4], opaque(0, 255, 0))  // red in B is darker than white in A
        let (_, img3) = PixelDiff.compareWithDiffImage(a.pixels, c.pixels, width: w, height: h, options: options)
        XCTAssertEqual(img3[4], opaque(0, 255, 0))
        let (_, img4) = PixelDiff.compareWithDiffImage(c.pixels, a.pixels, width: w, height: h, options: options)
        XCTAssertEqual(img4[4], opaque(255, 0, 255))
    }

    // MARK: verdicts and edge cases

    func testVerdicts() {
        func result(_ n: Int, of total: Int) -> DiffResult {
            DiffResult(
                width: total, height: 1, differentPixels: n, antialiasedPixels: 0, ratio: Double(n) / Double(total),
                maxChannelDifference: n > 0 ? 255 : 0, regions: [], clusterCount: 0, isIdentical: false)
        }
        var identical = result(0, of: 10)
        identical.isIdentical = true
        XCTAssertEqual(verdict(identical, tolerance: DiffTolerance()), .identical)
        XCTAssertEqual(verdict(result(0, of: 10), tolerance: DiffTolerance()), .similar(DiffFigures(result(0, of: 10))))
        XCTAssertEqual(
            verdict(result(1, of: 10), tolerance: DiffTolerance()), .different(DiffFigures(result(1, of: 10))))
        XCTAssertEqual(
            verdict(result(3, of: 10), tolerance: DiffTolerance(maxDiffPixels: 3)),
            .similar(DiffFigures(result(3, of: 10))))
        XCTAssertEqual(
            verdict(result(4, of: 10), tolerance: DiffTolerance(maxDiffPixels: 3)),
            .different(DiffFigures(result(4, of: 10))))
        XCTAssertEqual(
            verdict(result(2, of: 10), tolerance: DiffTolerance(maxDiffRatio: 0.2)),
            .similar(DiffFigures(result(2, of: 10))))
        XCTAssertEqual(
            verdict(result(3, of: 10), tolerance: DiffTolerance(maxDiffRatio: 0.2)),
            .different(DiffFigures(result(3, of: 10))))
        // either limit is enough
        XCTAssertEqual(
            verdict(result(5, of: 10), tolerance: DiffTolerance(maxDiffPixels: 1, maxDiffRatio: 0.5)),
            .similar(DiffFigures(result(5, of: 10))))
        XCTAssertEqual(
            verdict(result(5, of: 10), tolerance: DiffTolerance(maxDiffPixels: 5, maxDiffRatio: 0.01)),
            .similar(DiffFigures(result(5, of: 10))))
        XCTAssertEqual(
            verdict(result(6, of: 10), tolerance: DiffTolerance(maxDiffPixels: 5, maxDiffRatio: 0.5)),
            .different(DiffFigures(result(6, of: 10))))
        XCTAssertEqual(PixelDiff.verdict(result(6, of: 10)), .different(DiffFigures(result(6, of: 10))))
    }

    func testEmptyImage() {
        let r = PixelDiff.compare([], [], width: 0, height: 0)
        XCTAssertTrue(r.isIdentical)
        XCTAssertEqual(r.ratio, 0)
        let r2 = PixelDiff.compare([], [], width: 7, height: 0)
        XCTAssertTrue(r2.isIdentical)
    }

    func testTwoBlobsAndAnLShape() {
        let w = 40
        let h = 30
        let a = Image(width: w, height: h, fill: white)
        var b = a
        b.fillRect(x: 3, y: 4, w: 5, h: 6, black)  // blob 1
        b.fillRect(x: 20, y: 2, w: 7, h: 3, black)  // blob 2, higher up
        var r = count(a.pixels, b.pixels, w, h)
        XCTAssertEqual(
            r.regions, [PixelRegion(x: 20, y: 2, width: 7, height: 3), PixelRegion(x: 3, y: 4, width: 5, height: 6)])
        XCTAssertEqual(r.differentPixels, 5 * 6 + 7 * 3)

        var l = a
        l.fillRect(x: 10, y: 10, w: 2, h: 12, black)  // vertical bar
        l.fillRect(x: 10, y: 20, w: 15, h: 2, black)  // foot
        r = count(a.pixels, l.pixels, w, h)
        XCTAssertEqual(r.regions, [PixelRegion(x: 10, y: 10, width: 15, height: 12)])

        // diagonal contact joins clusters (8-connectivity); a one-pixel gap does not
        var d = a
        d[5, 5] = black
        d[6, 6] = black
        d[8, 6] = black
        r = count(a.pixels, d.pixels, w, h)
        XCTAssertEqual(
            r.regions, [PixelRegion(x: 5, y: 5, width: 2, height: 2), PixelRegion(x: 8, y: 6, width: 1, height: 1)])

        // a U shape whose arms only meet at the bottom is one cluster
        var u = a
        u.fillRect(x: 30, y: 5, w: 1, h: 10, black)
        u.fillRect(x: 36, y: 5, w: 1, h: 10, black)
        u.fillRect(x: 30, y: 15, w: 7, h: 1, black)
        r = count(a.pixels, u.pixels, w, h)
        XCTAssertEqual(r.regions, [PixelRegion(x: 30, y: 5, width: 7, height: 11)])
    }

    func testRegionCap() {
        let w = 40
        let h = 40
        let a = Image(width: w, height: h, fill: white)
        var b = a
        for y in stride(from: 0, to: h, by: 2) {
            for x in stride(from: 0, to: w, by: 2) { b[x, y] = black }
        }
        let r = count(a.pixels, b.pixels, w, h)
        XCTAssertEqual(r.differentPixels, 400)
        XCTAssertEqual(r.clusterCount, 400)
        XCTAssertEqual(r.regions.count, 100)
        XCTAssertEqual(r.regions[98], PixelRegion(x: 36, y: 8, width: 1, height: 1))
        // the 100th box covers clusters 100...400: from (38, 8) to the bottom right
        XCTAssertEqual(r.regions[99], PixelRegion(x: 0, y: 8, width: 39, height: 31))
    }

    func testLargeImageExercisesBulkPathsAndRowLag() {
        // wider than the 32-pixel blocks, with differences in adjacent rows and at row ends
        let w = 333
        let h = 97
        var rng = SplitMix64(seed: 99)
        let a = randomStructuredImage(&rng, width: w, height: h)
        let b = randomlyModified(a, &rng)
        let ref = ReferencePixelmatch().run(straightRGBA(a), straightRGBA(b), width: w, height: h)
        let r = count(a.pixels, b.pixels, w, h)
        XCTAssertGreaterThan(ref.diff, 100)
        XCTAssertEqual(r.differentPixels, ref.diff)
        XCTAssertEqual(r.antialiasedPixels, ref.aa)
        XCTAssertEqual(r.clusterCount, referenceRegions(ref.counted, width: w, height: h).count)

        // a difference only in the last pixel, and only in the first
        var last = a
        last.pixels[w * h - 1] ^= 0x00FF_FFFF
        XCTAssertEqual(
            count(a.pixels, last.pixels, w, h, DiffOptions(includeAntialiasing: true)).regions,
            [PixelRegion(x: w - 1, y: h - 1, width: 1, height: 1)])
        var firstPx = a
        firstPx.pixels[0] ^= 0x00FF_FFFF
        XCTAssertEqual(
            count(a.pixels, firstPx.pixels, w, h, DiffOptions(includeAntialiasing: true)).regions,
            [PixelRegion(x: 0, y: 0, width: 1, height: 1)])
    }
}
