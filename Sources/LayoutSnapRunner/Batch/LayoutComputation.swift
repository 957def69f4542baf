import LayoutSnapCore
import LayoutSnapRender

/// A single fixture's layout, for `layoutsnap layout` (no pixels).
public enum LayoutComputation {
    public static func layout(_ ref: FixtureRef, overrides: FixtureOverrides = FixtureOverrides()) throws(RunnerError) -> FixtureLayout {
        let engine: TextEngine
        do {
            engine = try TextEngine(fonts: FontSystem.shared())
        } catch {
            throw RunnerError.environment(error.description)
        }
        do {
            let fixture = try overrides.apply(to: FixtureDecoder.load(path: ref.path, id: ref.id, displayPath: ref.displayPath))
            return try LayoutEngine.layout(fixture, measurer: engine)
        } catch let error as FixtureError {
            throw RunnerError.fixture(error.description)
        } catch let error as LayoutError {
            throw RunnerError.fixture(FixtureError(file: ref.displayPath, path: error.path, message: error.message).description)
        } catch {
            throw RunnerError.fixture("\(ref.displayPath): \(error)")
        }
    }
}
