/// The field's editing model, free of geometry: the text (marked text included, as UITextView's
/// `text` includes it), the selection and the marked range, all in characters (grapheme clusters).
///
/// Every edit rebuilds the text as a String and measures offsets on the result, so an edit that
/// merges with its neighbour (a combining accent typed after a letter) cannot leave an offset
/// pointing inside a character.
public struct ComposerEditor: Sendable, Hashable {
    public private(set) var characters: [Character]
    public private(set) var selection: CharacterRange
    /// The input method's marked text, nil when no composition is active.
    public private(set) var marked: CharacterRange?

    /// [start, end) in characters; start == end is a caret.
    public struct CharacterRange: Sendable, Hashable {
        public var start: Int
        public var end: Int
        public init(_ start: Int, _ end: Int) {
            self.start = start
            self.end = end
        }
        public var isEmpty: Bool { start == end }
        public var ints: [Int] { [start, end] }
    }

    /// What an editing step did: changed the field, or nothing and why.
    public enum Outcome: Sendable, Hashable {
        case applied
        case ignored(String)
    }

    public init(text: String, selection: [Int]? = nil) {
        characters = Array(text)
        let s = selection ?? [characters.count, characters.count]
        self.selection = CharacterRange(min(s[0], characters.count), min(s[1], characters.count))
    }

    public var value: String { String(characters) }
    public var count: Int { characters.count }
    /// Where the caret stands (the end of the selection, as `caretRect(for: selectedTextRange.end)`).
    public var caret: Int { selection.end }

    /// Replaces `range` with `insertion` and puts the caret after it; returns the inserted range.
    @discardableResult
    private mutating func replace(_ range: CharacterRange, with insertion: String) -> CharacterRange {
        let before = String(characters[..<range.start]) + insertion
        let text = before + String(characters[range.end...])
        characters = Array(text)
        // Measured on the rebuilt text: a combining mark merges with what precedes it.
        let end = min(before.count, characters.count)
        let start = min(String(characters[..<range.start]).count, end)
        selection = CharacterRange(end, end)
        return CharacterRange(start, end)
    }

    /// Ends the composition, keeping its text (what UIKit's `unmarkText` does).
    @discardableResult
    public mutating func commit() -> Outcome {
        guard marked != nil else { return .ignored("no marked text to commit") }
        marked = nil
        return .applied
    }

    /// Committed text typed at the caret: any marked text is committed first.
    public mutating func type(_ text: String) {
        marked = nil
        replace(selection, with: text)
    }

    /// The word and exactly one space replace the selection; no space is added when the
    /// character after the selection is already whitespace (docs/fixtures/composer.md). Ignored while an input
    /// method is composing, so the composition is never broken.
    public mutating func insertSuggestion(_ word: String) -> Outcome {
        if marked != nil { return .ignored("insertSuggestion ignored: marked text is active") }
        let next = selection.end < characters.count ? characters[selection.end] : nil
        let suffix = next?.isWhitespace == true ? "" : " "
        replace(selection, with: word + suffix)
        return .applied
    }

    /// Selects [start, end], clamped to the text (the rules reject a range past the text with its
    /// JSON path first). Changing the selection ends a composition, as in UIKit.
    public mutating func select(_ start: Int, _ end: Int) {
        marked = nil
        let e = min(max(end, 0), characters.count)
        selection = CharacterRange(min(max(start, 0), e), e)
    }

    /// Marked text: replaces the current marked text, or the selection when nothing is marked.
    /// An empty composition removes the marked text and ends the composition.
    public mutating func compose(_ text: String) {
        let range = marked ?? selection
        let inserted = replace(range, with: text)
        marked = text.isEmpty ? nil : inserted
    }
}
