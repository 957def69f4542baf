/// Applies a fixture's kind rules: fixture in, every state and frame out. Pure: text is measured
/// through `TextMeasuring`, so the whole pipeline up to pixels runs in unit tests without Pango.
public enum LayoutEngine {
    public static func layout(_ fixture: Fixture, measurer: some TextMeasuring) throws -> FixtureLayout {
        var states = try fixture.content.states(of: fixture, measurer: measurer)
        // Right to left: the whole view mirrored (the rules placed what lies inside texts).
        if fixture.direction == .rtl {
            states = states.map { state in
                var s = state
                s.frames = state.frames.map { RightToLeft.mirror($0, width: fixture.canvas.width) }
                return s
            }
        }
        return FixtureLayout(fixtureID: fixture.id, canvas: fixture.canvas, states: states)
    }
}
