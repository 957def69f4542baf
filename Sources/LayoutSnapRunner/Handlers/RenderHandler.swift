import LayoutSnapCore
import LayoutSnapImaging
import LayoutSnapRender

/// `render --out DIR`: every frame as PNG plus layout.json, in the goldens' folder shape.
public struct RenderHandler: FrameHandler {
    public let output: String

    public init(output: String) { self.output = output }

    public func handle(_ fixture: Fixture, state: String, frame: LayoutFrame, pixels: FramePixels) -> FrameResult {
        let key = GoldenStore.frameKey(fixture: fixture.id, state: state, index: frame.index)
        var result = FrameResult(state: state, index: frame.index, status: .rendered, goldenKey: key)
        let png = PNGEncoder.encode(
            pixels: pixels.pixels.baseAddress!, width: pixels.width, height: pixels.height, stride: pixels.width)
        do {
            try AtomicFile.write(png, to: output + "/" + key)
            result.actualPath = output + "/" + key
        } catch {
            result.status = .error
            result.detail = error.description
        }
        return result
    }

    public func fixtureFinished(_ fixture: Fixture, layout: FixtureLayout, frames: inout [FrameResult])
        throws(RunnerError) -> FixtureNote?
    {
        try AtomicFile.write(LayoutJSON.encode(layout), to: output + "/" + GoldenStore.layoutKey(fixture: fixture.id))
        return nil
    }
}
