import LayoutSnapJSON

/// Caption cues as transcript fixtures (docs/commands.md "import"): the transcript starts empty
/// and each cue is an `append` on a line of its own, at its cue time. A step's `at` is the time
/// since the previous cue began (the first cue's, since 0), so the appends arrive as the captions
/// do and one that comes while the previous scroll still runs is added on top of it.
///
///     cues at 1.000, 3.500 and 3.900 s  →  {"append": "A", "at": 1}, {"append": "\nB", "at": 2.5},
///                                          {"append": "\nC", "at": 0.4}
public enum TranscriptImport {
    /// Cues per fixture: a longer file is split into parts, each a fixture. An append that
    /// scrolls renders about 45 frames at 60 fps, so a part stays far under the 10,000 frames of
    /// a fixture (docs/fixtures/README.md "Limits"): about 1,800 frames, recorded in about 15 s.
    public static let cuesPerFixture = 50
    /// The canvas height: the view at four lines of body at the default text size (16 + 16 +
    /// 86.29 + 16 + 16 pt). The view never grows past four lines, and a whole phone screen
    /// would be five times the pixels to draw and store for every frame.
    public static let canvasHeight = 151
    /// A cue's text is cut (with "…") past this many characters: a caption is a sentence or two.
    public static let maxCueCharacters = 1000

    static func fixtures(_ cues: [Cue], notes: inout ImportNotes) -> [FixtureParts] {
        // In start order (stable): a file's cues may come in any order.
        var outOfOrder = 0
        for (a, b) in zip(cues, cues.dropFirst()) where b.start < a.start { outOfOrder += 1 }
        notes.add(.cuesOutOfOrder, outOfOrder)
        let sorted = cues.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }
            .map(\.element)
        var kept: [Cue] = []
        for cue in sorted {
            if cue.text.isEmpty {
                notes.add(.emptyCues)
                continue
            }
            if let last = kept.last, cue.start < last.end { notes.add(.overlappingCues) }
            var cue = cue
            let (text, cut) = ImportText.truncated(cue.text, to: maxCueCharacters)
            if cut { notes.add(.longCues) }
            cue.text = text
            kept.append(cue)
        }
        var parts: [FixtureParts] = []
        var previousStart = 0
        var previousSpeaker: String?
        var index = 0
        while index < kept.count {
            let chunk = kept[index..<min(index + cuesPerFixture, kept.count)]
            var steps: [JSONOutput] = []
            for (n, cue) in chunk.enumerated() {
                var text = cue.text
                if let speaker = cue.speaker, speaker != previousSpeaker { text = "**\(speaker):** " + text }
                previousSpeaker = cue.speaker ?? previousSpeaker
                var gap = cue.start - previousStart
                if gap > Int(Limits.stepDelay.upperBound) * 1000 {
                    notes.add(.longGaps)
                    gap = Int(Limits.stepDelay.upperBound) * 1000
                }
                previousStart = cue.start
                steps.append(.object([("append", .string(n == 0 ? text : "\n" + text)), ("at", seconds(gap))]))
            }
            parts.append(
                FixtureParts(
                    members: [
                        ("kind", "transcript"), ("height", .int(canvasHeight)), ("text", ""), ("steps", .array(steps)),
                    ],
                    summary:
                        "\(chunk.count) \(chunk.count == 1 ? "cue" : "cues") from \(clock(chunk.first!.start)) to \(clock(chunk.last!.start))"
                ))
            index += cuesPerFixture
        }
        return parts
    }

    /// Milliseconds as seconds, written exactly (1500 → 1.5).
    static func seconds(_ ms: Int) -> JSONOutput {
        ms % 1000 == 0 ? .int(ms / 1000) : .number(Double(ms) / 1000)
    }

    /// `1:02:03.5`, `2:03.25`: a cue time as people read it.
    static func clock(_ ms: Int) -> String {
        let total = ms / 1000
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        var fraction = ms % 1000 == 0 ? "" : String(String(format3(ms % 1000)).reversed().drop { $0 == "0" }.reversed())
        if !fraction.isEmpty { fraction = "." + fraction }
        let mmss = (h > 0 && m < 10 ? "0" : "") + "\(m):" + (s < 10 ? "0" : "") + "\(s)" + fraction
        return h > 0 ? "\(h):" + mmss : mmss
    }

    private static func format3(_ n: Int) -> String { n < 10 ? "00\(n)" : n < 100 ? "0\(n)" : "\(n)" }
}
