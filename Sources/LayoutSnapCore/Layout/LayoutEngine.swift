/// Applies a fixture's kind rules: fixture in, every state and frame out. Pure: text is measured
/// through `TextMeasuring`, so the whole pipeline up to pixels runs in unit tests without Pango.
public enum LayoutEngine {
    public static func layout(_ fixture: Fixture, measurer: some TextMeasuring) throws -> FixtureLayout {
        let states: [StateLayout]
        switch fixture.content {
        case let .post(post):
            let rules = try PostRules(post: post, canvas: fixture.canvas, measurer: measurer, textSize: fixture.textSize)
            states = try rules.states(fps: fixture.fps, palette: fixture.palette)
        case let .transcript(transcript):
            states = try TranscriptRules(transcript: transcript, canvas: fixture.canvas)
                .states(fps: fixture.fps, palette: fixture.palette, measurer: measurer)
        case let .chat(chat):
            states = try ChatRules(chat: chat, canvas: fixture.canvas, device: fixture.device, textSize: fixture.textSize)
                .states(fps: fixture.fps, palette: fixture.palette, measurer: measurer)
        case let .composer(composer):
            states = try ComposerRules(composer: composer, canvas: fixture.canvas, device: fixture.device, textSize: fixture.textSize)
                .states(fps: fixture.fps, palette: fixture.palette, measurer: measurer)
        }
        return FixtureLayout(fixtureID: fixture.id, canvas: fixture.canvas, states: states)
    }
}
