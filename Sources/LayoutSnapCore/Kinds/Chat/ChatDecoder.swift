/// The `chat` fields of docs/fixtures/chat.md.

import LayoutSnapJSON

enum ChatDecoder {
    static let maxMessages = 100_000

    static func decode(_ o: ObjectReader, folder: FixtureFolder) throws(JSONDecodingError) -> ChatFixture {
        var c = ChatFixture()
        var ids = Set<String>()
        if let e = o.optional("messages") {
            let items = try e.array()
            if items.count > maxMessages {
                throw e.error("expected at most \(maxMessages) messages, found \(items.count)")
            }
            c.messages = try e.enumeratedEach { (i, item) throws(JSONDecodingError) in
                let m = try decodeMessage(item, defaultID: "\(i + 1)", defaultRole: nil, folder: folder)
                guard ids.insert(m.id).inserted else {
                    throw item.error("the id \"\(m.id)\" is used by an earlier message")
                }
                return m
            }
        }
        c.status = try o.enumeration("status", ChatStatus.self) ?? c.status
        if let e = o.optional("online") { c.online = try e.bool() }
        if let e = o.optional("input") { c.input = try e.string() }
        if let e = o.optional("keyboard") { c.keyboard = try e.bool() }
        if let e = o.optional("steps") {
            // A message without an id is named by its place in the conversation ("3"), as a sent
            // one is; a name already taken gets a prime.
            var count = c.messages.count
            c.steps = try e.each { (step) throws(JSONDecodingError) in
                var next = "\(count + 1)"
                while ids.contains(next) { next += "'" }
                let s = try decodeStep(step, nextID: next, folder: folder)
                switch s.event {
                case .receive(let m):
                    guard ids.insert(m.id).inserted else {
                        throw step.error("the id \"\(m.id)\" is used by an earlier message")
                    }
                    count += 1
                case .send:
                    ids.insert(next)
                    count += 1
                default: break
                }
                return s
            }
        }
        return c
    }

    /// `{"id", "role", "text", "image": {"aspectRatio": r}}`; a missing id is the message's
    /// position, a missing role in `receive` is the assistant's.
    static func decodeMessage(
        _ element: JSONElement, defaultID: String, defaultRole: ChatRole?, folder: FixtureFolder
    )
        throws(JSONDecodingError) -> ChatMessage
    {
        let o = try element.object()
        var id = defaultID
        if let e = o.optional("id") {
            id = try e.string()
            if id.isEmpty { throw e.error("expected a non-empty id") }
        }
        let role: ChatRole
        if let r = try o.enumeration("role", ChatRole.self) {
            role = r
        } else if let defaultRole {
            role = defaultRole
        } else {
            _ = try o.required("role")
            role = .assistant
        }
        var text = ""
        if let e = o.optional("text") { text = try e.string() }
        let image = try o.optional("image").map { (e: JSONElement) throws(JSONDecodingError) in
            try PostDecoder.decodeImage(e, folder: folder, ratios: imageRatios)
        }
        try o.finish()
        return ChatMessage(id: id, role: role, text: text, image: image)
    }

    static let eventNames = [
        "open", "receive", "send", "stream", "status", "scrollBy", "scrollToBottom", "keyboard", "online",
    ]

    /// A picture's width / height: from a tall phone screenshot to a wide panorama.
    static let imageRatios: ClosedRange<Double> = 0.05...20

    static func decodeStep(_ element: JSONElement, nextID: String, folder: FixtureFolder)
        throws(JSONDecodingError) -> ChatStep
    {
        let o = try element.object()
        let name = try o.stepEvent(eventNames, kind: "chat", step: element)
        let value = try o.required(name)
        let event: ChatEvent
        switch name {
        case "open":
            try value.isTrue()
            event = .open
        case "receive":
            event = .receive(
                try decodeMessage(value, defaultID: nextID, defaultRole: .assistant, folder: folder))
        case "send": event = .send(try value.string())
        case "stream": event = .stream(try value.string())
        case "status": event = .status(try value.enumeration(ChatStatus.self))
        case "scrollBy": event = .scrollBy(try value.double(in: -1_000_000...1_000_000, what: "a distance in points"))
        case "scrollToBottom":
            try value.isTrue()
            event = .scrollToBottom
        case "keyboard":
            let mode = try value.string()
            guard mode == "show" || mode == "hide" else {
                throw value.error("expected \"show\" or \"hide\", found \"\(mode)\"")
            }
            event = .keyboard(show: mode == "show")
        default: event = .online(try value.bool())
        }
        let at = try o.stepDelay()
        try o.finish()
        return ChatStep(event: event, at: at)
    }
}

extension ChatDecoder {
    /// A message's fields; `role` is required in `messages` and defaults to assistant in `receive`.
    static func message(roleRequired: Bool) -> SchemaNode {
        .object(
            [
                SchemaField("id", .nonEmptyString, "Unique; defaults to the message's position (\"3\")."),
                SchemaField("role", .enumeration(ChatRole.self)),
                SchemaField("text", .string, "The text (**bold** and *italic*)."),
                SchemaField(
                    "image", PostDecoder.imageNode(ratios: imageRatios),
                    "A picture above the text, edge to edge and cut to the bubble: {\"path\": \"images/x.png\"} or a placeholder {\"aspectRatio\": r}."
                ),
            ], required: roleRequired ? ["role"] : [])
    }

    /// The fields `decode` reads, for the schema (a test keeps the two equal).
    static let fields: [SchemaField] = [
        SchemaField("messages", .array(.ref("message"), maxItems: maxMessages), "The conversation, oldest first."),
        SchemaField("status", .enumeration(ChatStatus.self), "Any but idle shows the status row (default idle)."),
        SchemaField("online", .boolean, "Offline shows a banner under the top safe area (default true)."),
        SchemaField("input", .string, "The input bar's draft."),
        SchemaField("keyboard", .boolean, "The keyboard is up at first (default false)."),
        SchemaField(
            "steps",
            .array(
                .object(
                    [
                        SchemaField("open", .trueFlag, "The view appears again, at the bottom."),
                        SchemaField(
                            "receive", .ref("receivedMessage"), "A message arrives (role defaults to assistant)."),
                        SchemaField("send", .string, "The user sends a message; the draft is cleared."),
                        SchemaField("stream", .string, "Appended to the last message."),
                        SchemaField("status", .enumeration(ChatStatus.self)),
                        SchemaField("scrollBy", FixtureSchema.scrollDistance, "The user drags; negative is up."),
                        SchemaField("scrollToBottom", .trueFlag),
                        SchemaField("keyboard", FixtureSchema.keyboardMotion),
                        SchemaField("online", .boolean),
                        FixtureSchema.stepDelay,
                    ], exactlyOneOf: eventNames)), "Events applied in order; each makes a state."),
    ]
}
