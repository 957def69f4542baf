import LayoutSnapJSON

/// Chat exports as chat fixtures (docs/commands.md "import"): the role/content message lists chat
/// APIs use. A file holds one conversation (`[{"role", "content"}, ...]`, `{"messages": [...]}`,
/// Gemini's `{"contents": [{"role", "parts"}]}`), a list of them, or one per line (`.jsonl`). Each
/// conversation becomes a fixture whose messages have explicit ids, `m1`, `m2`, ... in order.
public enum ChatImport {
    /// A message's text is cut (with "…") past this many characters.
    public static let maxMessageCharacters = 20_000
    /// What one fixture's messages may hold, under docs/fixtures/README.md "Limits" (1,000,000
    /// bytes of text and 5,000 line breaks), with room for the rest of the fixture; older
    /// messages past it are left out, since the chat opens at its newest.
    static let textBudget = 900_000
    static let lineBreakBudget = 4_900
    /// Chunks a streamed last message arrives in (`--stream-last`).
    public static let streamChunks = 8

    struct Message {
        var role: String
        var text: String
        var image: Bool
    }

    /// The conversations of a chat export's text, each with the number of lines before the
    /// document it is in (a `.jsonl` file's documents are one a line and parsed one by one).
    static func conversations(_ text: String, jsonLines: Bool, file: String) throws(ImportFailure) -> [(
        messages: [JSONElement], lineOffset: Int
    )] {
        var documents: [(JSONElement, lineOffset: Int)] = []
        if jsonLines {
            for (n, line) in ImportText.lines(text).enumerated() where !CueParser.isBlank(line) {
                documents.append((try parse(Array(line.utf8), file: file, lineOffset: n), n))
            }
        } else {
            documents.append((try parse(Array(text.utf8), file: file, lineOffset: 0), 0))
        }
        var conversations: [(messages: [JSONElement], lineOffset: Int)] = []
        var errors: [Diagnostic] = []
        for (document, offset) in documents {
            do throws(JSONDecodingError) {
                conversations += try split(document).map { ($0, offset) }
            } catch {
                if errors.count < Importer.maxErrorsPerFile {
                    errors.append(diagnostic(error, file: file, lineOffset: offset))
                }
            }
        }
        if !errors.isEmpty { throw ImportFailure(errors) }
        return conversations
    }

    private static func parse(_ bytes: [UInt8], file: String, lineOffset: Int) throws(ImportFailure) -> JSONElement {
        do {
            return JSONElement(try JSONParser.parse(bytes))
        } catch {
            throw ImportFailure(
                Diagnostic(
                    .error, .input, file: file, line: error.position.line + lineOffset, column: error.position.column,
                    message: "invalid JSON: \(error.message)"))
        }
    }

    static func diagnostic(_ error: JSONDecodingError, file: String, lineOffset: Int) -> Diagnostic {
        Diagnostic(
            .error, .input, file: file, line: error.position.map { $0.line + lineOffset },
            column: error.position?.column, path: error.path.description, message: error.message)
    }

    static let shapes =
        "expected a conversation: a list of {\"role\", \"content\"} messages, {\"messages\": [...]}, or a list of conversations"

    /// One conversation or a list of them, as lists of message elements.
    static func split(_ e: JSONElement) throws(JSONDecodingError) -> [[JSONElement]] {
        switch e.value {
        case .object:
            return [try messages(of: e)]
        case .array(let items):
            guard !items.isEmpty else { throw e.error("an empty list: " + shapes) }
            let elements = try e.array()
            if elements.allSatisfy(isMessage) { return [elements] }
            var out: [[JSONElement]] = []
            for item in elements {
                switch item.value {
                case .array:
                    let messages = try item.array()
                    guard let bad = messages.first(where: { !isMessage($0) }) else {
                        out.append(messages)
                        continue
                    }
                    throw bad.error("expected a message: an object with \"role\" and \"content\"")
                case .object where !isMessage(item): out.append(try messages(of: item))
                default: throw item.error(shapes)
                }
            }
            return out
        default:
            throw e.error(shapes)
        }
    }

    /// A message object: it has a role.
    static func isMessage(_ e: JSONElement) -> Bool {
        guard case .object(let members) = e.value else { return false }
        return members.contains { $0.key == "role" }
    }

    /// `{"messages": [...]}` or `{"contents": [...]}` (Gemini).
    static func messages(of e: JSONElement) throws(JSONDecodingError) -> [JSONElement] {
        let o = try e.object()
        guard let list = o.optional("messages") ?? o.optional("contents") else {
            throw e.error(shapes)
        }
        let items = try list.array()
        if let bad = items.first(where: { !isMessage($0) }) {
            throw bad.error("expected a message: an object with \"role\" and \"content\"")
        }
        return items
    }

    /// The conversation's messages as the chat shows them; what it cannot show is counted.
    static func read(_ elements: [JSONElement], file: String, notes: inout ImportNotes) throws(JSONDecodingError)
        -> [Message]
    {
        var out: [Message] = []
        for e in elements {
            let o = try e.object()
            let roleName = try o.required("role").string()
            let role: String
            switch roleName.lowercased() {
            case "user", "human": role = "user"
            case "assistant", "model", "ai", "bot": role = "assistant"
            case "system", "developer":
                notes.add(.systemMessages)
                continue
            case "tool", "function", "ipython":
                notes.add(.toolMessages)
                continue
            default:
                notes.add(
                    ImportNote(
                        "message with the role \"\(roleName)\" skipped",
                        "messages with the role \"\(roleName)\" skipped"))
                continue
            }
            var texts: [String] = []
            var images = 0
            let content = o.optional("content") ?? o.optional("parts") ?? o.optional("text")
            switch content?.value {
            case nil, .null?: break
            case .string(let s)?: texts.append(s)
            case .array?:
                for part in try content!.array() {
                    try readPart(part, texts: &texts, images: &images, notes: &notes)
                }
            default:
                throw content!.error("expected the content as a string or a list of parts, found \(content!.typeName)")
            }
            notes.add(.extraImages, max(0, images - 1))
            if images > 0 { notes.add(.imagePlaceholders) }
            var text = ImportText.clean(texts.joined(separator: "\n"), keepLineFeeds: true, notes: &notes)
            text = trimmed(text)
            guard !text.isEmpty || images > 0 else {
                notes.add(role == "assistant" ? .emptyAssistantMessages : .emptyMessages)
                continue
            }
            let (cut, wasCut) = ImportText.truncated(text, to: maxMessageCharacters)
            if wasCut { notes.add(.longMessages) }
            out.append(Message(role: role, text: cut, image: images > 0))
        }
        return out
    }

    private static func readPart(
        _ part: JSONElement, texts: inout [String], images: inout Int, notes: inout ImportNotes
    )
        throws(JSONDecodingError)
    {
        if case .string(let s) = part.value {
            texts.append(s)
            return
        }
        let o = try part.object()
        let type = try o.optional("type")?.string()
        switch type {
        case "text", "input_text", "output_text", nil:
            if let text = o.optional("text") {
                texts.append(try text.string())
            } else if o.optional("inline_data") != nil || o.optional("inlineData") != nil
                || o.optional("file_data") != nil || o.optional("fileData") != nil
            {
                images += 1
            } else {
                notes.add(.otherParts)
            }
        case "image", "image_url", "input_image": images += 1
        default: notes.add(.otherParts)
        }
    }

    /// Leading and trailing whitespace and blank lines removed.
    static func trimmed(_ text: String) -> String {
        var s = Substring(text)
        while let c = s.first, c.isWhitespace { s = s.dropFirst() }
        while let c = s.last, c.isWhitespace { s = s.dropLast() }
        return String(s)
    }

    /// The newest messages that fit one fixture's limits.
    static func fitting(_ messages: [Message], notes: inout ImportNotes) -> [Message] {
        var bytes = 0
        var breaks = 0
        var first = messages.count
        while first > 0 {
            let m = messages[first - 1]
            // The text, and the keys and values around it: "id", "m123", "role", "assistant", ...
            let b = m.text.utf8.count + 48
            let n = m.text.utf8.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            if bytes + b > textBudget || breaks + n > lineBreakBudget || messages.count - first >= 100_000 { break }
            bytes += b
            breaks += n
            first -= 1
        }
        notes.add(.olderMessages, first)
        return Array(messages[first...])
    }

    /// One conversation's fixture: its messages with ids m1, m2, ...; with `streamLast`, a last
    /// assistant message arrives as the status row shows, in chunks, then the row goes.
    static func fixture(_ all: [Message], streamLast: Bool, notes: inout ImportNotes) -> FixtureParts {
        let messages = fitting(all, notes: &notes)
        func json(_ m: Message, _ n: Int, text: String? = nil, role: Bool = true) -> JSONOutput {
            var members: [(key: String, value: JSONOutput)] = [("id", .string("m\(n)"))]
            if role { members.append(("role", .string(m.role))) }
            if m.image { members.append(("image", .object([("aspectRatio", 1)]))) }
            if let text = text ?? (m.text.isEmpty ? nil : m.text) { members.append(("text", .string(text))) }
            return .object(members)
        }
        var shown = messages
        var steps: [JSONOutput] = []
        if streamLast {
            if let last = messages.last, last.role == "assistant" {
                shown.removeLast()
                let chunks = self.chunks(last.text)
                steps.append(.object([("status", "thinking")]))
                steps.append(.object([("receive", json(last, messages.count, text: chunks.first ?? "", role: false))]))
                for chunk in chunks.dropFirst() { steps.append(.object([("stream", .string(chunk))])) }
                steps.append(.object([("status", "idle")]))
            } else {
                notes.add(.nothingToStream)
            }
        }
        var members: [(key: String, value: JSONOutput)] = [
            ("kind", "chat"), ("messages", .array(shown.enumerated().map { json($1, $0 + 1) })),
        ]
        if !steps.isEmpty { members.append(("steps", .array(steps))) }
        let count = messages.count
        return FixtureParts(members: members, summary: "\(count) \(count == 1 ? "message" : "messages")")
    }

    /// `text` in at most `streamChunks` pieces, split after spaces, that join to it exactly. No
    /// piece ends inside `**bold**` or `*italic*`, so no state shows a marker waiting for its
    /// closer as a literal asterisk.
    static func chunks(_ text: String) -> [String] {
        var words: [String] = []
        var safe: [Bool] = []  // whether a piece may end after words[i]
        var current = ""
        let styles = InlineMarkup.parse(text)
        // The character offsets where a styled run ends or starts: a cut inside one is unsafe.
        var styled: [Range<Int>] = []
        var offset = 0
        for run in styles {
            let count = run.text.count
            if run.bold || run.italic { styled.append(offset..<(offset + count)) }
            offset += count
        }
        var plain = 0  // characters of the text without markers, up to the current word
        var run = 0  // the first styled run not wholly before `plain`
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            current.append(c)
            if c != "*" { plain += 1 }
            i = text.index(after: i)
            if c == " " || c == "\n" {
                words.append(current)
                while run < styled.count && styled[run].upperBound <= plain { run += 1 }
                safe.append(run == styled.count || !(styled[run].lowerBound < plain && plain < styled[run].upperBound))
                current = ""
            }
        }
        if !current.isEmpty {
            words.append(current)
            safe.append(true)
        }
        let cuts = safe.indices.filter { safe[$0] && $0 < words.count - 1 }
        guard !cuts.isEmpty else { return [text] }
        let n = min(streamChunks, cuts.count + 1)
        // Cut after the safe word nearest each of n - 1 evenly spaced places.
        var chosen: [Int] = []
        for k in 1..<n {
            let target = k * words.count / n - 1
            if let best = cuts.filter({ !chosen.contains($0) && $0 > (chosen.last ?? -1) })
                .min(by: { abs($0 - target) < abs($1 - target) })
            {
                chosen.append(best)
            }
        }
        var pieces: [String] = []
        var start = 0
        for cut in chosen + [words.count - 1] {
            pieces.append(words[start...cut].joined())
            start = cut + 1
        }
        return pieces
    }
}

/// A fixture's top-level members and a few words on what it holds.
struct FixtureParts {
    var members: [(key: String, value: JSONOutput)]
    var summary: String
}
