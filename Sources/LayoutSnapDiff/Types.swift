// PixelDiff: a perceptual image diff in the manner of pixelmatch (mapbox/pixelmatch, ISC),
// reimplemented in pure Swift for premultiplied ARGB32 (Cairo's format).
//
// Pixel format: `width * height` words `0xAARRGGBB` (native endian), premultiplied alpha,
// rows tightly packed (stride == width).

import LayoutSnapCore

/// An opaque colour used in the diff image.
public struct DiffColor: Sendable, Hashable {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8

    public init(r: UInt8, g: UInt8, b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }

    public static let red = DiffColor(r: 255, g: 0, b: 0)
    public static let yellow = DiffColor(r: 255, g: 255, b: 0)
    public static let green = DiffColor(r: 0, g: 255, b: 0)

    /// The colour as an opaque premultiplied ARGB32 word.
    @inlinable public var argb32: UInt32 {
        0xFF00_0000 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
    }
}

/// What translucent pixels are composited onto before their colours are compared.
public enum TransparencyBackground: String, Sendable, Hashable, CaseIterable {
    /// White, as pixelmatch up to 6.x does (the default here, and what the spec asks for).
    case white
    /// pixelmatch 7.x's per-pixel pseudo-checkerboard (used by its 7.x fixture counts, e.g. `5a`/`5b`: 6).
    case checkerboard
}

public struct DiffOptions: Sendable, Equatable {
    /// Matching threshold, 0...1: smaller is more sensitive. A pixel differs when its squared YIQ
    /// distance exceeds `35215 * threshold * threshold`.
    public var threshold: Double = 0.1
    /// When false (the default), above-threshold pixels that look like anti-aliasing are reported in
    /// `antialiasedPixels` but not counted in `differentPixels`. When true they are counted too.
    public var includeAntialiasing: Bool = false
    /// Background for translucent pixels before the colour comparison.
    public var transparencyBackground: TransparencyBackground = .white
    /// Opacity of image A's faded grayscale in the diff image (pixelmatch's `alpha`).
    public var alpha: Double = 0.1
    /// Colour of counted differing pixels in the diff image.
    public var diffColor: DiffColor = .red
    /// Colour of anti-aliased (not counted) pixels in the diff image.
    public var antialiasedColor: DiffColor = .yellow
    /// If set, counted differing pixels that are darker in B than in A use this colour instead
    /// (pixelmatch 7's `diffColorAlt`).
    public var diffColorAlt: DiffColor? = nil
    /// The words are straight (not premultiplied) ARGB, as pixelmatch reads a PNG: `layoutsnap
    /// diff` compares any two PNGs that way, so translucent pixels keep their colour. verify
    /// compares its own renders premultiplied, as Cairo draws them.
    public var straightAlpha = false
    /// pixelmatch's `diffMask`: the diff image is the differing pixels alone, on transparency
    /// (no faded image, no anti-aliased pixels).
    public var diffMask = false

    public init(
        threshold: Double = 0.1,
        includeAntialiasing: Bool = false,
        transparencyBackground: TransparencyBackground = .white,
        alpha: Double = 0.1,
        diffColor: DiffColor = .red,
        antialiasedColor: DiffColor = .yellow,
        diffColorAlt: DiffColor? = nil
    ) {
        self.threshold = threshold
        self.includeAntialiasing = includeAntialiasing
        self.transparencyBackground = transparencyBackground
        self.alpha = alpha
        self.diffColor = diffColor
        self.antialiasedColor = antialiasedColor
        self.diffColorAlt = diffColorAlt
    }
}

/// A bounding box in pixels (Core's, which the renderer's regions are too).
public typealias PixelRegion = LayoutSnapCore.PixelRegion

public struct DiffResult: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// Pixels above the threshold, minus the anti-aliased ones unless `includeAntialiasing`.
    public var differentPixels: Int
    /// Above-threshold pixels that the anti-aliasing test classified as anti-aliasing. They are
    /// counted in `differentPixels` only when `includeAntialiasing` is true.
    public var antialiasedPixels: Int
    /// `differentPixels / (width * height)`; 0 for an empty image.
    public var ratio: Double
    /// Largest |A - B| over the straight (un-premultiplied) R, G, B and A channels among the counted
    /// differing pixels (0...255; 0 when none).
    public var maxChannelDifference: Int
    /// Bounding boxes of the 8-connected clusters of counted differing pixels, sorted by y then x
    /// (then height, width). At most `PixelDiff.maxRegions`: when there are more clusters, the
    /// last box is the union of the boxes of all clusters from that one on.
    public var regions: [PixelRegion]
    /// Number of clusters before capping (`regions.count` unless it was capped).
    public var clusterCount: Int
    /// Every word of A equals the corresponding word of B.
    public var isIdentical: Bool

    public init(
        width: Int, height: Int, differentPixels: Int, antialiasedPixels: Int, ratio: Double,
        maxChannelDifference: Int, regions: [PixelRegion], clusterCount: Int, isIdentical: Bool
    ) {
        self.width = width
        self.height = height
        self.differentPixels = differentPixels
        self.antialiasedPixels = antialiasedPixels
        self.ratio = ratio
        self.maxChannelDifference = maxChannelDifference
        self.regions = regions
        self.clusterCount = clusterCount
        self.isIdentical = isIdentical
    }

    static func identical(width: Int, height: Int) -> DiffResult {
        DiffResult(
            width: width, height: height, differentPixels: 0, antialiasedPixels: 0, ratio: 0,
            maxChannelDifference: 0, regions: [], clusterCount: 0, isIdentical: true)
    }
}

/// What a comparison of two images found, with its figures when pixels changed: the one value
/// that goes from the differ to the report (as Paparazzi's differ returns its ComparisonResult).
public enum Comparison: Sendable, Hashable {
    case identical
    /// Changed, but within the tolerance (or every change below the threshold).
    case similar(DiffFigures)
    case different(DiffFigures)

    /// nil when identical.
    public var figures: DiffFigures? {
        switch self {
        case .identical: nil
        case .similar(let figures), .different(let figures): figures
        }
    }

    public var isDifferent: Bool {
        if case .different = self { true } else { false }
    }

    /// `identical`, `similar` or `different`, as `layoutsnap diff` prints it.
    public var name: String {
        switch self {
        case .identical: "identical"
        case .similar: "similar"
        case .different: "different"
        }
    }
}

/// The figures of a comparison that found changed pixels; results.json writes them as a
/// frame's `metrics`, field by field.
public struct DiffFigures: Codable, Sendable, Hashable {
    public var differentPixels: Int
    /// differentPixels / (width * height), 0…1.
    public var ratio: Double
    /// Over every changed pixel, not only those the perceptual diff counts.
    public var maxChannelDifference: Int
    /// Bounding boxes of the differing areas, each [x, y, w, h].
    public var regions: [[Int]]
    public var width: Int
    public var height: Int

    public init(
        differentPixels: Int, ratio: Double, maxChannelDifference: Int, regions: [[Int]] = [], width: Int, height: Int
    ) {
        self.differentPixels = differentPixels
        self.ratio = ratio
        self.maxChannelDifference = maxChannelDifference
        self.regions = regions
        self.width = width
        self.height = height
    }

    /// A perceptual diff's figures; `maxChannelDifference` when the exact scan measured it.
    public init(_ diff: DiffResult, maxChannelDifference: Int? = nil) {
        self.init(
            differentPixels: diff.differentPixels, ratio: diff.ratio,
            maxChannelDifference: maxChannelDifference ?? diff.maxChannelDifference,
            regions: diff.regions.map { [$0.x, $0.y, $0.width, $0.height] }, width: diff.width, height: diff.height)
    }
}

public struct DiffTolerance: Sendable, Equatable {
    /// Up to this many counted differing pixels pass as similar (0: not used).
    public var maxDiffPixels: Int = 0
    /// Up to this ratio of counted differing pixels passes as similar (0: not used).
    public var maxDiffRatio: Double = 0

    public init(maxDiffPixels: Int = 0, maxDiffRatio: Double = 0) {
        self.maxDiffPixels = maxDiffPixels
        self.maxDiffRatio = maxDiffRatio
    }
}
