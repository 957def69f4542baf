import Foundation
import LayoutSnapJSON

/// The `composer` fields of docs/fixtures/composer.md.
enum ComposerDecoder {
    static func decode(_ o: ObjectReader) throws(JSONDecodingError) -> ComposerFixture {
        var c = ComposerFixture()
        if let e = o.optional("text") { c.text = try e.string() }
        if let e = o.optional("selection") {
            let range = try decodeRange(e)
            if range[1] > c.text.count {
                throw e.error(
                    "the selection ends at \(range[1]), past the end of the text (\(c.text.count) characters)")
            }
            c.selection = range
        }
        if let e = o.optional("font") { c.font = try FontDecoder.decode(e) }
        c.lineSpacing = try o.double("lineSpacing", in: 0...1000, what: "a line spacing in points") ?? c.lineSpacing
        if let e = o.optional("maxLines") {
            c.maxLines = try e.int(in: 1...1000, what: "maxLines")
        }
        c.margin = try o.double("margin", in: 0...1000, what: "a margin in points") ?? c.margin
        if let e = o.optional("border") { c.border = try e.bool() }
        if let e = o.optional("enabled") { c.enabled = try e.bool() }
        if let e = o.optional("disabledPlaceholder") { c.disabledPlaceholder = try e.string() }
        if let e = o.optional("placeholder") { c.placeholder = try e.string() }
        if let e = o.optional("pattern") {
            let pattern = try e.string()
            do {
                // Checked in the form it is used in: anchored to the whole text.
                _ = try NSRegularExpression(pattern: pattern)
                _ = try NSRegularExpression(pattern: ComposerRules.wholeMatch(pattern))
            } catch {
                throw e.error("\"\(pattern)\" is not a valid regular expression (ICU syntax)")
            }
            c.pattern = pattern
        }
        if let e = o.optional("keyboard") { c.keyboard = try e.bool() }
        if let e = o.optional("suggestions") { c.suggestions = try decodeWords(e) }
        if let e = o.optional("steps") {
            c.steps = try e.each(decodeStep)
        }
        return c
    }

    static let eventNames = [
        "type", "insertSuggestion", "select", "compose", "commit", "scrollBy", "enable", "keyboard",
    ]
    static let maxSuggestions = 100

    static func decodeStep(_ element: JSONElement) throws(JSONDecodingError) -> ComposerStep {
        let o = try element.object()
        let name = try o.stepEvent(eventNames, kind: "composer", step: element)
        let value = try o.required(name)
        let event: ComposerEvent
        switch name {
        case "type": event = .type(try value.string())
        case "insertSuggestion":
            let word = try value.string()
            if word.isEmpty { throw value.error("expected a word, found an empty string") }
            event = .insertSuggestion(word)
        case "select":
            let range = try decodeRange(value)
            event = .select(range[0], range[1])
        case "compose": event = .compose(try value.string())
        case "commit":
            try value.isTrue()
            event = .commit
        case "scrollBy": event = .scrollBy(try value.double(in: -1_000_000...1_000_000, what: "a distance in points"))
        case "enable": event = .enable(try value.bool())
        default:
            let mode = try value.string()
            guard mode == "show" || mode == "hide" else {
                throw value.error("expected \"show\" or \"hide\", found \"\(mode)\"")
            }
            event = .keyboard(show: mode == "show")
        }
        let at = try o.stepDelay()
        var suggestions: [String]?
        if let e = o.optional("suggestions") { suggestions = try decodeWords(e) }
        try o.finish()
        return ComposerStep(event: event, at: at, suggestions: suggestions)
    }

    /// `[start, end]` in characters, start ≤ end.
    static func decodeRange(_ element: JSONElement) throws(JSONDecodingError) -> [Int] {
        let items = try element.array()
        guard items.count == 2 else {
            throw element.error("expected [start, end] in characters, found \(items.count) numbers")
        }
        let start = try items[0].int()
        let end = try items[1].int()
        if start < 0 { throw items[0].error("expected a character offset of 0 or more, found \(start)") }
        if end < start { throw items[1].error("the end (\(end)) is before the start (\(start))") }
        return [start, end]
    }

    static func decodeWords(_ element: JSONElement) throws(JSONDecodingError) -> [String] {
        let items = try element.array()
        if items.count > maxSuggestions {
            throw element.error("expected at most \(maxSuggestions) suggestions, found \(items.count)")
        }
        return try items.map { (item) throws(JSONDecodingError) -> String in
            let word = try item.string()
            if word.isEmpty { throw item.error("expected a word, found an empty string") }
            return word
        }
    }
}

extension ComposerDecoder {
    static let range = SchemaNode.array(.integer(0...Int(Int32.max)), minItems: 2, maxItems: 2)
    static let words = SchemaNode.array(.nonEmptyString, maxItems: maxSuggestions)

    /// The fields `decode` reads, for the schema (a test keeps the two equal).
    static let fields: [SchemaField] = [
        SchemaField("text", .string, "The field's text, literal."),
        SchemaField("selection", range, "[start, end] in characters (default: the end of the text)."),
        SchemaField("font", .ref("font")),
        SchemaField("lineSpacing", .number(0...1000), "Points added between lines (default 2)."),
        SchemaField("maxLines", .integer(1...1000), "The field grows to this many lines, then scrolls (default 5)."),
        SchemaField("margin", .number(0...1000), "The field sits at (margin, margin) (default 16)."),
        SchemaField("border", .boolean, "A 1 pt gray stroke with 20 pt corners (default true)."),
        SchemaField("enabled", .boolean, "Default true."),
        SchemaField("disabledPlaceholder", .string, "Shown instead of the text while disabled."),
        SchemaField("placeholder", .string, "Shown while the text is empty."),
        SchemaField("pattern", .string, "An ICU regular expression the whole text must match."),
        SchemaField("keyboard", .boolean, "The keyboard is up at first (default true)."),
        SchemaField("suggestions", words, "The words of the suggestion strip."),
        SchemaField(
            "steps",
            .array(
                .object(
                    [
                        SchemaField("type", .string, "Replaces the selection with the text."),
                        SchemaField(
                            "insertSuggestion", .nonEmptyString, "Replaces the selection with the word and one space."),
                        SchemaField("select", range, "Selects [start, end], or places the caret when they are equal."),
                        SchemaField("compose", .string, "Marked text of an input method."),
                        SchemaField("commit", .trueFlag, "The marked text becomes ordinary text."),
                        SchemaField(
                            "scrollBy", FixtureSchema.scrollDistance, "The user drags the content; negative is up."),
                        SchemaField("enable", .boolean),
                        SchemaField("keyboard", FixtureSchema.keyboardMotion),
                        FixtureSchema.stepDelay,
                        SchemaField("suggestions", words, "The strip's words from this step on."),
                    ], exactlyOneOf: eventNames)), "Events applied in order; each makes a state."),
    ]
}
