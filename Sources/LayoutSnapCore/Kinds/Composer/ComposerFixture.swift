/// One event of a composer fixture (docs/fixtures/composer.md).
public enum ComposerEvent: Sendable, Hashable {
    /// Committed text typed at the caret, replacing the selection (and committing marked text first).
    case type(String)
    /// A suggestion chip tapped: the word plus exactly one space replaces the selection.
    case insertSuggestion(String)
    /// The user selects [start, end] (characters); start == end places the caret.
    case select(Int, Int)
    /// Marked text of an input method: replaces the marked text, or the selection when none.
    case compose(String)
    /// The input method commits its marked text.
    case commit
    /// The user drags the field's content by dy points (negative is up).
    case scrollBy(Double)
    case enable(Bool)
    /// The software keyboard slides in (the user taps into the field) or out.
    case keyboard(show: Bool)

    public var name: String {
        switch self {
        case .type: "type"
        case .insertSuggestion: "insertSuggestion"
        case .select: "select"
        case .compose: "compose"
        case .commit: "commit"
        case .scrollBy: "scroll"
        case .enable(let on): on ? "enable" : "disable"
        case .keyboard(let show): show ? "keyboard-show" : "keyboard-hide"
        }
    }
}

public struct ComposerStep: Sendable, Hashable {
    public var event: ComposerEvent
    public var at: Double?
    /// New words for the suggestion strip from this step on (the app updates them as you type).
    public var suggestions: [String]?

    public init(event: ComposerEvent, at: Double? = nil, suggestions: [String]? = nil) {
        self.event = event
        self.at = at
        self.suggestions = suggestions
    }
}

/// The `composer` kind (docs/fixtures/composer.md, seeds 001 and 004): an auto-height text field with a caret kept
/// in view, a suggestion strip pinned above the keyboard, and the keyboard itself.
public struct ComposerFixture: Sendable, Hashable {
    public var text: String
    /// [start, end] in characters (grapheme clusters); nil: the caret at the end of the text.
    public var selection: [Int]?
    public var font: FontSpec
    public var lineSpacing: Double
    public var maxLines: Int
    public var margin: Double
    public var border: Bool
    public var enabled: Bool
    public var disabledPlaceholder: String
    public var placeholder: String
    /// An ICU regular expression the whole text must match (the seed's `RegExpUse.use`).
    public var pattern: String?
    public var keyboard: Bool
    public var suggestions: [String]
    public var steps: [ComposerStep]

    public init(
        text: String = "", selection: [Int]? = nil, font: FontSpec = TextStyle.body.font, lineSpacing: Double = 2,
        maxLines: Int = 5, margin: Double = 16, border: Bool = true, enabled: Bool = true,
        disabledPlaceholder: String = "", placeholder: String = "", pattern: String? = nil, keyboard: Bool = true,
        suggestions: [String] = [], steps: [ComposerStep] = []
    ) {
        self.text = text
        self.selection = selection
        self.font = font
        self.lineSpacing = lineSpacing
        self.maxLines = maxLines
        self.margin = margin
        self.border = border
        self.enabled = enabled
        self.disabledPlaceholder = disabledPlaceholder
        self.placeholder = placeholder
        self.pattern = pattern
        self.keyboard = keyboard
        self.suggestions = suggestions
        self.steps = steps
    }
}
