import Foundation
import LayoutSnapCore
import LayoutSnapImaging
import LayoutSnapRender
import LayoutSnapSystem

/// `layoutsnap preview --serve`: the preview folder served on 127.0.0.1 behind a token, as
/// `review` serves its report (`LoopbackSite`), and one endpoint that renders on demand:
///
/// `GET /zoom?state=S&frame=N&zoom=K&x=X&y=Y&w=W&h=H` answers a PNG of the region X, Y, W x H
/// (points) of frame N of state S drawn at K times the device's scale (K 1 to 8): the fixture is
/// laid out once (by the build) and only that region is drawn, moved by whole pixels, so its
/// pixels are exactly those of the whole frame rendered at that scale. The region is widened to
/// whole pixels and cut to the canvas; `X-LayoutSnap-Region: x,y,width,height` names the pixels
/// it covers at that scale. `side=b` draws side B of a comparison (when B is a fixture).
/// Pre-rendering every frame at 8x of a full-size iPhone (193 M pixels a frame) is out of reach;
/// a region the size of a window is not.
public final class PreviewServer: Sendable {
    /// The most a served zoom may be: 8 device pixels to a pixel of the frame.
    public static let maxZoom = 8
    /// The most pixels a region's rows may have across the canvas (they are drawn whole): what a
    /// pre-rendered zoomed frame may have.
    public static let maxRegionPixels = PreviewBuilder.maxZoomedPixels
    /// How the page knows it is served (and the token it is served with).
    public static let metaName = "layoutsnap-preview-server"

    private let site: LoopbackSite
    /// The last good build's layout and the text engine that draws it: one region is drawn at a
    /// time.
    private let drawing: LockedValue<Drawing>
    private let stopping = LockedValue(false)

    struct Drawing {
        var layout: FixtureLayout?
        /// Side B's, with `--compare` of a fixture.
        var compared: FixtureLayout?
        var engine: TextEngine?
    }

    /// Serves `folder` (created when missing) on `port` (0: a free one).
    public init(folder: String, port: UInt16) throws(RunnerError) {
        try OutputPaths.folder(folder, option: "--out")
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw RunnerError.write("cannot create \(folder): \(error.localizedDescription)")
        }
        site = try LoopbackSite(
            folder: folder, port: port, cookieName: "layoutsnap-preview-PORT", metaName: Self.metaName,
            command: "layoutsnap preview --serve")
        drawing = LockedValue(Drawing())
    }

    public var port: UInt16 { site.port }
    public var token: String { site.token }
    /// What to open: the page, with the token that authorises it.
    public var url: String { site.url }

    /// The layouts a build made (A's, and B's when it compares with a fixture): what `/zoom`
    /// draws from now on (a failed build keeps the last good ones).
    public func update(_ layout: FixtureLayout, compared: FixtureLayout? = nil) {
        drawing.withLock {
            $0.layout = layout
            $0.compared = compared
        }
    }

    /// Serves until `stop` is called.
    public func serve() {
        site.serve({ [self] in handle($0) }, until: { stopping.withLock { $0 } })
    }

    public func stop() { stopping.withLock { $0 = true } }

    func handle(_ connection: HTTPConnection) {
        guard let (request, cookie) = site.admit(connection, posts: false) else { return }
        guard request.path == "/zoom" else { return site.file(request.path, connection, headers: cookie) }
        do {
            let asked = try ZoomRequest(request.query)
            let (png, region) = try drawing.withLock { (d: inout Drawing) throws(HTTPFailure) in
                try Self.render(asked, &d)
            }
            connection.respond(
                .ok,
                headers: LoopbackSite.common + cookie + [
                    ("Content-Type", "image/png"),
                    ("X-LayoutSnap-Region", "\(region.x),\(region.y),\(region.width),\(region.height)"),
                ], body: png)
        } catch {
            site.refuse(connection, error)
        }
    }

    /// What `/zoom` asks for, each parameter checked on its own: a bad one is a 400 naming it.
    struct ZoomRequest: Equatable {
        /// `a` (the default) or `b`, a comparison's other side.
        var side = "a"
        var state: String
        var frame: Int
        var zoom: Int
        var x, y, width, height: Double

        init(state: String, frame: Int, zoom: Int, x: Double, y: Double, width: Double, height: Double) {
            self.state = state
            self.frame = frame
            self.zoom = zoom
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        init(_ query: [String: String]) throws(HTTPFailure) {
            func given(_ name: String) throws(HTTPFailure) -> String {
                guard let value = query[name], !value.isEmpty else {
                    throw HTTPFailure(
                        .badRequest, "\(name) is missing: /zoom takes state, frame, zoom, x, y, w and h")
                }
                return value
            }
            func whole(_ name: String, _ range: ClosedRange<Int>) throws(HTTPFailure) -> Int {
                let text = try given(name)
                guard let value = Int(text), range.contains(value) else {
                    throw HTTPFailure(
                        .badRequest,
                        "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), found \"\(text.prefix(40))\""
                    )
                }
                return value
            }
            func points(_ name: String, positive: Bool) throws(HTTPFailure) -> Double {
                let text = try given(name)
                guard let value = Double(text), value.isFinite, positive ? value > 0 : true else {
                    throw HTTPFailure(
                        .badRequest,
                        "\(name) must be a \(positive ? "positive " : "")number of points, found \"\(text.prefix(40))\""
                    )
                }
                return value
            }
            side = query["side"].map { $0.isEmpty ? "a" : $0 } ?? "a"
            guard ["a", "b"].contains(side) else {
                throw HTTPFailure(.badRequest, "side must be a or b, found \"\(side.prefix(40))\"")
            }
            state = try given("state")
            frame = try whole("frame", 0...Int(Int32.max))
            zoom = try whole("zoom", 1...PreviewServer.maxZoom)
            x = try points("x", positive: false)
            y = try points("y", positive: false)
            width = try points("w", positive: true)
            height = try points("h", positive: true)
        }

        /// The device pixels at `scale` the region covers: widened to whole pixels, cut to the
        /// canvas; nil when nothing of it is on the canvas.
        func pixels(on canvas: Canvas) -> PixelRegion? {
            func span(_ from: Double, _ length: Double, _ size: Double, _ pixels: Int) -> (Int, Int)? {
                let lo = min(max(from, 0), size)
                let hi = min(max(from + length, 0), size)
                let p0 = max(0, min(pixels, Int((lo * canvas.scale).rounded(.down))))
                let p1 = max(0, min(pixels, Int((hi * canvas.scale).rounded(.up))))
                return p1 > p0 ? (p0, p1 - p0) : nil
            }
            guard let (px, pw) = span(x, width, canvas.width, canvas.pixelWidth),
                let (py, ph) = span(y, height, canvas.height, canvas.pixelHeight)
            else { return nil }
            return PixelRegion(x: px, y: py, width: pw, height: ph)
        }
    }

    /// The region drawn as a PNG, and the pixels it covers.
    static func render(_ asked: ZoomRequest, _ d: inout Drawing) throws(HTTPFailure) -> ([UInt8], PixelRegion) {
        guard let built = d.layout else {
            throw HTTPFailure(.unavailable, "the fixture has no good build yet: fix the error the terminal shows")
        }
        let layout: FixtureLayout
        if asked.side == "b" {
            guard let compared = d.compared else {
                throw HTTPFailure(
                    .badRequest,
                    "side: there is no B drawn again (B is rendered from a fixture with --compare or a --compare-* option; goldens are pictures)"
                )
            }
            layout = compared
        } else {
            layout = built
        }
        guard let state = layout.states.first(where: { $0.name == asked.state }) else {
            throw HTTPFailure(
                .badRequest,
                "state: \(layout.fixtureID) has no state \"\(asked.state.prefix(60))\" (its states: \(layout.states.map(\.name).joined(separator: ", ")))"
            )
        }
        guard asked.frame < state.frames.count else {
            throw HTTPFailure(
                .badRequest,
                "frame: \(state.name) has frames 0 to \(state.frames.count - 1), found \(asked.frame)")
        }
        let base = layout.canvas
        let canvas = Canvas(width: base.width, height: base.height, scale: base.scale * Double(asked.zoom))
        guard let region = asked.pixels(on: canvas) else {
            throw HTTPFailure(
                .badRequest,
                "x, y, w, h: the region is outside the \(PreviewBuilder.number(base.width)) x \(PreviewBuilder.number(base.height)) pt canvas"
            )
        }
        // A region's rows are drawn across the canvas (FrameRenderer): that is what is bounded.
        guard canvas.pixelWidth * region.height <= maxRegionPixels else {
            throw HTTPFailure(
                .badRequest,
                "h: the region's \(region.height) rows at zoom \(asked.zoom) (scale \(PreviewBuilder.number(canvas.scale))) are drawn across the canvas's \(canvas.pixelWidth) px, more than \(maxRegionPixels) pixels: ask for at most \(maxRegionPixels / canvas.pixelWidth) rows (\(PreviewBuilder.number((Double(maxRegionPixels / canvas.pixelWidth) / canvas.scale * 100).rounded(.down) / 100)) pt)"
            )
        }
        do {
            let engine = try d.engine ?? TextEngine(fonts: FontSystem.shared())
            d.engine = engine
            let renderer = try FrameRenderer(canvas: canvas, engine: engine, region: region)
            let pixels = try renderer.render(state.frames[asked.frame])
            // The pixels are the renderer's: it lives until they are encoded.
            let png = withExtendedLifetime(renderer) {
                PNGEncoder.encode(
                    pixels: pixels.pixels.baseAddress!, width: pixels.width, height: pixels.height,
                    stride: pixels.width)
            }
            return (png, region)
        } catch {
            throw HTTPFailure(.serverError, "cannot draw the region: \(error)")
        }
    }
}
