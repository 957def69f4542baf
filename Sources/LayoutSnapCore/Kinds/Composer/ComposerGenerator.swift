/// `composer` fixtures (docs/fixtures/composer.md): a field that grows and scrolls, typing, suggestions (also
/// while marked text is active, which is ignored), selections within and across lines, input
/// method compositions, drags that are kept, disabling and enabling, the keyboard sliding, and
/// patterns that match and that do not.
///
/// Steps are planned against the tool's own `ComposerEditor`, so every `select` lies inside the
/// text as it is at that step, however many scalars its emoji and accents take.

import LayoutSnapJSON

enum ComposerGenerator {
    /// Anchorable ICU patterns (docs/fixtures/composer.md), each with pieces that, typed in order into an empty
    /// field, end in a match (the field is unmatched on the way there).
    static let patterns: [(pattern: String, pieces: [String])] = [
        (#"^[a-zA-Z0-9+-\_.]+@[a-zA-Z0-9-]+\.[a-zA-Z0-9-.]{2,3}+$"#, ["kim", "@example", ".com"]),
        (#"\d{3}-\d{4}"#, ["555", "-", "0199"]),
        (#"#?[0-9a-fA-F]{6}"#, ["#", "1a2b", "3c"]),
        (#"(yes|no)"#, ["y", "es"]),
        (#"\p{L}+( \p{L}+)*"#, ["hello", " world"]),
        (#".{0,40}"#, ["short"]),
        (#"[^@\s]+@[^@\s]+"#, ["a", "@", "b"]),
        (#"(?s).*"#, ["anything"]),
        (#"[0-9]*"#, ["12", "34"]),
    ]

    /// Marked text as an input method builds it up, then converts it.
    static let compositions = [
        ["n", "に", "にほ", "にほん", "日本"], ["k", "か", "かん", "かんじ", "漢字"], ["ㅎ", "하", "한"],
        ["z", "zh", "zhong", "中"], ["s", "sh", "shi", "是"],
    ]

    static func make(_ r: inout SeededRandom) -> JSONOutput {
        var common = CommonFields.random(&r)
        let script = GeneratorSupport.script(&r)
        var m = Members()
        let scenario = r.chance(0.12) ? r.pick(patterns) : nil

        var text = ""
        if scenario == nil && r.chance(0.75) {
            let length = TextSource.length(&r, longest: 2500)
            text = TextSource.text(script, length: length, markup: r.chance(0.2), lineBreaks: 0.25, &r)
            m.add("text", .string(text))
        }
        var editor = ComposerEditor(text: text)
        if editor.count > 0 && r.chance(0.2) {
            let range = selection(in: editor.count, &r)
            editor.select(range[0], range[1])
            m.add("selection", [.int(range[0]), .int(range[1])])
        }
        var font = TextStyle.body.font
        if r.chance(0.4) {
            let f = GeneratorSupport.font(&r, sizes: 12...28)
            m.add("font", f.json)
            font = f.spec
        }
        if r.chance(0.5) { m.add("lineSpacing", .number(Double(r.int(0...10)))) }
        if r.chance(0.5) { m.add("maxLines", .int(r.int(1...8))) }
        var margin = 16.0
        if r.chance(0.3) {
            margin = Double(r.int(0...24))
            m.add("margin", .number(margin))
        }
        m.set("border", r.weighted([(nil, 0.7), (false, 0.2), (true, 0.1)] as [(JSONOutput?, Double)]))
        var enabled = true
        // A pattern scenario types into an enabled field, so it ends in a match.
        if scenario == nil && r.chance(0.25) {
            enabled = !r.chance(0.6)
            m.add("enabled", .bool(enabled))
        }
        if r.chance(0.25) {
            m.add("disabledPlaceholder", .string(TextSource.text(script, length: r.int(0...40), markup: false, &r)))
        }
        if scenario != nil || r.chance(0.35) {
            m.add("placeholder", .string(TextSource.text(script, length: r.int(0...40), markup: false, &r)))
        }
        if let scenario {
            m.add("pattern", .string(scenario.pattern))
        } else if r.chance(0.08) {
            m.add("pattern", .string(r.pick(patterns).pattern))
        }
        var keyboard = true
        if r.chance(0.6) {
            keyboard = r.chance(0.35)
            m.add("keyboard", .bool(keyboard))
        }
        var stripEverShown = false
        if r.chance(0.6) {
            let words = suggestions(script, &r)
            stripEverShown = !words.isEmpty
            m.add("suggestions", .array(words.map(JSONOutput.string)))
        }

        // The steps, applied to the editor as the rules will apply them.
        var steps: [JSONOutput] = []
        var keyboardShown = keyboard
        var keyboardEverShown = keyboard
        var keyboardSteps = 0
        var composition: [String]?
        var pieces = scenario?.pieces ?? []
        let count =
            scenario.map { $0.pieces.count + r.int(0...3) }
            ?? r.int(weighted: [(0...0, 0.05), (1...4, 0.45), (5...10, 0.5)])
        for _ in 0..<count {
            var s = Members()
            if !pieces.isEmpty {
                let piece = pieces.removeFirst()
                s.add("type", .string(piece))
                if enabled { editor.type(piece) }
                steps.append(s.json)
                continue
            }
            let event = r.weighted([
                (0, 0.28), (1, 0.12), (2, 0.15), (3, 0.12), (4, 0.06), (5, 0.08), (6, 0.08),
                (7, keyboardSteps < 2 ? 0.07 : 0),
            ])
            switch event {
            case 0:
                let typed = typing(script, &r)
                s.add("type", .string(typed))
                if enabled { editor.type(typed) }
                composition = nil
            case 1:
                let word = TextSource.word(script, &r)
                s.add("insertSuggestion", .string(word))
                if enabled { _ = editor.insertSuggestion(word) }
            case 2:
                let range = selection(in: editor.count, &r)
                s.add("select", [.int(range[0]), .int(range[1])])
                if enabled {
                    editor.select(range[0], range[1])
                    composition = nil
                }
            case 3:
                // The next stage of a composition, or a new one; now and then cancelled with "".
                var marked = ""
                if r.chance(0.1) {
                    composition = nil
                } else {
                    if composition?.isEmpty ?? true { composition = r.pick(compositions) }
                    marked = composition!.removeFirst()
                }
                s.add("compose", .string(marked))
                if enabled { editor.compose(marked) }
            case 4:
                s.add("commit", true)
                if enabled { editor.commit() }
                composition = nil
            case 5:
                s.add("scrollBy", .number(Double(r.int(-300...300))))
            case 6:
                enabled = r.chance(0.85) ? !enabled : enabled
                s.add("enable", .bool(enabled))
            default:
                keyboardShown = r.chance(0.85) ? !keyboardShown : keyboardShown
                keyboardEverShown = keyboardEverShown || keyboardShown
                keyboardSteps += 1
                s.add("keyboard", .string(keyboardShown ? "show" : "hide"))
            }
            s.set("at", GeneratorSupport.at(&r, chance: 0.2, within: 0.02...0.5))
            if r.chance(0.2) {
                let words = suggestions(script, &r)
                stripEverShown = stripEverShown || !words.isEmpty
                s.add("suggestions", .array(words.map(JSONOutput.string)))
            }
            steps.append(s.json)
        }

        // Only the keyboard animates: about 3.5 s a slide, so a low frame rate (as the bundled
        // keyboard fixtures use).
        common.fps =
            keyboardSteps == 0
            ? r.pick([30, 60])
            : GeneratorSupport.fps(
                animatedSeconds: GeneratorSupport.keyboardSeconds * Double(keyboardSteps), steps: steps.count,
                preferred: r.pick([[15], [12], [10]]))
        // The canvas must hold one line of the field above the keyboard and the strip (an error
        // otherwise, at $.height).
        let device = common.device
        let below =
            (keyboardEverShown ? max(device.keyboardHeight, device.safeAreaBottom) : device.safeAreaBottom)
            + (stripEverShown ? ComposerStyle.default.stripHeight : 0) + ComposerStyle.default.stripGap
        let least = margin + ComposerRules.insetTop + ComposerRules.insetBottom + font.firstLineHeight + below
        if r.chance(0.8) || device.height < least + 1 {
            common.height = (least + Double(r.int(1...350))).rounded(.up)
        }
        var out = common.members(kind: .composer)
        out.append(m)
        if !steps.isEmpty { out.add("steps", .array(steps)) }
        return out.json
    }

    /// [start, end] within `count` characters: a caret half the time, else a range.
    static func selection(in count: Int, _ r: inout SeededRandom) -> [Int] {
        let a = r.int(0...count)
        if r.chance(0.5) { return [a, a] }
        let b = r.int(0...count)
        return [min(a, b), max(a, b)]
    }

    /// What one `type` step types: a character, a word, a phrase, a line break, or nothing
    /// (which deletes the selection).
    static func typing(_ script: Script, _ r: inout SeededRandom) -> String {
        switch r.weighted([(0, 0.3), (1, 0.35), (2, 0.22), (3, 0.08), (4, 0.05)]) {
        case 0:
            return String(TextSource.word(script, &r).first!)
        case 1:
            let word = TextSource.word(script, &r)
            return word + (r.chance(0.6) ? " " : "")
        case 2:
            let length = r.int(10...120)
            return TextSource.text(script, length: length, markup: false, &r) + " "
        case 3:
            return "\n"
        default:
            return ""
        }
    }

    /// Words for the suggestion strip: none (the strip hides) to five.
    static func suggestions(_ script: Script, _ r: inout SeededRandom) -> [String] {
        (0..<r.int(weighted: [(0...0, 0.15), (1...5, 0.85)])).map { _ in TextSource.word(script, &r) }
    }
}
