import LayoutSnapJSON

/// A Markdown file as a post card (docs/commands.md "import"): the title is the first `#`
/// heading (else the first heading of any level, else the front matter's `title:`), the summary
/// the first paragraph after it, the body everything else in the card's own Markdown (`# `
/// headings, `- ` bullets, blank lines, `**bold**`, `*italic*`), and the front matter's `author:`
/// the author line. The card expands in one step. What a card cannot show (images, code and quote
/// formatting, tables, nesting) is dropped or kept as plain text and counted.
public enum MarkdownImport {
    /// What the body may hold, under docs/fixtures/README.md "Limits" with room for the rest.
    static let textBudget = 900_000
    static let lineBreakBudget = 4_900
    /// A title is one line and a summary two; longer ones are cut (with "…") well past that.
    public static let maxTitleCharacters = 500
    public static let maxSummaryCharacters = 2_000
    /// How far an inline construct (a link, code, emphasis) is looked for its end: keeps
    /// hostile text linear.
    static let inlineWindow = 2_000

    enum Block {
        case heading(level: Int, text: String)
        /// Its lines: soft breaks joined by spaces, a hard break starts a new line.
        case paragraph([String])
        /// Bullets (`- text`) and numbered items (`1. text`), as body lines.
        case list([String])
        /// Lines kept as they are (code, tables).
        case verbatim([String])
    }

    static func fixture(_ text: String, file: String, notes: inout ImportNotes) throws(ImportFailure) -> FixtureParts {
        var lines = ImportText.lines(text).map { ImportText.clean(String($0), notes: &notes) }
        let front = frontMatter(&lines, notes: &notes)
        var blocks = self.blocks(lines, notes: &notes)
        var title = ""
        let headingIndex =
            blocks.firstIndex { if case .heading(1, _) = $0 { true } else { false } }
            ?? blocks.firstIndex { if case .heading = $0 { true } else { false } }
        if let headingIndex, case .heading(_, let text) = blocks[headingIndex] {
            title = inline(text, notes: &notes)
            blocks.remove(at: headingIndex)
        } else if let t = front["title"] {
            title = t
        } else {
            notes.add(.noTitle)
        }
        var summary = ""
        if let p = blocks.firstIndex(where: { if case .paragraph = $0 { true } else { false } }),
            case .paragraph(let lines) = blocks[p]
        {
            summary = lines.map { inline($0, notes: &notes) }.joined(separator: " ")
            blocks.remove(at: p)
        }
        // Blocks one after the other, a blank line between them but not under a heading.
        var body: [String] = []
        var underHeading = true
        for block in blocks {
            var lines: [String]
            switch block {
            case .heading(_, let text): lines = ["# " + inline(text, notes: &notes)]
            case .paragraph(let text), .list(let text): lines = text.map { inline($0, notes: &notes) }
            case .verbatim(let text): lines = text
            }
            lines = lines.filter { !$0.trimmingCharacters().isEmpty && $0 != "# " && $0 != "- " }
            if lines.isEmpty { continue }
            if !underHeading { body.append("") }
            body += lines
            if case .heading = block { underHeading = true } else { underHeading = false }
        }
        body = fitting(body, notes: &notes)
        // A title shows one line and a summary two: longer ones are cut, far past what shows.
        var cut = false
        (title, cut) = ImportText.truncated(title, to: maxTitleCharacters)
        if cut { notes.add(.longTitleOrSummary) }
        (summary, cut) = ImportText.truncated(summary, to: maxSummaryCharacters)
        if cut { notes.add(.longTitleOrSummary) }
        guard !title.isEmpty || !summary.isEmpty || !body.isEmpty else {
            throw ImportFailure(
                Diagnostic(.error, .input, file: file, message: "nothing to import: no heading, paragraph or list"))
        }
        var members: [(key: String, value: JSONOutput)] = [("kind", "post")]
        if !title.isEmpty { members.append(("title", .string(title))) }
        if !summary.isEmpty { members.append(("summary", .string(summary))) }
        if !body.isEmpty { members.append(("body", .string(body.joined(separator: "\n")))) }
        if let author = front["author"], !author.isEmpty {
            members.append(("author", .string(ImportText.truncated(author, to: maxTitleCharacters).0)))
        }
        members.append(("steps", .array([.object([("expand", true)])])))
        let lineCount = body.count
        return FixtureParts(
            members: members, summary: "a card with \(lineCount) body \(lineCount == 1 ? "line" : "lines")")
    }

    /// The lines of a YAML front matter block (`---` ... `---`) taken off `lines`; its `title` and
    /// `author`, when they are plain `key: value` lines.
    static func frontMatter(_ lines: inout [String], notes: inout ImportNotes) -> [String: String] {
        guard lines.first?.trimmingCharacters() == "---",
            let close = lines.dropFirst().prefix(200).firstIndex(where: {
                ["---", "..."].contains($0.trimmingCharacters())
            })
        else { return [:] }
        var fields: [String: String] = [:]
        for line in lines[1..<close] {
            guard let colon = line.firstIndex(of: ":"), !line.hasPrefix(" "), !line.hasPrefix("-") else { continue }
            let key = line[..<colon].trimmingCharacters().lowercased()
            var value = line[line.index(after: colon)...].trimmingCharacters()
            if value.count >= 2, let q = value.first, q == "\"" || q == "'", value.last == q {
                value = String(value.dropFirst().dropLast())
            }
            if key == "title" || key == "author" {
                fields[key] = value
            } else {
                notes.add(.frontMatterFields)
            }
        }
        lines.removeSubrange(0...close)
        return fields
    }

    /// The document's blocks, in order.
    static func blocks(_ lines: [String], notes: inout ImportNotes) -> [Block] {
        var blocks: [Block] = []
        var paragraph: [String] = []
        var hardBreak = false
        var items: [String] = []
        var verbatim: [String] = []
        var fence: String?
        var inComment = false
        func close() {
            if !paragraph.isEmpty { blocks.append(.paragraph(paragraph)) }
            if !items.isEmpty { blocks.append(.list(items)) }
            if !verbatim.isEmpty { blocks.append(.verbatim(verbatim)) }
            paragraph = []
            items = []
            verbatim = []
            hardBreak = false
        }
        for raw in lines {
            let line = raw.trimmingCharacters()
            if let marker = fence {
                if line.hasPrefix(marker) {
                    fence = nil
                    close()
                } else {
                    verbatim.append(raw.trimmingTrailingSpaces())
                }
                continue
            }
            if inComment {
                inComment = !line.contains("-->")
                continue
            }
            if line.isEmpty {
                close()
                continue
            }
            if line.hasPrefix("```") || line.hasPrefix("~~~") {
                close()
                fence = String(line.prefix(3))
                notes.add(.codeBlocks)
                continue
            }
            if line.hasPrefix("<!--") {
                inComment = !line.contains("-->")
                continue
            }
            if let (level, text) = atxHeading(line) {
                close()
                blocks.append(.heading(level: level, text: text))
                continue
            }
            // A setext heading: one paragraph line underlined with = or -.
            if paragraph.count == 1, line.allSatisfy({ $0 == "=" }) || line.allSatisfy({ $0 == "-" }) {
                blocks.append(.heading(level: line.first == "=" ? 1 : 2, text: paragraph[0]))
                paragraph = []
                continue
            }
            if isThematicBreak(line) {
                close()
                notes.add(.rules)
                continue
            }
            if let item = listItem(raw) {
                if items.isEmpty { close() }
                if item.nested { notes.add(.nestedItems) }
                items.append(item.line)
                continue
            }
            if !items.isEmpty && raw.hasPrefix(" ") {
                items[items.count - 1] += " " + line
                continue
            }
            if line.hasPrefix("|") {
                if verbatim.isEmpty {
                    close()
                    notes.add(.tables)
                }
                // The row under the header (|---|:--:|) draws nothing.
                if !line.allSatisfy({ "|-: ".contains($0) }) { verbatim.append(line) }
                continue
            }
            if isReferenceDefinition(line) { continue }
            var text = line
            if line.hasPrefix(">") {
                notes.add(.blockQuotes)
                text = String(line.drop { $0 == ">" || $0 == " " })
                if text.isEmpty { continue }
            } else if let next = line.dropFirst().first, line.first == "<", next.isLetter || next == "/" {
                notes.add(.htmlLines)
            }
            if !items.isEmpty || !verbatim.isEmpty { close() }
            // A hard break (two trailing spaces, or a backslash) starts a new body line.
            let breaks = raw.hasSuffix("  ") || text.hasSuffix("\\")
            if text.hasSuffix("\\") { text = String(text.dropLast()).trimmingCharacters() }
            if paragraph.isEmpty || hardBreak {
                paragraph.append(text)
            } else {
                paragraph[paragraph.count - 1] += " " + text
            }
            hardBreak = breaks
        }
        close()
        return blocks
    }

    static func atxHeading(_ line: String) -> (Int, String)? {
        let level = line.prefix { $0 == "#" }.count
        guard (1...6).contains(level) else { return nil }
        let rest = line.dropFirst(level)
        guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
        var text = Substring(rest.trimmingCharacters())
        // A closing sequence of #s.
        if let hashes = text.lastIndex(where: { $0 != "#" }), text[hashes] == " " {
            text = text[..<hashes]
        } else if text.allSatisfy({ $0 == "#" }) {
            text = ""
        }
        return (level, String(text).trimmingCharacters())
    }

    static func isThematicBreak(_ line: String) -> Bool {
        let marks = line.filter { $0 != " " }
        guard let c = marks.first, "-*_".contains(c), marks.count >= 3 else { return false }
        return marks.allSatisfy { $0 == c }
    }

    /// `- text`, `* text`, `+ text` as a bullet line (`- text`), `1. text` / `1) text` as a
    /// numbered line (the card has bullets only); `nested` when indented under another item.
    static func listItem(_ raw: String) -> (line: String, nested: Bool)? {
        let indent = raw.prefix { $0 == " " }.count
        let line = raw.dropFirst(indent)
        if let c = line.first, "-*+".contains(c), line.dropFirst().first == " " {
            return ("- " + String(line.dropFirst(2)).trimmingCharacters(), indent >= 2)
        }
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        if (1...9).contains(digits.count), let mark = line.dropFirst(digits.count).first, mark == "." || mark == ")",
            line.dropFirst(digits.count + 1).first == " "
        {
            return (digits + ". " + String(line.dropFirst(digits.count + 2)).trimmingCharacters(), indent >= 2)
        }
        return nil
    }

    static func isReferenceDefinition(_ line: String) -> Bool {
        guard line.hasPrefix("["), let close = line.firstIndex(of: "]") else { return false }
        return line[line.index(after: close)...].hasPrefix(":")
    }

    /// The body's lines that fit one fixture's limits; the rest is dropped and counted.
    static func fitting(_ lines: [String], notes: inout ImportNotes) -> [String] {
        var bytes = 0
        for (n, line) in lines.enumerated() {
            bytes += line.utf8.count + 1
            if bytes > textBudget || n >= lineBreakBudget {
                notes.add(.bodyLinesCut, lines.count - n)
                return Array(lines[..<n])
            }
        }
        return lines
    }

    /// Markdown inline syntax as the card's: links become their text, images are dropped,
    /// code spans and strikethrough become plain text, `_x_` and `__x__` become `*x*` and
    /// `**x**`, backslash escapes are resolved. `**` and `*` are the card's own.
    static func inline(_ text: String, notes: inout ImportNotes, depth: Int = 0) -> String {
        // Past the body's budget nothing would be kept anyway.
        let chars = Array(text.count > textBudget ? String(text.prefix(textBudget)) : text)
        var out = ""
        var i = 0
        // Every search below is answered from what an earlier one found, so a line full of
        // openers without closers is read once, not once per opener.
        var found: [String: (from: Int, at: Int?)] = [:]
        func find(_ pattern: [Character], from start: Int) -> Int? {
            let key = String(pattern)
            var at: Int?
            if let cached = found[key], cached.from <= start, cached.at.map({ $0 >= start }) ?? true {
                at = cached.at
            } else {
                var j = start
                while j + pattern.count <= chars.count {
                    if pattern.indices.allSatisfy({ chars[j + $0] == pattern[$0] }) {
                        at = j
                        break
                    }
                    j += 1
                }
                found[key] = (start, at)
            }
            return at.flatMap { $0 - start <= inlineWindow ? $0 : nil }
        }
        // Matching brackets, in one pass (a backslash escapes one).
        var closing: [Int: Int] = [:]
        var open: [Int] = []
        var k = 0
        while k < chars.count {
            switch chars[k] {
            case "\\": k += 1
            case "[": open.append(k)
            case "]": if let o = open.popLast() { closing[o] = k }
            default: break
            }
            k += 1
        }
        /// The index after a bracketed label starting at `open` (`[...]`), nested brackets allowed.
        func label(_ open: Int) -> Int? {
            closing[open].flatMap { $0 - open <= inlineWindow ? $0 + 1 : nil }
        }
        /// After a label: `(url)` or `[ref]`, the index after it.
        func target(_ at: Int) -> Int? {
            guard at < chars.count, chars[at] == "(" || chars[at] == "[" else { return nil }
            return find([chars[at] == "(" ? ")" : "]"], from: at + 1).map { $0 + 1 }
        }
        func isBoundary(_ k: Int) -> Bool {
            k < 0 || k >= chars.count || chars[k].isWhitespace || (chars[k].isPunctuation && chars[k] != "_")
        }
        /// Where the run of `run` underscores that closes the one at `open` starts: text between
        /// them, no space inside either end, a word boundary after it.
        var closers: [Int: (from: Int, at: Int?)] = [:]
        func underscoreCloser(_ run: Int, after open: Int) -> Int? {
            guard open + run < chars.count, !chars[open + run].isWhitespace else { return nil }
            let start = open + run + 1
            var at: Int?
            if let cached = closers[run], cached.from <= start, cached.at.map({ $0 >= start }) ?? true {
                at = cached.at
            } else {
                var j = start
                while j < chars.count {
                    let closeRun = chars[j...].prefix { $0 == "_" }.count
                    if closeRun == run, !chars[j - 1].isWhitespace, chars[j - 1] != "_", isBoundary(j + run) {
                        at = j
                        break
                    }
                    j += max(closeRun, 1)
                }
                closers[run] = (start, at)
            }
            return at.flatMap { $0 - open <= inlineWindow ? $0 : nil }
        }
        /// Inline text inside a label, strikethrough or emphasis; nested past a few levels, as written.
        func inner(_ range: Range<Int>) -> String {
            let text = String(chars[range])
            return depth < 4 ? inline(text, notes: &notes, depth: depth + 1) : text
        }
        while i < chars.count {
            let c = chars[i]
            switch c {
            case "\\" where i + 1 < chars.count && chars[i + 1].isASCII && chars[i + 1].isPunctuation:
                out.append(chars[i + 1])
                i += 2
                continue
            case "`":
                let run = chars[i...].prefix { $0 == "`" }.count
                if let close = find(Array(repeating: "`", count: run), from: i + run) {
                    notes.add(.inlineCode)
                    out += String(chars[(i + run)..<close]).trimmingCharacters()
                    i = close + run
                    continue
                }
                out += String(repeating: "`", count: run)
                i += run
                continue
            case "!" where i + 1 < chars.count && chars[i + 1] == "[":
                if let end = label(i + 1), let after = target(end) {
                    notes.add(.images)
                    i = after
                    continue
                }
            case "[":
                if let end = label(i), let after = target(end) {
                    out += inner((i + 1)..<(end - 1))
                    i = after
                    continue
                }
            case "<":
                if let close = find([">"], from: i + 1) {
                    let inner = String(chars[(i + 1)..<close])
                    if inner.hasPrefix("http://") || inner.hasPrefix("https://") || inner.hasPrefix("mailto:") {
                        out += inner
                        i = close + 1
                        continue
                    }
                    if inner.lowercased().hasPrefix("img ") {
                        notes.add(.images)
                        i = close + 1
                        continue
                    }
                }
            case "~" where i + 1 < chars.count && chars[i + 1] == "~":
                if let close = find(["~", "~"], from: i + 2), close > i + 2 {
                    notes.add(.strikethrough)
                    out += inner((i + 2)..<close)
                    i = close + 2
                    continue
                }
            case "_":
                let run = chars[i...].prefix { $0 == "_" }.count
                if run <= 2, isBoundary(i - 1), let close = underscoreCloser(run, after: i) {
                    let marker = run == 2 ? "**" : "*"
                    out += marker + inner((i + run)..<close) + marker
                    i = close + run
                    continue
                }
                out += String(repeating: "_", count: run)
                i += run
                continue
            default: break
            }
            out.append(c)
            i += 1
        }
        return out
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    func trimmingCharacters() -> String { String(Substring(self).trimmingWhitespace()) }
    func trimmingTrailingSpaces() -> String {
        var s = Substring(self)
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return String(s)
    }
}

extension Substring {
    func trimmingCharacters() -> String { String(trimmingWhitespace()) }
}
