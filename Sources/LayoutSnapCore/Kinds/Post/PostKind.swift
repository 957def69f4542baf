/// The `post` kind (docs/fixtures/post.md): a card that animates between compact and expanded.

import LayoutSnapJSON

public struct PostKind: Kind {
    public var name: String { "post" }
    public var fields: [SchemaField] { PostDecoder.fields }
    public func decode(_ o: ObjectReader, folder: FixtureFolder) throws(JSONDecodingError) -> any KindContent {
        try PostDecoder.decode(o, folder: folder)
    }
    public var generatorStream: UInt64 { 0x706F_7374 }
    public func generate(_ r: inout SeededRandom) -> JSONOutput { PostGenerator.make(&r) }
    public var lintPolicy: LintPolicy {
        LintPolicy(
            containers: [("canvas", ["card"]), ("card", ["title", "summary", "image", "body", "author"])],
            scrollingTexts: { _ in false }, truncatable: ["title", "summary"])
    }
}

extension FixtureKind {
    public static let post = FixtureKind(PostKind())
}

extension PostFixture: KindContent, CurveAnimatedContent {
    public var kind: FixtureKind { .post }

    public func states(of fixture: Fixture, measurer: some TextMeasuring) throws -> [StateLayout] {
        try PostRules(
            post: self, canvas: fixture.canvas, measurer: measurer, textSize: fixture.textSize,
            direction: fixture.direction, theme: fixture.theme
        )
        .states(fps: fixture.fps, palette: fixture.palette)
    }

    public func estimatedFrames(fps: Double) -> Double {
        let perStep: Double
        switch curve {
        case .timing(_, let duration): perStep = (duration * fps).rounded(.up) + 1
        case .spring: perStep = fps + 1
        }
        return 1 + Double(steps.count) * perStep
    }

    /// The title, summary and body.
    public var estimatedTexts: Double { 3 }

    /// The card's text styles are its rules', which read `fixture.textSize` and `fixture.theme`
    /// themselves; a curve the fixture leaves out is the theme's expand motion.
    public func at(_ textSize: ContentSizeCategory, theme: Theme) -> PostFixture {
        guard !ownsCurve else { return self }
        var post = self
        post.curve = theme.motion.expand
        return post
    }

    public var inputFiles: [InputFile] {
        guard let image, let path = image.path, let source = image.source else { return [] }
        return [
            InputFile(
                path: path, written: source.written, line: source.line, column: source.column, jsonPath: source.jsonPath
            )
        ]
    }
}
