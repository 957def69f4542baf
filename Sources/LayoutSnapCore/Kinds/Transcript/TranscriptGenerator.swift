/// `transcript` fixtures (docs/fixtures/transcript.md): text from one word to thousands of characters that grows
/// line by line and then scrolls; appends while following and while scrolled up (sticky or
/// not), drags up and down, scrolls back to the bottom, some steps interrupting a running
/// scroll; every font form, line limit and indicator mode.

import LayoutSnapJSON

enum TranscriptGenerator {
    static func make(_ r: inout SeededRandom) -> JSONOutput {
        var common = CommonFields.random(&r)
        let script = GeneratorSupport.script(&r)
        var m = Members()

        if r.chance(0.9) {
            let length = TextSource.length(&r, longest: 3000)
            m.add("text", .string(TextSource.text(script, length: length, lineBreaks: 0.3, &r)))
        }
        var font = TextStyle.body.font
        if r.chance(0.5) {
            let f = GeneratorSupport.font(&r, sizes: 11...34)
            m.add("font", f.json)
            font = f.spec
        }
        var maxLines = 4
        if r.chance(0.6) {
            maxLines = r.int(1...8)
            m.add("maxLines", .int(maxLines))
        }
        var padding = 16.0
        var margin = 16.0
        if r.chance(0.4) {
            padding = Double(r.int(0...24))
            m.add("padding", .number(padding))
        }
        if r.chance(0.3) {
            margin = Double(r.int(0...24))
            m.add("margin", .number(margin))
        }
        m.set("sticky", r.weighted([(nil, 0.5), (true, 0.15), (false, 0.35)] as [(JSONOutput?, Double)]))
        m.set(
            "indicators",
            r.weighted([(nil, 0.4), ("scrolling", 0.15), ("always", 0.25), ("never", 0.2)] as [(JSONOutput?, Double)]))

        // Appends (a word, a sentence, sometimes a new line), drags (mostly up, to unstick the
        // view) and scrolls to the bottom; an `at` makes a step arrive during the running scroll.
        var steps: [JSONOutput] = []
        var animated = 0
        for _ in 0..<r.int(weighted: [(0...0, 0.05), (1...3, 0.45), (4...8, 0.5)]) {
            var s = Members()
            switch r.weighted([(0, 0.55), (1, 0.3), (2, 0.15)]) {
            case 0:
                let length = r.int(weighted: [(0...0, 0.4), (10...80, 0.45), (80...300, 0.15)])
                let text = TextSource.text(script, length: length, lineBreaks: 0.2, &r)
                let lead = r.weighted([("\n", 0.4), (" ", 0.5), ("", 0.1)])
                s.add("append", .string(lead + text))
                animated += 1
            case 1:
                let dy = r.chance(0.75) ? -r.int(5...400) : r.int(5...1000)
                s.add("scrollBy", .number(Double(dy)))
            default:
                s.add("scrollToBottom", true)
                animated += 1
            }
            s.set("at", GeneratorSupport.at(&r, chance: 0.25, within: 0.02...0.6))
            steps.append(s.json)
        }

        common.fps = GeneratorSupport.fps(
            animatedSeconds: GeneratorSupport.scrollSeconds * Double(animated), steps: steps.count,
            preferred: r.pick([[60, 30], [30, 24], [24, 20], [20, 15]]))
        if r.chance(0.85) {
            // Room for the view at its tallest, and a little more.
            let view = LineMetrics.height(lines: maxLines, font: font) + 2 * padding
            common.height = (margin + view + Double(r.int(4...120))).rounded(.up)
        }
        var out = common.members(kind: .transcript)
        out.append(m)
        if !steps.isEmpty { out.add("steps", .array(steps)) }
        return out.json
    }
}
