/// The `composer` kind (docs/fixtures/composer.md): an auto-height input with a suggestion strip and a caret
/// that stays visible.

import LayoutSnapJSON

public struct ComposerKind: Kind {
    public var name: String { "composer" }
    public var fields: [SchemaField] { ComposerDecoder.fields }
    public func decode(_ o: ObjectReader, folder: FixtureFolder) throws(JSONDecodingError) -> any KindContent {
        try ComposerDecoder.decode(o)
    }
    public var generatorStream: UInt64 { 0x636F_6D70 }
    public func generate(_ r: inout SeededRandom) -> JSONOutput { ComposerGenerator.make(&r) }
    public var lintPolicy: LintPolicy {
        LintPolicy(
            containers: [("canvas", ["field", "suggestions"])],
            scrollingTexts: { $0 == "text" || $0 == "placeholder" }, truncatable: [],
            caret: CaretPolicy(
                container: "field", covers: [("suggestions", "suggestion strip"), ("keyboard", "keyboard")]))
    }
}

extension FixtureKind {
    public static let composer = FixtureKind(ComposerKind())
}

extension ComposerFixture: KindContent {
    public var kind: FixtureKind { .composer }

    public func states(of fixture: Fixture, measurer: some TextMeasuring) throws -> [StateLayout] {
        try ComposerRules(
            composer: self, canvas: fixture.canvas, device: fixture.device, textSize: fixture.textSize,
            direction: fixture.direction, theme: fixture.theme
        )
        .states(fps: fixture.fps, palette: fixture.palette, measurer: measurer)
    }

    /// Only the keyboard animates (about half a second); edits are single frames.
    public func estimatedFrames(fps: Double) -> Double {
        let keyboardSteps = steps.filter { if case .keyboard = $0.event { true } else { false } }.count
        return 1 + Double(steps.count) + Double(keyboardSteps) * 0.5 * fps
    }

    /// The field's text as it stands at each step.
    public var estimatedTexts: Double { Double(1 + steps.count) }

    public func at(_ textSize: ContentSizeCategory, theme: Theme) -> ComposerFixture {
        var c = self
        c.font = theme.textStyles.restyle(font, at: textSize)
        return c
    }
}
