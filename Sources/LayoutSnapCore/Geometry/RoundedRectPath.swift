/// A vector path as plain values, replayed by the renderer.
public enum PathElement: Sendable, Hashable {
    case move(Point)
    case line(Point)
    case curve(Point, Point, Point)
    case close
}

/// Rounded rectangles as SwiftUI draws them: `RoundedRectangle(cornerRadius:)` defaults to the
/// `.continuous` style, a squircle-like corner that starts 1.528665 x radius from the corner and
/// blends curvature in gradually (the published reconstruction of UIKit's path, three cubic
/// pieces per corner). The circular style is there for shapes that ask for it.
public enum RoundedRectPath {
    /// How far along each edge a continuous corner reaches, in radii.
    static let reach = 1.528665

    /// One corner in a local frame: u runs along the incoming edge towards the corner, v along the
    /// outgoing edge away from it; (a, b) means "a radii before the corner on the incoming edge,
    /// b radii along the outgoing one". Three cubics, symmetric about the diagonal.
    static let cornerPieces: [(c1: (Double, Double), c2: (Double, Double), end: (Double, Double))] = [
        ((1.088493, 0), (0.868407, 0), (0.631494, 0.074911)),
        ((0.372824, 0.169060), (0.169060, 0.372824), (0.074911, 0.631494)),
        ((0, 0.868407), (0, 1.088493), (0, 1.528665)),
    ]

    public static func path(_ rect: Rect, radius: Double, continuous: Bool = true) -> [PathElement] {
        let r0 = max(0, min(radius, min(rect.width, rect.height) / 2))
        guard r0 > 0 else {
            return [
                .move(Point(x: rect.minX, y: rect.minY)), .line(Point(x: rect.maxX, y: rect.minY)),
                .line(Point(x: rect.maxX, y: rect.maxY)), .line(Point(x: rect.minX, y: rect.maxY)), .close,
            ]
        }
        // Corners: the point of the sharp corner, the unit vector of the incoming edge's direction,
        // and of the outgoing edge's direction; clockwise from the top-right.
        let corners: [(Point, (Double, Double), (Double, Double))] = [
            (Point(x: rect.maxX, y: rect.minY), (1, 0), (0, 1)),
            (Point(x: rect.maxX, y: rect.maxY), (0, 1), (-1, 0)),
            (Point(x: rect.minX, y: rect.maxY), (-1, 0), (0, -1)),
            (Point(x: rect.minX, y: rect.minY), (0, -1), (1, 0)),
        ]
        // Sized once: a run draws tens of thousands of these, and growing the array from empty
        // (five copies for a continuous one) cost more than working out its points.
        var elements: [PathElement] = []
        elements.reserveCapacity(continuous ? 4 * (1 + cornerPieces.count) + 1 : 9)
        if continuous {
            // A continuous corner needs more room than a circular one; shrink it as UIKit does.
            let r = min(r0, min(rect.width, rect.height) / 2 / reach)
            func local(_ c: Point, _ inDir: (Double, Double), _ outDir: (Double, Double), _ p: (Double, Double))
                -> Point
            {
                Point(x: c.x - inDir.0 * p.0 * r + outDir.0 * p.1 * r, y: c.y - inDir.1 * p.0 * r + outDir.1 * p.1 * r)
            }
            for (i, (c, inDir, outDir)) in corners.enumerated() {
                let start = local(c, inDir, outDir, (reach, 0))
                elements.append(i == 0 ? .move(start) : .line(start))
                for piece in cornerPieces {
                    elements.append(
                        .curve(
                            local(c, inDir, outDir, piece.c1), local(c, inDir, outDir, piece.c2),
                            local(c, inDir, outDir, piece.end)))
                }
            }
        } else {
            // Circular arcs as cubics (kappa = 0.5523).
            let k = 0.5522847498 * r0
            for (i, (c, inDir, outDir)) in corners.enumerated() {
                let start = Point(x: c.x - inDir.0 * r0, y: c.y - inDir.1 * r0)
                let end = Point(x: c.x + outDir.0 * r0, y: c.y + outDir.1 * r0)
                elements.append(i == 0 ? .move(start) : .line(start))
                elements.append(
                    .curve(
                        Point(x: start.x + inDir.0 * k, y: start.y + inDir.1 * k),
                        Point(x: end.x - outDir.0 * k, y: end.y - outDir.1 * k), end))
            }
        }
        elements.append(.close)
        return elements
    }
}
