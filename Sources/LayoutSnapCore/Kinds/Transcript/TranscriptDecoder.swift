/// The `transcript` fields of SPEC §4.1.
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
            t.steps = try e.array().map { (step) throws(JSONDecodingError) -> TranscriptStep in try decodeStep(step) }
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
