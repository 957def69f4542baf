/// The `transcript` kind (docs/fixtures/transcript.md): live text that grows from 1 to 4 lines, then scrolls.

import LayoutSnapJSON

public struct TranscriptKind: Kind {
    public var name: String { "transcript" }
    public var fields: [SchemaField] { TranscriptDecoder.fields }
    public func decode(_ o: ObjectReader, folder: FixtureFolder) throws(JSONDecodingError) -> any KindContent {
        try TranscriptDecoder.decode(o)
    }
    public var generatorStream: UInt64 { 0x7472_616E }
    public func generate(_ r: inout SeededRandom) -> JSONOutput { TranscriptGenerator.make(&r) }
    public var lintPolicy: LintPolicy {
        LintPolicy(containers: [("canvas", ["view"])], scrollingTexts: { $0 == "text" }, truncatable: [])
    }
}

extension FixtureKind {
    public static let transcript = FixtureKind(TranscriptKind())
}

extension TranscriptFixture: KindContent {
    public var kind: FixtureKind { .transcript }

    public func states(of fixture: Fixture, measurer: some TextMeasuring) throws -> [StateLayout] {
        try TranscriptRules(transcript: self, canvas: fixture.canvas, theme: fixture.theme)
            .states(fps: fixture.fps, palette: fixture.palette, measurer: measurer)
    }

    /// A default-spring scroll settles in well under a second.
    public func estimatedFrames(fps: Double) -> Double {
        1 + Double(steps.count) * (0.8 * fps + 1)
    }

    /// The text as it stands at each step.
    public var estimatedTexts: Double { Double(1 + steps.count) }

    public func at(_ textSize: ContentSizeCategory, theme: Theme) -> TranscriptFixture {
        var t = self
        t.font = theme.textStyles.restyle(font, at: textSize)
        return t
    }
}
