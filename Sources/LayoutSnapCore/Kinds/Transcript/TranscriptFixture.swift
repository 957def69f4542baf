/// When the scroll indicator is drawn.
public enum IndicatorMode: String, Sendable, Hashable, CaseIterable {
    /// Only in frames where a scroll animation is moving the content.
    case scrolling
    case always
    case never
}

public enum TranscriptEvent: Sendable, Hashable {
    /// Text arrives (appended as written).
    case append(String)
    /// The user drags by dy points (negative is up); clamped to the content.
    case scrollBy(Double)
    case scrollToBottom

    var name: String {
        switch self {
        case .append: "append"
        case .scrollBy: "scroll"
        case .scrollToBottom: "scrollToBottom"
        }
    }
}

public struct TranscriptStep: Sendable, Hashable {
    public var event: TranscriptEvent
    public var at: Double?

    public init(event: TranscriptEvent, at: Double? = nil) {
        self.event = event
        self.at = at
    }
}

/// The `transcript` kind (docs/fixtures/transcript.md): read-only text that grows from 1 to `maxLines`
/// whole lines, then scrolls.
public struct TranscriptFixture: Sendable, Hashable {
    public var text: String
    public var font: FontSpec
    public var maxLines: Int
    public var padding: Double
    public var margin: Double
    public var sticky: Bool
    public var indicators: IndicatorMode
    public var steps: [TranscriptStep]

    public init(
        text: String = "", font: FontSpec = TextStyle.body.font, maxLines: Int = 4, padding: Double = 16,
        margin: Double = 16, sticky: Bool = true, indicators: IndicatorMode = .scrolling, steps: [TranscriptStep] = []
    ) {
        self.text = text
        self.font = font
        self.maxLines = maxLines
        self.padding = padding
        self.margin = margin
        self.sticky = sticky
        self.indicators = indicators
        self.steps = steps
    }
}
