/// Caption cues from WebVTT and SRT files (`layoutsnap import`): their start and end times and
/// their text as fixture markup. What a transcript cannot show (positions, styling classes,
/// karaoke timestamps, ruby) is dropped and counted; `<b>` and `<i>` become `**` and `*`; a WebVTT
/// voice (`<v Ann>`) names the speaker.

/// One caption cue.
public struct Cue: Sendable, Equatable {
    /// Milliseconds from the start of the media.
    public var start: Int
    public var end: Int
    /// The cue's lines joined by spaces, in fixture markup (`**bold**`, `*italic*`).
    public var text: String
    /// A WebVTT voice's name (`<v Ann>`), if the cue has one.
    public var speaker: String?
    /// The line of its timing line in the file.
    public var line: Int

    public init(start: Int, end: Int, text: String, speaker: String? = nil, line: Int) {
        self.start = start
        self.end = end
        self.text = text
        self.speaker = speaker
        self.line = line
    }
}

public enum CueFormat: Sendable {
    case webVTT, srt

    var example: String {
        self == .webVTT ? "00:00:01.000 --> 00:00:04.000" : "00:00:01,000 --> 00:00:04,000"
    }
}

/// The diagnostics of a file that could not be imported: every problem found, up to a bound.
public struct ImportFailure: Error, Sendable, Equatable {
    public var diagnostics: [Diagnostic]

    public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
    public init(_ diagnostic: Diagnostic) { self.diagnostics = [diagnostic] }
}

public enum CueParser {
    /// The cues of a WebVTT or SRT file's text (as `ImportText.decode` returns it), in file order.
    /// Every malformed cue is reported (up to `Importer.maxErrorsPerFile`), each with its line.
    public static func parse(_ text: String, format: CueFormat, file: String, notes: inout ImportNotes)
        throws(ImportFailure) -> [Cue]
    {
        let lines = ImportText.lines(text)
        var errors: [Diagnostic] = []
        func fail(_ line: Int, _ message: String) {
            if errors.count < Importer.maxErrorsPerFile {
                errors.append(Diagnostic(.error, .input, file: file, line: line, message: message))
            }
        }
        var i = 0
        if format == .webVTT {
            let first = lines.first ?? ""
            guard first.hasPrefix("WEBVTT"), first.count == 6 || [" ", "\t"].contains(first.dropFirst(6).first)
            else {
                throw ImportFailure(
                    Diagnostic(
                        .error, .input, file: file, line: 1,
                        message: "not a WebVTT file: its first line must be WEBVTT"))
            }
            // The header runs to the first blank line.
            while i < lines.count && !isBlank(lines[i]) { i += 1 }
        }
        var cues: [Cue] = []
        while i < lines.count {
            if isBlank(lines[i]) {
                i += 1
                continue
            }
            var end = i
            while end < lines.count && !isBlank(lines[end]) { end += 1 }
            let block = Array(lines[i..<end])
            let firstLine = i + 1
            i = end
            if format == .webVTT, let kind = webVTTBlockKind(block[0]) {
                if kind != "NOTE" { notes.add(kind == "STYLE" ? .styleBlock : .regionBlock) }
                continue
            }
            // WebVTT: an optional identifier line; SRT: the cue's number.
            let timing: Int
            if block[0].contains("-->") {
                timing = 0
            } else if block.count > 1 && block[1].contains("-->") {
                timing = 1
            } else {
                // A cue whose timing line lacks its arrow, or a block that is no cue at all.
                let suspect = block.count > 1 && block[0].allSatisfy(\.isNumber) ? 1 : 0
                if block.count > suspect, block[suspect].contains(":"), block[suspect].first?.isNumber == true {
                    fail(
                        firstLine + suspect,
                        "malformed timing line \"\(block[suspect].prefix(60))\" (expected \(format.example))")
                } else {
                    fail(
                        firstLine,
                        "expected a cue: \(format == .srt ? "its number, then " : "")a timing line such as \(format.example)"
                    )
                }
                continue
            }
            switch parseTiming(block[timing], format: format, notes: &notes) {
            case .failure(let error): fail(firstLine + timing, error.message)
            case .success(let (start, stop)):
                var converted = CueText.convert(block[(timing + 1)...].map(String.init), notes: &notes)
                converted.text = ImportText.clean(converted.text, notes: &notes)
                cues.append(
                    Cue(
                        start: start, end: stop, text: converted.text, speaker: converted.speaker,
                        line: firstLine + timing))
            }
        }
        if !errors.isEmpty { throw ImportFailure(errors) }
        return cues
    }

    static func isBlank(_ line: Substring) -> Bool { line.allSatisfy { $0 == " " || $0 == "\t" } }

    /// "NOTE", "STYLE" or "REGION" when the block is one of WebVTT's blocks that are not cues.
    static func webVTTBlockKind(_ line: Substring) -> String? {
        for kind in ["NOTE", "STYLE", "REGION"] where line.hasPrefix(kind) {
            let rest = line.dropFirst(kind.count)
            if rest.isEmpty || rest.first == " " || rest.first == "\t" { return kind }
        }
        return nil
    }

    /// `start --> end [settings]`: milliseconds, or what is wrong with the line.
    static func parseTiming(_ line: Substring, format: CueFormat, notes: inout ImportNotes) -> Result<
        (Int, Int), TimingError
    > {
        guard let arrow = line.range(of: "-->") else { return .failure(TimingError("expected \"-->\"")) }
        let left = line[..<arrow.lowerBound].trimmingWhitespace()
        let right = line[arrow.upperBound...].split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let start = timestamp(left, format: format) else {
            return .failure(TimingError(malformed: left, format: format))
        }
        guard let endText = right.first, let end = timestamp(endText, format: format) else {
            return .failure(TimingError(malformed: right.first ?? "", format: format))
        }
        if right.count > 1 { notes.add(format == .webVTT ? .cueSettings : .srtCoordinates) }
        return .success((start, end))
    }

    struct TimingError: Error {
        var message: String
        init(_ message: String) { self.message = message }
        init(malformed text: Substring, format: CueFormat) {
            let expected = format == .webVTT ? "[hh:]mm:ss.ttt" : "hh:mm:ss,mmm"
            message =
                text.isEmpty
                ? "the timing line has no end time (expected \(format.example))"
                : "malformed timestamp \"\(text.prefix(40))\" (expected \(expected), as in \(format.example))"
        }
    }

    /// Milliseconds of `[hh:]mm:ss.ttt` (WebVTT; hours may have more digits) or `hh:mm:ss,mmm` (SRT,
    /// where a '.' is accepted too), nil when malformed.
    static func timestamp(_ text: Substring, format: CueFormat) -> Int? {
        let separators: Set<Character> = format == .webVTT ? ["."] : [",", "."]
        guard let sep = text.lastIndex(where: { separators.contains($0) }) else { return nil }
        let fraction = text[text.index(after: sep)...]
        let parts = text[..<sep].split(separator: ":", omittingEmptySubsequences: false)
        guard fraction.count == 3, let ms = digits(fraction) else { return nil }
        let hours: Int
        switch (parts.count, format) {
        case (2, .webVTT): hours = 0
        case (3, _):
            guard (1...6).contains(parts[0].count), let h = digits(parts[0]) else { return nil }
            hours = h
        default: return nil
        }
        let m = parts[parts.count - 2]
        let s = parts[parts.count - 1]
        guard m.count == 2, s.count == 2, let minutes = digits(m), let seconds = digits(s), minutes < 60, seconds < 60
        else { return nil }
        return ((hours * 60 + minutes) * 60 + seconds) * 1000 + ms
    }

    private static func digits(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }
}

extension Substring {
    func trimmingWhitespace() -> Substring {
        var s = self
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return s
    }
}

/// A cue's payload as fixture markup.
enum CueText {
    /// The payload's lines joined by spaces; `<b>` and `<i>` as `**` and `*`, entities decoded,
    /// every other tag dropped (counted in `notes`), and the first voice's name.
    static func convert(_ lines: [String], notes: inout ImportNotes) -> (text: String, speaker: String?) {
        let source = lines.map { Substring($0).trimmingWhitespace() }.filter { !$0.isEmpty }.joined(separator: " ")
        var runs: [(text: String, bold: Bool, italic: Bool)] = []
        var bold = 0
        var italic = 0
        var speaker: String?
        var inRubyText = false
        var literal = ""
        func flush() {
            if !literal.isEmpty { runs.append((decodeEntities(literal), bold > 0, italic > 0)) }
            literal = ""
        }
        let chars = Array(source)
        // The next '>' and '}' at or after an index, found once for the whole payload (a cue full
        // of '<' without '>' stays linear).
        var nextClose: [Character: (from: Int, at: Int?)] = [:]
        func next(_ c: Character, from start: Int) -> Int? {
            if let cached = nextClose[c], cached.from <= start, cached.at.map({ $0 >= start }) ?? true {
                return cached.at
            }
            let at = chars[start...].firstIndex(of: c)
            nextClose[c] = (start, at)
            return at
        }
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "{", i + 1 < chars.count, chars[i + 1] == "\\", let close = next("}", from: i) {
                // An ASS override in an SRT cue: {\an8}, {\i1}.
                notes.add(.overrideTags)
                i = close + 1
                continue
            }
            // A tag is short: a '<' far from any '>' is text ("a < b").
            guard c == "<", let close = next(">", from: i), close - i <= 200 else {
                if !inRubyText { literal.append(c) }
                i += 1
                continue
            }
            let tag = Substring(String(chars[(i + 1)..<close]))
            i = close + 1
            let closing = tag.hasPrefix("/")
            let body = closing ? tag.dropFirst() : tag
            let name = body.prefix { $0 != " " && $0 != "\t" && $0 != "." }.lowercased()
            switch name {
            case "b":
                flush()
                bold = max(0, bold + (closing ? -1 : 1))
            case "i":
                flush()
                italic = max(0, italic + (closing ? -1 : 1))
            case "v":
                if !closing, speaker == nil {
                    let annotation = body.drop { $0 != " " && $0 != "\t" }.trimmingWhitespace()
                    if !annotation.isEmpty { speaker = decodeEntities(String(annotation)) }
                }
            case "rt":
                inRubyText = !closing
                if !closing { notes.add(.rubyText) }
            case "ruby", "lang": break
            case "u": if !closing { notes.add(.underline) }
            case "c": if !closing { notes.add(.classSpans) }
            case "font": if !closing { notes.add(.fontTags) }
            case "br": literal.append(" ")
            default:
                if name.first?.isNumber == true {
                    notes.add(.karaokeTimestamps)
                } else if !closing {
                    notes.add(.unknownTags)
                }
            }
        }
        flush()
        var text = ""
        for run in runs {
            let marker = run.bold ? "**" : run.italic ? "*" : ""
            let core = Substring(run.text).trimmingWhitespace()
            guard !marker.isEmpty, !core.isEmpty else {
                text += run.text
                continue
            }
            let lead = run.text.prefix { $0 == " " || $0 == "\t" }
            let trail = String(run.text.reversed().prefix { $0 == " " || $0 == "\t" })
            text += lead + marker + core + marker + trail
        }
        return (collapseSpaces(text), speaker)
    }

    /// Runs of spaces as one, none at either end.
    static func collapseSpaces(_ text: String) -> String {
        text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&nbsp;`, `&lrm;`, `&rlm;` and numeric
    /// references; anything else stays as written.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        let named: [Substring: String] = [
            "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "lrm": "\u{200E}",
            "rlm": "\u{200F}",
        ]
        var out = ""
        var i = text.startIndex
        while i < text.endIndex {
            if text[i] == "&", let semi = text[i...].prefix(12).firstIndex(of: ";") {
                let name = text[text.index(after: i)..<semi]
                var value = named[name]
                if value == nil, name.hasPrefix("#") {
                    let digits = name.dropFirst()
                    let code =
                        digits.first == "x" || digits.first == "X"
                        ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
                    if let code, code >= 0x20, let scalar = Unicode.Scalar(code) { value = String(scalar) }
                }
                if let value {
                    out += value
                    i = text.index(after: semi)
                    continue
                }
            }
            out.append(text[i])
            i = text.index(after: i)
        }
        return out
    }
}
