/// Applies a fixture's kind rules: fixture in, every state and frame out. Pure: text is measured
/// through `TextMeasuring`, so the whole pipeline up to pixels runs in unit tests without Pango.
public enum LayoutEngine {
    public static func layout(_ fixture: Fixture, measurer: some TextMeasuring) throws -> FixtureLayout {
        var states: [StateLayout]
        switch fixture.content {
        case let .post(post):
            let rules = try PostRules(post: post, canvas: fixture.canvas, measurer: measurer, textSize: fixture.textSize,
                                  direction: fixture.direction)
            states = try rules.states(fps: fixture.fps, palette: fixture.palette)
        case let .transcript(transcript):
            states = try TranscriptRules(transcript: transcript, canvas: fixture.canvas)
                .states(fps: fixture.fps, palette: fixture.palette, measurer: measurer)
        case let .chat(chat):
            states = try ChatRules(chat: chat, canvas: fixture.canvas, device: fixture.device, textSize: fixture.textSize)
                .states(fps: fixture.fps, palette: fixture.palette, measurer: measurer)
        case let .composer(composer):
            states = try ComposerRules(composer: composer, canvas: fixture.canvas, device: fixture.device, textSize: fixture.textSize,
                                   direction: fixture.direction)
                .states(fps: fixture.fps, palette: fixture.palette, measurer: measurer)
        }
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
