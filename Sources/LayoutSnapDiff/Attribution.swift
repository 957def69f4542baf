// Attribution: which element explains which differing pixels of a failing frame (docs/review.md).
// The golden and the actual layout are matched by element id; each differing pixel goes to the
// innermost element that can explain it. Only failing frames pay for it.

import LayoutSnapCore
import Foundation

/// What changed in one failing frame, element by element. Elements not listed are unchanged.
public struct FrameAttribution: Codable, Sendable, Hashable {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// Elements moved, resized, appeared, disappeared or were restyled.
        case layout
        /// Every changed element moved by the same offset and nothing else changed.
        case scrolled
        /// The layout is identical: colour, glyph or image changes only.
        case pixelsOnly = "pixels-only"
        /// The canvas has another size.
        case size
    }

    public var kind: Kind
    /// The changed elements: actual layout order, then those that disappeared.
    public var elements: [ElementChange]
    /// `scrolled`: the common offset, points.
    public var dx: Double?
    public var dy: Double?
    /// Differing pixels inside no element (the canvas background).
    public var unassignedPixels: Int
    /// `size`: the golden's and the actual image's size in pixels, [width, height].
    public var goldenSize: [Int]?
    public var actualSize: [Int]?

    public init(
        kind: Kind, elements: [ElementChange], dx: Double? = nil, dy: Double? = nil, unassignedPixels: Int = 0,
        goldenSize: [Int]? = nil, actualSize: [Int]? = nil
    ) {
        self.kind = kind
        self.elements = elements
        self.dx = dx
        self.dy = dy
        self.unassignedPixels = unassignedPixels
        self.goldenSize = goldenSize
        self.actualSize = actualSize
    }

    /// The change of one element, nil when it is unchanged.
    public func change(of id: String) -> ElementChange? { elements.first { $0.id == id } }
}

/// How one element differs from its golden.
public struct ElementChange: Codable, Sendable, Hashable {
    public enum Change: String, Codable, Sendable, CaseIterable {
        /// Same size, another place (`pixelsUnchanged` says whether it looks the same there).
        case moved
        /// Another size (and perhaps another place).
        case resized
        /// Only in the actual layout.
        case appeared
        /// Only in the golden layout.
        case disappeared
        /// Same rect, other pixels inside it.
        case restyled
    }

    public var id: String
    public var change: Change
    /// Actual minus golden, points, rounded to 0.01 (0 for appeared and disappeared).
    public var dx: Double
    public var dy: Double
    public var dw: Double
    public var dh: Double
    /// `moved`: its pixels at the new place equal the golden's at the old one.
    public var pixelsUnchanged: Bool?
    /// Differing pixels assigned to it.
    public var pixels: Int
    /// Where it is, points [x, y, width, height]: the actual rect (the golden's if it disappeared).
    public var rect: [Double]

    public init(
        id: String, change: Change, dx: Double = 0, dy: Double = 0, dw: Double = 0, dh: Double = 0,
        pixelsUnchanged: Bool? = nil, pixels: Int = 0, rect: [Double]
    ) {
        self.id = id
        self.change = change
        self.dx = dx
        self.dy = dy
        self.dw = dw
        self.dh = dh
        self.pixelsUnchanged = pixelsUnchanged
        self.pixels = pixels
        self.rect = rect
    }

    /// `moved, pixels unchanged`: a consequence of another change, not a cause.
    public var isMovedUnchanged: Bool { change == .moved && pixelsUnchanged == true }

    /// `message:m4 moved (0.00, -22.00), pixels unchanged`, `body resized (+0.00, +18.00)`.
    public var description: String {
        switch change {
        case .moved:
            return "\(id) moved (\(LayoutSnapshot.signed(dx)), \(LayoutSnapshot.signed(dy)))"
                + (pixelsUnchanged == true ? ", pixels unchanged" : "")
        case .resized:
            return "\(id) resized (\(LayoutSnapshot.signed(dw)), \(LayoutSnapshot.signed(dh)))"
                + (dx != 0 || dy != 0 ? " and moved (\(LayoutSnapshot.signed(dx)), \(LayoutSnapshot.signed(dy)))" : "")
        case .appeared, .disappeared, .restyled:
            return "\(id) \(change.rawValue)"
        }
    }
}

/// Works out a `FrameAttribution` from the golden and actual layouts of a frame and its pixels.
public enum Attribution {
    public typealias Elements = [(id: String, rect: Rect)]

    /// Changes smaller than this (the stored rounding) are no change.
    static let epsilon = 0.005
    /// Pixels this close outside a changed element's rect are still its own (anti-aliased edges,
    /// shadows).
    static let margin = 2

    /// The pixels of a frame pair (same size, premultiplied ARGB words, stride == width).
    public struct Pixels {
        public var expected: UnsafeBufferPointer<UInt32>
        public var actual: UnsafeBufferPointer<UInt32>
        public var width: Int
        public var height: Int
        /// Pixels per point.
        public var scale: Double
        /// Where the perceptual diff counted differing pixels (its regions, when not capped):
        /// only these are scanned. nil scans the whole image.
        public var regions: [PixelRegion]?

        public init(
            expected: UnsafeBufferPointer<UInt32>, actual: UnsafeBufferPointer<UInt32>, width: Int, height: Int,
            scale: Double,
            regions: [PixelRegion]? = nil
        ) {
            self.expected = expected
            self.actual = actual
            self.width = width
            self.height = height
            self.scale = scale
            self.regions = regions
        }

        /// The regions to scan for `diff`'s counted pixels: its boxes when they are all there (not
        /// capped) and not empty; otherwise nil, the whole image.
        public static func regions(of diff: DiffResult) -> [PixelRegion]? {
            diff.regions.isEmpty || diff.clusterCount > diff.regions.count ? nil : diff.regions
        }
    }

    /// Colours of the diff image's marks: what is only a consequence is drawn quietly.
    public static let movedUnchangedColor: UInt32 = 0xFF7F_A7D9
    static let outlineColors: [ElementChange.Change: UInt32] = [
        .moved: 0xFF3F_6FD0, .resized: 0xFFE0_8000, .appeared: 0xFF00_A040, .disappeared: 0xFFA0_00A0,
        .restyled: 0xFFFF_0000,
    ]

    /// The attribution of a frame whose images have the same size. Without `pixels` only the
    /// geometry is compared (no restyled elements, no pixel counts). `diffImage`, when given, gets
    /// the attribution drawn into it: pixels of elements that only moved turn from red to a quiet
    /// blue, and each changed element gets an outline in the colour of its change.
    public static func attribute(
        golden: Elements, actual: Elements, pixels: Pixels? = nil,
        diffImage: UnsafeMutableBufferPointer<UInt32>? = nil
    ) -> FrameAttribution {
        var changes = geometry(golden: golden, actual: actual)
        var unassigned = 0
        if let pixels {
            unassigned = assignPixels(&changes, golden: golden, actual: actual, pixels: pixels, diffImage: diffImage)
        }
        // Unchanged elements are dropped only now: restyled ones are found among them.
        let listed = changes.filter { $0.change != nil }.map { entry -> ElementChange in
            var e = entry.element
            e.change = entry.change!
            return e
        }
        let geometric = listed.filter { $0.change != .restyled }
        var result = FrameAttribution(kind: .layout, elements: listed, unassignedPixels: unassigned)
        if geometric.isEmpty {
            result.kind = .pixelsOnly
        } else if geometric.count >= 2, geometric.count == listed.count, geometric.allSatisfy({ $0.change == .moved }),
            let first = geometric.first, geometric.allSatisfy({ $0.dx == first.dx && $0.dy == first.dy })
        {
            result.kind = .scrolled
            result.dx = first.dx
            result.dy = first.dy
        }
        if let diffImage, let pixels {
            outline(listed, in: diffImage, width: pixels.width, height: pixels.height, scale: pixels.scale)
        }
        return result
    }

    /// A frame whose canvas changed size: the geometry, without pixels.
    public static func size(golden: Elements, actual: Elements, goldenSize: (Int, Int), actualSize: (Int, Int))
        -> FrameAttribution
    {
        var result = attribute(golden: golden, actual: actual)
        result.kind = .size
        result.dx = nil
        result.dy = nil
        result.goldenSize = [goldenSize.0, goldenSize.1]
        result.actualSize = [actualSize.0, actualSize.1]
        return result
    }

    private struct Entry {
        var element: ElementChange
        /// nil: unchanged (so far).
        var change: ElementChange.Change?
        var golden: Rect?
        var actual: Rect?
    }

    private static func geometry(golden: Elements, actual: Elements) -> [Entry] {
        var goldenByID: [String: Rect] = [:]
        for (id, rect) in golden where goldenByID[id] == nil { goldenByID[id] = rect }
        var seen = Set<String>()
        var entries: [Entry] = []
        for (id, rect) in actual where seen.insert(id).inserted {
            let box = [rect.x, rect.y, rect.width, rect.height].map(rounded)
            guard let old = goldenByID[id] else {
                entries.append(
                    Entry(
                        element: ElementChange(id: id, change: .appeared, rect: box), change: .appeared, golden: nil,
                        actual: rect))
                continue
            }
            let dx = rounded(rect.x - old.x)
            let dy = rounded(rect.y - old.y)
            let dw = rounded(rect.width - old.width)
            let dh = rounded(rect.height - old.height)
            let change: ElementChange.Change? =
                abs(dw) >= epsilon || abs(dh) >= epsilon
                ? .resized
                : abs(dx) >= epsilon || abs(dy) >= epsilon ? .moved : nil
            entries.append(
                Entry(
                    element: ElementChange(
                        id: id, change: change ?? .restyled, dx: dx, dy: dy, dw: dw, dh: dh, rect: box),
                    change: change, golden: old, actual: rect))
        }
        for (id, rect) in golden where !seen.contains(id) {
            seen.insert(id)
            let box = [rect.x, rect.y, rect.width, rect.height].map(rounded)
            entries.append(
                Entry(
                    element: ElementChange(id: id, change: .disappeared, rect: box), change: .disappeared, golden: rect,
                    actual: nil))
        }
        return entries
    }

    /// A rect in whole pixels: [x0, x1) x [y0, y1), grown by `grow` and clamped to the image.
    private struct PixelBox {
        var x0: Int, y0: Int, x1: Int, y1: Int
        var area: Int { max(0, x1 - x0) * max(0, y1 - y0) }

        init(_ r: Rect, scale: Double, grow: Int, width: Int, height: Int) {
            x0 = max(0, Attribution.pixel((r.minX * scale).rounded(.down)) - grow)
            y0 = max(0, Attribution.pixel((r.minY * scale).rounded(.down)) - grow)
            x1 = min(width, Attribution.pixel((r.maxX * scale).rounded(.up)) + grow)
            y1 = min(height, Attribution.pixel((r.maxY * scale).rounded(.up)) + grow)
        }
    }

    /// A pixel coordinate from a layout number: a golden layout.json is input, and a rect of 1e300
    /// or a non-finite one must not trap the conversion (it lands off the image instead).
    static func pixel(_ v: Double) -> Int {
        guard v.isFinite else { return v > 0 ? 1 << 30 : -(1 << 30) }
        return Int(max(-1e9, min(1e9, v)))
    }

    /// Counts each differing pixel against the innermost element that explains it: first the
    /// changed elements (their old or new place), then the unchanged ones (which are then
    /// restyled). Returns the pixels inside no element.
    private static func assignPixels(
        _ entries: inout [Entry], golden: Elements, actual: Elements, pixels: Pixels,
        diffImage: UnsafeMutableBufferPointer<UInt32>?
    ) -> Int {
        let width = pixels.width
        let height = pixels.height
        let scale = pixels.scale
        precondition(pixels.expected.count >= width * height && pixels.actual.count >= width * height)
        // (box, entry index), innermost first.
        var explaining: [(PixelBox, Int)] = []
        var containing: [(PixelBox, Int)] = []
        for (i, entry) in entries.enumerated() {
            if entry.change != nil {
                for rect in [entry.golden, entry.actual].compactMap({ $0 }) {
                    explaining.append((PixelBox(rect, scale: scale, grow: margin, width: width, height: height), i))
                }
            } else if let rect = entry.actual {
                containing.append((PixelBox(rect, scale: scale, grow: 0, width: width, height: height), i))
            }
        }
        explaining.sort { $0.0.area < $1.0.area }
        containing.sort { $0.0.area < $1.0.area }
        // Moved elements whose pixels are the same at their new place.
        for i in entries.indices where entries[i].change == .moved {
            entries[i].element.pixelsUnchanged = samePixels(from: entries[i].golden!, to: entries[i].actual!, pixels)
        }
        var counts = [Int](repeating: 0, count: entries.count)
        var unassigned = 0
        // Innermost first: the changed elements (old and new places), then the unchanged ones.
        let candidates = explaining + containing
        var rowOwners: [(Int, Int, Int)] = []
        var cuts: [Int] = []
        let expected = pixels.expected.baseAddress!
        let now = pixels.actual.baseAddress!
        // The whole image, or the perceptual diff's boxes (a row's spans merged: boxes of two
        // clusters may overlap).
        // Swept top to bottom: a row's spans change only where a box starts or ends.
        let boxes = (pixels.regions ?? [PixelRegion(x: 0, y: 0, width: width, height: height)]).sorted { $0.y < $1.y }
        let top = max(0, boxes.first?.y ?? 0)
        let bottom = min(height, boxes.map { $0.y + $0.height }.max() ?? 0)
        var active: [PixelRegion] = []
        var nextBox = 0
        var merged: [(Int, Int)] = []
        for y in top..<max(top, bottom) {
            var changed = false
            while nextBox < boxes.count && boxes[nextBox].y <= y {
                active.append(boxes[nextBox])
                nextBox += 1
                changed = true
            }
            let before = active.count
            active.removeAll { $0.y + $0.height <= y }
            if changed || active.count != before {
                var spans = active.compactMap { box -> (Int, Int)? in
                    let x0 = max(0, box.x)
                    let x1 = min(width, box.x + box.width)
                    return x1 > x0 ? (x0, x1) : nil
                }
                spans.sort { $0.0 < $1.0 }
                merged.removeAll(keepingCapacity: true)
                for span in spans {
                    if let last = merged.last, span.0 <= last.1 {
                        merged[merged.count - 1].1 = max(last.1, span.1)
                    } else {
                        merged.append(span)
                    }
                }
            }
            guard !merged.isEmpty else { continue }
            let row = y * width
            // The owner is the same along a row between the edges of the boxes that cover it:
            // pixels are counted a segment at a time, not looked up one by one.
            rowOwners.removeAll(keepingCapacity: true)
            for (box, i) in candidates where box.y0 <= y && y < box.y1 { rowOwners.append((box.x0, box.x1, i)) }
            cuts.removeAll(keepingCapacity: true)
            for (x0, x1, _) in rowOwners {
                cuts.append(x0)
                cuts.append(x1)
            }
            for (x0, x1) in merged where memcmp(expected + row + x0, now + row + x0, (x1 - x0) * 4) != 0 {
                var start = x0
                while start < x1 {
                    var end = x1
                    for cut in cuts where cut > start && cut < end { end = cut }
                    let n = differing(expected + row + start, now + row + start, end - start)
                    if n > 0 {
                        let owner = rowOwners.first { $0.0 <= start && start < $0.1 }?.2 ?? -1
                        if owner < 0 {
                            unassigned += n
                        } else {
                            counts[owner] += n
                            if let diffImage, entries[owner].element.isMovedUnchanged {
                                for x in start..<end
                                where !isGray(diffImage[row + x]) && expected[row + x] != now[row + x] {
                                    // A marked (coloured, not faded grey) diff pixel of an element that only moved.
                                    diffImage[row + x] = movedUnchangedColor
                                }
                            }
                        }
                    }
                    start = end
                }
            }
        }
        for i in entries.indices {
            entries[i].element.pixels = counts[i]
            if entries[i].change == nil, counts[i] > 0 { entries[i].change = .restyled }
        }
        return unassigned
    }

    /// Whether the golden's pixels in `old` look the same as the actual's in `new` (same size).
    /// The blocks are lined up at the nearest whole pixel. A move by a fraction of a pixel
    /// resamples every edge, so a pixel that differs still matches when each of its channels lies
    /// within the range (± `resampleSlack`) of the other image's 3 x 3 neighbourhood around it:
    /// what a shift of under a pixel can produce. A changed glyph or colour puts pixels outside
    /// any neighbour's range and fails. Pixels the element is hidden at (where the screen is the
    /// same as the golden's, as under a status bar it scrolled beneath) are not compared.
    static func samePixels(from old: Rect, to new: Rect, _ pixels: Pixels) -> Bool {
        let dx = pixel(((new.x - old.x) * pixels.scale).rounded())
        let dy = pixel(((new.y - old.y) * pixels.scale).rounded())
        let box = PixelBox(old, scale: pixels.scale, grow: 0, width: pixels.width, height: pixels.height)
        // Only where both places are inside the image.
        let x0 = max(box.x0, -dx)
        let x1 = min(box.x1, pixels.width - dx)
        let y0 = max(box.y0, -dy)
        let y1 = min(box.y1, pixels.height - dy)
        guard x1 > x0, y1 > y0 else { return false }
        let width = pixels.width
        let height = pixels.height
        let golden = pixels.expected.baseAddress!
        let now = pixels.actual.baseAddress!
        // Whether `value` lies within the channel ranges of `image`'s neighbourhood of (x, y).
        func withinNeighbours(_ value: UInt32, _ image: UnsafePointer<UInt32>, _ x: Int, _ y: Int) -> Bool {
            var low: SIMD4<Int32> = [255, 255, 255, 255]
            var high: SIMD4<Int32> = [0, 0, 0, 0]
            for ny in max(0, y - 1)...min(height - 1, y + 1) {
                for nx in max(0, x - 1)...min(width - 1, x + 1) {
                    let c = channels(image[ny * width + nx])
                    low = pointwiseMin(low, c)
                    high = pointwiseMax(high, c)
                }
            }
            let v = channels(value)
            return all(v .>= low &- resampleSlack) && all(v .<= high &+ resampleSlack)
        }
        for y in y0..<y1 {
            let g = golden + y * width
            let n = now + (y + dy) * width + dx
            if memcmp(g + x0, n + x0, (x1 - x0) * 4) == 0 { continue }
            for x in x0..<x1 where g[x] != n[x] {
                // Where the screen did not change at the new place, something that did not move
                // covers the element there (a bar it scrolled under): no evidence either way.
                if n[x] == golden[(y + dy) * width + x + dx] { continue }
                if !withinNeighbours(n[x], golden, x, y) && !withinNeighbours(g[x], now, x + dx, y + dy) {
                    return false
                }
            }
        }
        return true
    }

    /// How far outside its neighbours' range a resampled channel may fall (rounding).
    static let resampleSlack: SIMD4<Int32> = [8, 8, 8, 8]

    @inline(__always) static func channels(_ w: UInt32) -> SIMD4<Int32> {
        SIMD4(Int32(w >> 24), Int32(w >> 16 & 0xFF), Int32(w >> 8 & 0xFF), Int32(w & 0xFF))
    }

    /// A one-pixel outline around each changed element, in the colour of its change.
    private static func outline(
        _ changes: [ElementChange], in image: UnsafeMutableBufferPointer<UInt32>, width: Int, height: Int, scale: Double
    ) {
        for change in changes where !change.isMovedUnchanged {
            guard let color = outlineColors[change.change], change.rect.count == 4 else { continue }
            let r = Rect(x: change.rect[0], y: change.rect[1], width: change.rect[2], height: change.rect[3])
            let box = PixelBox(r, scale: scale, grow: 0, width: width, height: height)
            guard box.area > 0 else { continue }
            for x in box.x0..<box.x1 {
                image[box.y0 * width + x] = color
                image[(box.y1 - 1) * width + x] = color
            }
            for y in box.y0..<box.y1 {
                image[y * width + box.x0] = color
                image[y * width + box.x1 - 1] = color
            }
        }
    }

    /// How many of `count` words differ, eight at a time.
    static func differing(_ a: UnsafePointer<UInt32>, _ b: UnsafePointer<UInt32>, _ count: Int) -> Int {
        var n = 0
        var i = 0
        while i + 8 <= count {
            let x = UnsafeRawPointer(a + i).loadUnaligned(as: SIMD8<UInt32>.self)
            let y = UnsafeRawPointer(b + i).loadUnaligned(as: SIMD8<UInt32>.self)
            let unequal = x .!= y
            if unequal != .init(repeating: false) {
                for k in 0..<8 where unequal[k] { n += 1 }
            }
            i += 8
        }
        while i < count {
            if a[i] != b[i] { n += 1 }
            i += 1
        }
        return n
    }

    @inline(__always) static func isGray(_ w: UInt32) -> Bool {
        let r = w >> 16 & 0xFF
        let g = w >> 8 & 0xFF
        let b = w & 0xFF
        return r == g && g == b
    }

    static func rounded(_ v: Double) -> Double { (v * 100).rounded() / 100 }
}
