/// `post` fixtures (docs/fixtures/post.md): cards with and without images (placeholders with aspect ratios
/// from 1:4 to 4:1, every image state), titles that fit or ellipsize, bodies from one word to
/// thousands of characters with headings and bullets, every curve, and expand / collapse steps,
/// some of them interrupting the running animation.

import LayoutSnapJSON

enum PostGenerator {
    static let authors = ["Ada Lovelace", "Motion team", "Coastal guide", "李明", "سارة", "Mika 🎧", "Dr. O'Brien"]

    static func make(_ r: inout SeededRandom) -> JSONOutput {
        var common = CommonFields.random(&r)
        let script = GeneratorSupport.script(&r)
        var m = Members()

        if r.chance(0.92) {
            // A few words, or a title long enough to be cut with an ellipsis.
            let length = r.int(weighted: [(0...0, 0.3), (10...30, 0.5), (30...120, 0.2)])
            m.add("title", .string(TextSource.text(script, length: length, lineBreaks: 0.05, &r)))
        }
        if r.chance(0.75) {
            let length = r.int(r.chance(0.2) ? 0...0 : 10...200)
            m.add("summary", .string(TextSource.text(script, length: length, &r)))
        }
        if r.chance(0.85) {
            m.add("body", .string(TextSource.postBody(script, length: TextSource.length(&r), &r)))
        }
        if r.chance(0.7) {
            // Placeholders only (no image files): 1:4 to 4:1, the extremes and a square included.
            let any = r.logDouble(0.25...4)
            let ratio = r.weighted([(0.25, 0.06), (4, 0.06), (1, 0.06), (any, 0.82)])
            m.add("image", ["aspectRatio": .number(ratio)])
        }
        m.set(
            "imageState",
            r.weighted([(nil, 0.4), ("loaded", 0.2), ("loading", 0.2), ("failed", 0.2)] as [(JSONOutput?, Double)]))
        if r.chance(0.7) {
            let length = r.int(0...20)
            m.add(
                "author",
                .string(r.chance(0.5) ? r.pick(authors) : TextSource.text(script, length: length, markup: false, &r)))
        }
        m.set("aiGenerated", r.weighted([(nil, 0.7), (true, 0.2), (false, 0.1)] as [(JSONOutput?, Double)]))
        let expanded = r.chance(0.3)
        if expanded || r.chance(0.1) { m.add("expanded", .bool(expanded)) }
        if r.chance(0.15) {
            // The seed's content width; the card (20 pt wider) stays on the canvas.
            m.add("availableWidth", .number(Double(r.int(200...max(200, Int(common.canvasWidth) - 40)))))
        }

        var duration = 0.3
        let writesDuration = r.chance(0.4)
        if writesDuration { duration = r.double(0.1...0.6) }
        let springCurve = spring(&r)
        let curve: JSONOutput? = r.weighted(
            [
                (nil, 0.3), ("easeInOut", 0.1), ("easeIn", 0.1), ("easeOut", 0.1), ("linear", 0.1),
                (cubic(&r), 0.1), (springCurve, 0.2),
            ] as [(JSONOutput?, Double)])
        var isSpring = false
        if case .object(let members)? = curve, members.first?.key == "spring" { isSpring = true }
        // A spring takes no duration: it runs until it settles.
        if writesDuration && !isSpring { m.add("duration", .number(duration)) }
        m.set("curve", curve)

        // Steps: mostly the opposite of the current state, sometimes the same again (nothing
        // moves); later steps sometimes arrive while the previous animation runs.
        var steps: [JSONOutput] = []
        var open = expanded
        let count = r.weighted([(0, 0.08), (1, 0.4), (2, 0.3), (3, 0.15), (4, 0.07)])
        for i in 0..<count {
            if r.chance(0.88) { open.toggle() }
            var s = Members()
            s.add(open ? "expand" : "collapse", true)
            let within = isSpring ? 0.05...0.5 : 0.02...max(0.03, duration * 0.9)
            s.set("at", GeneratorSupport.at(&r, chance: i == 0 ? 0.1 : 0.35, within: within))
            steps.append(s.json)
        }

        // A spring's length depends on its damping and on the card's travel in pixels.
        let perStep = isSpring ? 1.6 : duration
        common.fps = GeneratorSupport.fps(
            animatedSeconds: perStep * Double(count), steps: count,
            preferred: r.pick([[60, 30], [30, 20], [24], [20, 15], [15]]))
        if r.chance(0.85) { common.height = Double(r.int(200...900)) }
        var out = common.members(kind: .post)
        out.append(m)
        if !steps.isEmpty || r.chance(0.2) { out.add("steps", .array(steps)) }
        return out.json
    }

    /// SwiftUI's two spellings: response and damping fraction, or mass, stiffness and damping
    /// (a mass of 0.5 to 3 with the same response and damping fraction range).
    static func spring(_ r: inout SeededRandom) -> JSONOutput {
        let response = r.double(0.2...0.8)
        let damping = r.double(0.5...1.2)
        guard r.chance(0.3) else {
            return ["spring": ["response": .number(response), "dampingFraction": .number(damping)]]
        }
        let mass = r.double(0.5...3)
        let w0 = 2 * Double.pi / response
        let stiffness = mass * w0 * w0
        let coefficient = damping * 2 * (stiffness * mass).squareRoot()
        return [
            "spring": [
                "mass": .number(mass), "stiffness": .number(stiffness.rounded()),
                "damping": .number((coefficient * 10).rounded() / 10),
            ]
        ]
    }

    /// A cubic Bézier: x within the curve's time, y sometimes overshooting (an anticipation or
    /// a back-out).
    static func cubic(_ r: inout SeededRandom) -> JSONOutput {
        let x1 = r.double(0...1)
        let y1 = r.double(-0.5...1.5)
        let x2 = r.double(0...1)
        let y2 = r.double(-0.5...1.5)
        return ["cubic": [.number(x1), .number(y1), .number(x2), .number(y2)]]
    }
}
