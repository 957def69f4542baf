/// The `transcript` fields of docs/fixtures/transcript.md.

import LayoutSnapJSON

enum TranscriptDecoder {
    static func decode(_ o: ObjectReader) throws(JSONDecodingError) -> TranscriptFixture {
        var t = TranscriptFixture()
        if let e = o.optional("text") { t.text = try e.string() }
        if let e = o.optional("font") { t.font = try FontDecoder.decode(e) }
        if let e = o.optional("maxLines") {
            t.maxLines = try e.int(in: 1...1000, what: "maxLines")
        }
        t.padding = try o.double("padding", in: 0...1000, what: "padding in points") ?? t.padding
        t.margin = try o.double("margin", in: 0...1000, what: "a margin in points") ?? t.margin
        if let e = o.optional("sticky") { t.sticky = try e.bool() }
        t.indicators = try o.enumeration("indicators", IndicatorMode.self) ?? t.indicators
        if let e = o.optional("steps") {
            t.steps = try e.each(decodeStep)
        }
        return t
    }

    static let eventNames = ["append", "scrollBy", "scrollToBottom"]

    static func decodeStep(_ element: JSONElement) throws(JSONDecodingError) -> TranscriptStep {
        let o = try element.object()
        let name = try o.stepEvent(eventNames, kind: "transcript", step: element)
        let value = try o.required(name)
        let event: TranscriptEvent
        switch name {
        case "append": event = .append(try value.string())
        case "scrollBy": event = .scrollBy(try value.double(in: -1_000_000...1_000_000, what: "a distance in points"))
        default:
            try value.isTrue()
            event = .scrollToBottom
        }
        let at = try o.stepDelay()
        try o.finish()
        return TranscriptStep(event: event, at: at)
    }
}

extension TranscriptDecoder {
    /// The fields `decode` reads, for the schema (a test keeps the two equal).
    static let fields: [SchemaField] = [
        SchemaField("text", .string, "The text so far (inline **bold** and *italic*)."),
        SchemaField("font", .ref("font")),
        SchemaField("maxLines", .integer(1...1000), "The view grows to this many lines, then scrolls (default 4)."),
        SchemaField("padding", .number(0...1000), "Around the text, inside the view (default 16)."),
        SchemaField("margin", .number(0...1000), "The view sits at (margin, margin) (default 16)."),
        SchemaField("sticky", .boolean, "Follow new text only while at the bottom (default true)."),
        SchemaField("indicators", .enumeration(IndicatorMode.self), "The scroll indicator (default scrolling)."),
        SchemaField(
            "steps",
            .array(
                .object(
                    [
                        SchemaField("append", .string, "Text arrives, appended as written."),
                        SchemaField("scrollBy", FixtureSchema.scrollDistance, "The user drags; negative is up."),
                        SchemaField("scrollToBottom", .trueFlag),
                        FixtureSchema.stepDelay,
                    ], exactlyOneOf: eventNames)), "Events applied in order; each makes a state."),
    ]
}
