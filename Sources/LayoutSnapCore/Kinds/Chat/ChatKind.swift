/// The `chat` kind (docs/fixtures/chat.md): a message list anchored to the bottom, with keyboard insets and
/// sticky auto-scroll.

import LayoutSnapJSON

public struct ChatKind: Kind {
    public var name: String { "chat" }
    public var fields: [SchemaField] { ChatDecoder.fields }
    public var schemaDefinitions: [(name: String, node: SchemaNode)] {
        [
            ("message", ChatDecoder.message(roleRequired: true)),
            ("receivedMessage", ChatDecoder.message(roleRequired: false)),
        ]
    }
    public func decode(_ o: ObjectReader, folder: FixtureFolder) throws(JSONDecodingError) -> any KindContent {
        try ChatDecoder.decode(o, folder: folder)
    }
    public var generatorStream: UInt64 { 0x6368_6174 }
    public func generate(_ r: inout SeededRandom) -> JSONOutput { ChatGenerator.make(&r) }
    public var lintPolicy: LintPolicy {
        LintPolicy(
            containers: [("canvas", ["banner", "list", "input", "send"])],
            scrollingTexts: { $0.hasPrefix("message:") || $0 == "status" || $0 == "input" }, truncatable: [])
    }
}

extension FixtureKind {
    public static let chat = FixtureKind(ChatKind())
}

extension ChatFixture: KindContent {
    public var kind: FixtureKind { .chat }

    public func states(of fixture: Fixture, measurer: some TextMeasuring) throws -> [StateLayout] {
        try ChatRules(
            chat: self, canvas: fixture.canvas, device: fixture.device, textSize: fixture.textSize,
            direction: fixture.direction, theme: fixture.theme
        )
        .states(fps: fixture.fps, palette: fixture.palette, measurer: measurer)
    }

    /// The pictures the messages show, in `messages` and in `receive` steps.
    public var inputFiles: [InputFile] {
        let received = steps.compactMap { step -> ChatMessage? in
            if case .receive(let m) = step.event { m } else { nil }
        }
        return (messages + received).compactMap { m in
            guard let image = m.image, let path = image.path, let source = image.source else { return nil }
            return InputFile(
                path: path, written: source.written, line: source.line, column: source.column, jsonPath: source.jsonPath
            )
        }
    }

    /// The chat's text styles are its rules', which read `fixture.textSize` themselves.
    public func at(_ textSize: ContentSizeCategory, theme: Theme) -> ChatFixture { self }

    /// Keyboard springs and scrolls to the bottom animate; other steps are one frame.
    public func estimatedFrames(fps: Double) -> Double {
        1 + Double(steps.count) * (0.5 * fps + 1)
    }

    /// Every message is laid out, once; a step may add one.
    public var estimatedTexts: Double { Double(messages.count + steps.count) }
}
