/// Command-line overrides (`--device`, `--scale`, `--fps`) applied over a decoded fixture.
public struct FixtureOverrides: Sendable, Hashable {
    public var device: Device?
    public var scale: Double?
    public var fps: Double?

    public init(device: Device? = nil, scale: Double? = nil, fps: Double? = nil) {
        self.device = device; self.scale = scale; self.fps = fps
    }

    /// A device replaces the canvas (size and scale); `scale` and `fps` replace theirs. The canvas
    /// limits are checked again.
    public func apply(to fixture: Fixture) throws(FixtureError) -> Fixture {
        var f = fixture
        if let device {
            f.device = device
            f.canvas = Canvas(width: device.width, height: device.height, scale: device.scale)
        }
        if let scale { f.canvas.scale = scale }
        if let fps { f.fps = fps }
        let pixels = Double(f.canvas.pixelWidth) * Double(f.canvas.pixelHeight)
        if pixels > Double(Limits.maxCanvasPixels) || max(f.canvas.pixelWidth, f.canvas.pixelHeight) > Limits.maxCanvasSidePixels {
            throw FixtureError(file: fixture.file, message: "with the overrides the canvas is \(f.canvas.pixelWidth) x \(f.canvas.pixelHeight) pixels, more than the limit of \(Limits.maxCanvasPixels)")
        }
        return f
    }
}
