import LayoutSnapCore
import LayoutSnapRender

/// A single fixture's layout, for `layoutsnap layout` (no pixels).
public enum LayoutComputation {
    public static func layout(_ ref: FixtureRef, overrides: FixtureOverrides = FixtureOverrides()) throws(RunnerError)
        -> FixtureLayout
    {
        let engine: TextEngine
        do {
            engine = try TextEngine(fonts: FontSystem.shared())
        } catch {
            throw RunnerError.render(error)
        }
        return try decodeAndLayout(ref, overrides: overrides, measurer: engine).layout
    }

    /// Decodes the fixture, applies the overrides and lays it out; every failure becomes a
    /// fixture error naming the file (and the JSON path when there is one).
    public static func decodeAndLayout(
        _ ref: FixtureRef, overrides: FixtureOverrides,
        measurer: some TextMeasuring
    ) throws(RunnerError) -> (fixture: Fixture, layout: FixtureLayout) {
        do {
            let fixture = try overrides.apply(to: ref.load())
            return (fixture, try LayoutEngine.layout(fixture, measurer: measurer))
        } catch {
            throw RunnerError.fixture(.fixtureStage(error, ref: ref))
        }
    }
}
