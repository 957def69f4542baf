/// The text of an imported file (`layoutsnap import`), from its bytes: a UTF-8 or UTF-16 byte
/// order mark is honoured, anything else must be UTF-8 (an error names the line of the first byte
/// that is not), NUL bytes mean the file is not text, and every line ending (CRLF, CR) becomes LF.

public enum ImportText {
    /// The file's text with LF line endings, or why it is not text: the diagnostic names `file`
    /// and, for a byte that is not UTF-8, its line and column.
    public static func decode(_ bytes: [UInt8], file: String) throws(Diagnostic) -> String {
        guard !bytes.isEmpty else { throw Diagnostic(.error, .input, file: file, message: "the file is empty") }
        let text: String
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            text = try utf16(bytes, littleEndian: bytes[0] == 0xFF, file: file)
        } else {
            let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
            if let nul = body.firstIndex(of: 0) {
                let (line, column) = place(of: nul, in: body)
                throw Diagnostic(
                    .error, .input, file: file, line: line, column: column,
                    message: "a NUL byte: this is not a text file (UTF-16 without a byte order mark?)")
            }
            if let bad = firstInvalidUTF8(body) {
                let (line, column) = place(of: bad, in: body)
                throw Diagnostic(
                    .error, .input, file: file, line: line, column: column,
                    message:
                        "byte 0x\(String(body[bad], radix: 16, uppercase: true)) is not UTF-8; save the file as UTF-8 (iconv -f WINDOWS-1252 -t UTF-8, for example)"
                )
            }
            text = String(decoding: body, as: UTF8.self)
        }
        return normalizeLineEndings(text)
    }

    /// The lines of `text` (LF-separated), as `decode` returns it.
    public static func lines(_ text: String) -> [Substring] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// CRLF and lone CR become LF (on scalars: Swift keeps "\r\n" as one Character).
    static func normalizeLineEndings(_ text: String) -> String {
        guard text.utf8.contains(0x0D) else { return text }
        var scalars = String.UnicodeScalarView()
        var previousCR = false
        for s in text.unicodeScalars {
            if s == "\r" {
                scalars.append("\n")
                previousCR = true
                continue
            }
            if s == "\n" && previousCR {
                previousCR = false
                continue
            }
            previousCR = false
            scalars.append(s)
        }
        return String(scalars)
    }

    private static func utf16(_ bytes: [UInt8], littleEndian: Bool, file: String) throws(Diagnostic) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var i = 2
        while i + 1 < bytes.count {
            let a = UInt16(bytes[i])
            let b = UInt16(bytes[i + 1])
            units.append(littleEndian ? a | b << 8 : a << 8 | b)
            i += 2
        }
        guard bytes.count % 2 == 0, let text = String(validating: units, as: UTF16.self) else {
            throw Diagnostic(
                .error, .input, file: file,
                message: "the file starts with a UTF-16 byte order mark but is not valid UTF-16")
        }
        if text.unicodeScalars.contains("\0") {
            throw Diagnostic(.error, .input, file: file, message: "a NUL character: this is not a text file")
        }
        return text
    }

    /// The offset of the first byte that is not part of well-formed UTF-8, nil when there is none.
    static func firstInvalidUTF8(_ b: [UInt8]) -> Int? {
        var i = 0
        while i < b.count {
            let c = b[i]
            if c < 0x80 {
                i += 1
                continue
            }
            let need: Int
            var scalar: UInt32
            let lowest: UInt32
            switch c {
            case 0xC2...0xDF: (need, scalar, lowest) = (1, UInt32(c & 0x1F), 0x80)
            case 0xE0...0xEF: (need, scalar, lowest) = (2, UInt32(c & 0x0F), 0x800)
            case 0xF0...0xF4: (need, scalar, lowest) = (3, UInt32(c & 0x07), 0x10000)
            default: return i
            }
            guard i + need < b.count else { return i }
            for k in 1...need {
                guard b[i + k] & 0xC0 == 0x80 else { return i }
                scalar = scalar << 6 | UInt32(b[i + k] & 0x3F)
            }
            if scalar < lowest || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return i }
            i += need + 1
        }
        return nil
    }

    /// The 1-based line and column (in characters of the well-formed text before it) of byte `offset`.
    static func place(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var start = 0
        for i in 0..<offset
        where bytes[i] == 0x0A || (bytes[i] == 0x0D && (i + 1 >= bytes.count || bytes[i + 1] != 0x0A)) {
            line += 1
            start = i + 1
        }
        return (line, String(decoding: bytes[start..<offset], as: UTF8.self).unicodeScalars.count + 1)
    }

    /// Text as a fixture may hold it: tabs and the Unicode line and paragraph separators become
    /// spaces, other control characters are removed (each counted in `notes`). Line feeds stay
    /// only when `keepLineFeeds`.
    static func clean(_ text: String, keepLineFeeds: Bool = false, notes: inout ImportNotes) -> String {
        guard
            text.unicodeScalars.contains(where: {
                $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{2028}" || $0 == "\u{2029}"
            })
        else { return text }
        var scalars = String.UnicodeScalarView()
        var removed = 0
        for s in text.unicodeScalars {
            switch s.value {
            case 0x0A: scalars.append(keepLineFeeds ? s : " ")
            case 0x09, 0x2028, 0x2029: scalars.append(" ")
            case 0..<0x20, 0x7F...0x9F: removed += 1
            default: scalars.append(s)
            }
        }
        notes.add(.controlCharacters, removed)
        return String(scalars)
    }

    /// At most `limit` characters: longer text is cut at a word boundary when one is near and ends
    /// with "…". Whether it was cut is the second value.
    static func truncated(_ text: String, to limit: Int) -> (String, Bool) {
        guard text.count > limit else { return (text, false) }
        var cut = text.prefix(limit - 1)
        if let space = cut.lastIndex(of: " "), cut.distance(from: space, to: cut.endIndex) < 40 {
            cut = cut[..<space]
        }
        return (String(cut) + "…", true)
    }
}

/// Something an import could not carry over, worded for one and for several.
public struct ImportNote: Sendable, Hashable {
    public var one: String
    public var many: String

    public init(_ one: String, _ many: String) {
        self.one = one
        self.many = many
    }

    /// `1 system message skipped`, `3 system messages skipped`.
    public func phrase(_ count: Int) -> String { "\(count) \(count == 1 ? one : many)" }
}

/// What an import could not carry over, counted. Kept in the order each first came up, so the
/// summary of the same input is the same.
public struct ImportNotes: Sendable, Equatable {
    public private(set) var items: [(note: ImportNote, count: Int)] = []

    public init() {}

    public mutating func add(_ note: ImportNote, _ count: Int = 1) {
        guard count > 0 else { return }
        if let i = items.firstIndex(where: { $0.note == note }) {
            items[i].count += count
        } else {
            items.append((note, count))
        }
    }

    public mutating func add(_ other: ImportNotes) {
        for item in other.items { add(item.note, item.count) }
    }

    public var isEmpty: Bool { items.isEmpty }

    /// `12 cue settings dropped (position, line, align, size), 2 system messages skipped`.
    public var description: String { items.map { $0.note.phrase($0.count) }.joined(separator: ", ") }

    public static func == (a: ImportNotes, b: ImportNotes) -> Bool {
        a.items.count == b.items.count
            && zip(a.items, b.items).allSatisfy { $0.note == $1.note && $0.count == $1.count }
    }
}
