import Foundation
import LayoutSnapJSON

/// `layoutsnap import` without the files (docs/commands.md "import"): one input file's bytes
/// become fixtures. Pure: the runner walks folders, reads and writes; this turns bytes into
/// fixture bytes, deterministically, and checks each with the strict decoder before handing it
/// back.
public enum Importer {
    /// A larger input is refused before it is read (the largest fixture file is 16 MB too).
    public static let maxInputBytes = 16 * 1024 * 1024
    /// Problems reported for one input: enough for any real mix of mistakes, few enough to read.
    public static let maxErrorsPerFile = 20

    public struct Options: Sendable, Equatable {
        /// Chats: the last assistant message streams in after the status row (`--stream-last`).
        public var streamLast = false

        public init(streamLast: Bool = false) { self.streamLast = streamLast }
    }

    /// One fixture made from an input.
    public struct Output: Sendable, Equatable {
        /// Added to the input's name: "" for an input's only fixture, else "-1", "-2", ...
        /// (zero-padded to the count's digits) for parts of a long transcript or conversations.
        public var suffix: String
        /// The fixture file's bytes.
        public var bytes: [UInt8]
        /// `42 cues from 0:01 to 3:25`, `12 messages`.
        public var summary: String
    }

    /// What one input became.
    public struct Result: Sendable, Equatable {
        public var outputs: [Output]
        /// What could not be carried over.
        public var notes: ImportNotes
    }

    /// The fixtures `bytes` (a file named `file` in messages) make.
    public static func convert(_ bytes: [UInt8], file: String, format: ImportFormat, options: Options = Options())
        throws(ImportFailure) -> Result
    {
        let text: String
        do { text = try ImportText.decode(bytes, file: file) } catch { throw ImportFailure(error) }
        var notes = ImportNotes()
        var parts: [FixtureParts]
        switch format {
        case .webVTT, .srt:
            let cues = try CueParser.parse(text, format: format == .srt ? .srt : .webVTT, file: file, notes: &notes)
            parts = TranscriptImport.fixtures(cues, notes: &notes)
            if parts.isEmpty {
                throw ImportFailure(Diagnostic(.error, .input, file: file, message: "no cue with text to import"))
            }
        case .chat, .chatLines:
            let conversations = try ChatImport.conversations(text, jsonLines: format == .chatLines, file: file)
            parts = []
            for conversation in conversations {
                do throws(JSONDecodingError) {
                    let messages = try ChatImport.read(conversation.messages, file: file, notes: &notes)
                    if messages.isEmpty {
                        notes.add(.emptyConversations)
                        continue
                    }
                    parts.append(ChatImport.fixture(messages, streamLast: options.streamLast, notes: &notes))
                } catch {
                    throw ImportFailure(ChatImport.diagnostic(error, file: file, lineOffset: conversation.lineOffset))
                }
            }
            if parts.isEmpty {
                throw ImportFailure(
                    Diagnostic(.error, .input, file: file, message: "no conversation with a user or assistant message"))
            }
        case .markdown:
            parts = [try MarkdownImport.fixture(text, file: file, notes: &notes)]
        }
        let suffixes = self.suffixes(parts.count)
        var outputs: [Output] = []
        for (part, suffix) in zip(parts, suffixes) {
            let bytes = FixtureText.bytes(part.members)
            do {
                _ = try FixtureDecoder.decode(bytes: bytes, id: "imported", file: file, folder: .empty())
            } catch {
                // A bug of the importer, never of the input: said as such.
                throw ImportFailure(
                    Diagnostic(
                        .error, .input, file: file,
                        message:
                            "the fixture made from this file does not decode (a bug of layoutsnap import): \(error)"))
            }
            outputs.append(Output(suffix: suffix, bytes: bytes, summary: part.summary))
        }
        return Result(outputs: outputs, notes: notes)
    }

    /// "" for one; "-1" ... "-n" for more, zero-padded to the digits of n so names sort in order.
    static func suffixes(_ count: Int) -> [String] {
        guard count > 1 else { return [""] }
        let width = String(count).count
        return (1...count).map { n in
            let digits = String(n)
            return "-" + String(repeating: "0", count: width - digits.count) + digits
        }
    }

    /// A fixture name from a file name (its extension dropped): lower case, accents dropped,
    /// anything but `a-z 0-9 . _ -` a '-', so the fixture id is valid ("My Talk (2024).srt" is
    /// `my-talk-2024`). Never empty.
    public static func fixtureName(forFile name: String) -> String {
        slug((name as NSString).deletingPathExtension)
    }

    /// `name` as a part of a fixture id: see `fixtureName(forFile:)`.
    public static func slug(_ name: String) -> String {
        var out = ""
        for s in name.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars {
            if s.properties.generalCategory == .nonspacingMark { continue }
            if s.isASCII, FixtureDecoder.idCharacters.contains(Character(s)), s != "/" {
                out.unicodeScalars.append(s)
            } else if !out.hasSuffix("-") {
                out += "-"
            }
        }
        while let c = out.first, c == "-" || c == "." { out.removeFirst() }
        while let c = out.last, c == "-" || c == "." { out.removeLast() }
        return out.isEmpty ? "imported" : out
    }
}

/// The inputs `layoutsnap import` reads, by file extension.
public enum ImportFormat: String, Sendable, CaseIterable {
    case webVTT, srt, chat, chatLines, markdown

    /// `.vtt`, `.srt`, `.json`, `.jsonl`, `.md` / `.markdown` (in any case).
    public init?(fileName: String) {
        switch (fileName as NSString).pathExtension.lowercased() {
        case "vtt": self = .webVTT
        case "srt": self = .srt
        case "json": self = .chat
        case "jsonl": self = .chatLines
        case "md", "markdown": self = .markdown
        default: return nil
        }
    }

    public static let extensions = ["vtt", "srt", "json", "jsonl", "md", "markdown"]

    /// The kind of fixture it becomes.
    public var kind: FixtureKind {
        switch self {
        case .webVTT, .srt: .transcript
        case .chat, .chatLines: .chat
        case .markdown: .post
        }
    }
}

extension ImportNote {
    // Captions
    static let styleBlock = ImportNote("WebVTT STYLE block (CSS) dropped", "WebVTT STYLE blocks (CSS) dropped")
    static let regionBlock = ImportNote("WebVTT REGION block dropped", "WebVTT REGION blocks dropped")
    static let cueSettings = ImportNote(
        "cue's settings (position, line, align, size) dropped", "cues' settings (position, line, align, size) dropped")
    static let srtCoordinates = ImportNote(
        "cue's coordinates (X1 Y1 X2 Y2) dropped", "cues' coordinates (X1 Y1 X2 Y2) dropped")
    static let overrideTags = ImportNote("positioning tag ({\\an8}) dropped", "positioning tags ({\\an8}) dropped")
    static let underline = ImportNote("underline dropped", "underlines dropped")
    static let classSpans = ImportNote("class span (<c.yellow>) dropped", "class spans (<c.yellow>) dropped")
    static let fontTags = ImportNote("font tag (colour, face) dropped", "font tags (colour, face) dropped")
    static let rubyText = ImportNote("ruby annotation dropped", "ruby annotations dropped")
    static let karaokeTimestamps = ImportNote(
        "timestamp inside a cue (karaoke) dropped", "timestamps inside cues (karaoke) dropped")
    static let unknownTags = ImportNote("unknown tag dropped", "unknown tags dropped")
    static let emptyCues = ImportNote("cue without text skipped", "cues without text skipped")
    static let cuesOutOfOrder = ImportNote(
        "cue out of order (appended in start order)", "cues out of order (appended in start order)")
    static let overlappingCues = ImportNote(
        "cue overlapping the previous one (appended at its start)",
        "cues overlapping the previous one (appended at their start)")
    static let longCues = ImportNote(
        "cue over \(TranscriptImport.maxCueCharacters) characters cut",
        "cues over \(TranscriptImport.maxCueCharacters) characters cut")
    static let longGaps = ImportNote("gap over an hour shortened to 3600 s", "gaps over an hour shortened to 3600 s")
    // Chats
    static let systemMessages = ImportNote("system message skipped", "system messages skipped")
    static let toolMessages = ImportNote("tool message skipped", "tool messages skipped")
    static let emptyAssistantMessages = ImportNote(
        "assistant message without text (tool calls only) skipped",
        "assistant messages without text (tool calls only) skipped")
    static let emptyMessages = ImportNote("empty message skipped", "empty messages skipped")
    static let imagePlaceholders = ImportNote(
        "image shown as a square placeholder", "images shown as square placeholders")
    static let extraImages = ImportNote(
        "further image in a message dropped (a bubble shows one)",
        "further images in a message dropped (a bubble shows one)")
    static let otherParts = ImportNote(
        "content part that is not text or an image dropped", "content parts that are not text or images dropped")
    static let longMessages = ImportNote(
        "message over \(ChatImport.maxMessageCharacters) characters cut",
        "messages over \(ChatImport.maxMessageCharacters) characters cut")
    static let olderMessages = ImportNote(
        "older message past the fixture limits left out", "older messages past the fixture limits left out")
    static let emptyConversations = ImportNote(
        "conversation without user or assistant messages skipped",
        "conversations without user or assistant messages skipped")
    static let nothingToStream = ImportNote(
        "conversation not ending with an assistant message (nothing streamed)",
        "conversations not ending with an assistant message (nothing streamed)")
    // Markdown
    static let noTitle = ImportNote("document without a heading (no title)", "documents without a heading (no title)")
    static let images = ImportNote("image dropped", "images dropped")
    static let codeBlocks = ImportNote("code block kept as plain text", "code blocks kept as plain text")
    static let inlineCode = ImportNote("code span kept as plain text", "code spans kept as plain text")
    static let strikethrough = ImportNote("strikethrough dropped", "strikethroughs dropped")
    static let tables = ImportNote("table kept as plain lines", "tables kept as plain lines")
    static let blockQuotes = ImportNote("quoted line kept as plain text", "quoted lines kept as plain text")
    static let htmlLines = ImportNote("HTML line kept as text", "HTML lines kept as text")
    static let rules = ImportNote("horizontal rule dropped", "horizontal rules dropped")
    static let nestedItems = ImportNote("nested list item flattened", "nested list items flattened")
    static let frontMatterFields = ImportNote(
        "front matter field other than title and author ignored",
        "front matter fields other than title and author ignored")
    static let longTitleOrSummary = ImportNote(
        "title or summary over \(MarkdownImport.maxTitleCharacters) or \(MarkdownImport.maxSummaryCharacters) characters cut",
        "titles or summaries over \(MarkdownImport.maxTitleCharacters) or \(MarkdownImport.maxSummaryCharacters) characters cut"
    )
    static let bodyLinesCut = ImportNote(
        "body line past the fixture limits dropped", "body lines past the fixture limits dropped")
    // Any text
    static let controlCharacters = ImportNote("control character removed", "control characters removed")
}
