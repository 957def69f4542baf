// Layout lints: visual bugs found in every frame from the layout tree and the display list, with
// no golden and no pixels. A golden only says "this changed"; these say "this is wrong" (text over
// text, an element leaving its card, a line cut by a mask, text too faint for its background, a
// caret under the keyboard). Geometry is exact here, so a finding names elements and numbers.

import Foundation
import LayoutSnapJSON

/// What a lint looks for. The raw values are what fixtures, results.json and the terminal say.
public enum LintRule: String, Sendable, Hashable, CaseIterable, Codable, NamedCases {
    public static let caseKind = "lint rule"

    /// Lines of two different elements' texts overlap.
    case textOverlap = "text-overlap"
    /// An element (or a text's lines) drawn outside its container while visible.
    case outsideContainer = "outside-container"
    /// A line cut by a clip that is not a scroll viewport's edge, in a settled frame; or text
    /// truncated where the kind never truncates.
    case clippedText = "clipped-text"
    /// Text against what is drawn under it below WCAG 2.x AA, in a settled frame.
    case contrast
    /// A focused composer's caret not wholly in view, in a settled frame.
    case caretHidden = "caret-hidden"
}

/// One thing a lint found in one frame.
public struct LintFinding: Sendable, Hashable {
    public var rule: LintRule
    /// The elements involved (`["body", "summary"]`).
    public var elements: [String]
    /// `body overlaps summary by 14.2 pt`.
    public var detail: String
    /// Where, in canvas points.
    public var rect: Rect
    /// The size of the problem in its own unit (points of overlap, the contrast ratio): how
    /// findings over a range of frames pick the worst one to quote.
    public var amount: Double
    /// A contrast finding's colours: the text's as drawn (its alpha included) and the opaque
    /// background under it. What a design's accepted findings are matched on.
    public var colors: LintColors?

    public init(
        rule: LintRule, elements: [String], detail: String, rect: Rect, amount: Double, colors: LintColors? = nil
    ) {
        self.rule = rule
        self.elements = elements
        self.detail = detail
        self.rect = rect
        self.amount = amount
        self.colors = colors
    }
}

/// The colours a contrast finding judged.
public struct LintColors: Sendable, Hashable {
    public var text: Color
    public var background: Color

    public init(text: Color, background: Color) {
        self.text = text
        self.background = background
    }
}

/// A fixture's `"lint": {"ignore": [{"rule", "element", "reason"}]}` entry: findings of that
/// rule about that element (any element when absent) are left out, for the reason given.
public struct LintIgnore: Sendable, Hashable {
    public var rule: LintRule
    public var element: String?
    public var reason: String

    public init(rule: LintRule, element: String?, reason: String) {
        self.rule = rule
        self.element = element
        self.reason = reason
    }

    /// Whether this entry covers the finding. `message:*` covers every message.
    public func covers(_ finding: LintFinding) -> Bool {
        guard finding.rule == rule else { return false }
        guard let element else { return true }
        return finding.elements.contains { id in
            element.hasSuffix("*") ? id.hasPrefix(element.dropLast()) : id == element
        }
    }
}

/// What each kind's layout means to the lints: which element holds which, which texts scroll
/// (their viewport cuts lines by design), which may be ellipsized.
public struct LintPolicy: Sendable {
    /// Container id → the ids that must stay inside it while visible (`canvas` is the canvas).
    public var containers: [(container: String, contents: [String])]
    /// Texts clipped by a scroll viewport: a cut line is a scrolled line, not a bug.
    public var scrollingTexts: @Sendable (String) -> Bool
    /// Texts the kind ellipsizes on purpose.
    public var truncatable: Set<String>

    /// The caret the kind draws, if any (`caret-hidden`).
    public var caret: CaretPolicy?

    public init(
        containers: [(container: String, contents: [String])], scrollingTexts: @escaping @Sendable (String) -> Bool,
        truncatable: Set<String>, caret: CaretPolicy? = nil
    ) {
        self.containers = containers
        self.scrollingTexts = scrollingTexts
        self.truncatable = truncatable
        self.caret = caret
    }
}

/// Where a kind's `caret` element must stay: inside `container`, and out from under the elements
/// of `covers` (each with the name findings call it by).
public struct CaretPolicy: Sendable {
    public var container: String
    public var covers: [(element: String, name: String)]

    public init(container: String, covers: [(element: String, name: String)]) {
        self.container = container
        self.covers = covers
    }
}

/// Checks frames of one fixture. Text lines come from the measurer (cached by the text engine, so
/// a text is measured once however many frames draw it); vertical metrics are iOS's, as the rules
/// use them.
public struct LayoutLinter {
    public let kind: FixtureKind
    public let canvas: Canvas
    public let measurer: any TextMeasuring
    public let policy: LintPolicy
    /// Points a rect may cross an edge by before it counts: rounding in the rules, not a bug.
    public static let slack = 0.5

    public init(kind: FixtureKind, canvas: Canvas, measurer: any TextMeasuring) {
        self.kind = kind
        self.canvas = canvas
        self.measurer = measurer
        self.policy = kind.definition.lintPolicy
    }

    /// One drawn text line: its box on the canvas and the part of it the clip lets through.
    struct Line {
        var element: String
        var box: Rect
        var visible: Rect?
        var draw: TextDraw
        /// The op's place in the display list (what is drawn under it comes before).
        var order: Int
    }

    func lines(of frame: LayoutFrame) throws -> [Line] {
        var out: [Line] = []
        for (order, op) in frame.drawList.enumerated() {
            guard case .text(let draw) = op, let element = draw.element, draw.color.alpha > 0 else { continue }
            let measured = try measurer.measure(draw.text)
            let font = draw.text.font
            let count = min(measured.lines.count, draw.baselines.count)
            // Only the lines the clip can show (a long transcript scrolled to its end shows a few
            // of thousands): baselines grow down the text, so the first one is a binary search.
            var first = 0
            if let clip = draw.clip {
                var lo = 0
                var hi = count
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if draw.origin.y + draw.baselines[mid] + font.descent < clip.minY { lo = mid + 1 } else { hi = mid }
                }
                first = lo
            }
            for i in first..<max(first, count) {
                let line = measured.lines[i]
                let top = draw.origin.y + draw.baselines[i] - font.ascent
                if let clip = draw.clip, top > clip.maxY { break }
                guard line.width > 0 else { continue }
                let box = Rect(x: draw.lineX(line), y: top, width: line.width, height: font.ascent + font.descent)
                let visible = draw.clip.map { box.intersection($0) } ?? box
                out.append(Line(element: element, box: box, visible: visible, draw: draw, order: order))
            }
        }
        return out
    }

    /// Every finding in `frame`; `settled` is the last frame of its state (where the contrast,
    /// clipped-text and caret rules apply: a fade or a mask mid-animation is not a bug).
    public func lint(_ frame: LayoutFrame, settled: Bool) throws -> [LintFinding] {
        let lines = try lines(of: frame)
        var findings = textOverlaps(lines) + outsideContainers(frame, lines)
        if settled {
            findings += try clippedTexts(lines, frame)
            findings += contrasts(lines, frame)
            findings += caretHidden(frame)
        }
        return findings
    }

    // MARK: text-overlap

    func textOverlaps(_ lines: [Line]) -> [LintFinding] {
        var worst: [String: LintFinding] = [:]
        // A sweep down the canvas: each line is compared only with the lines above it that still
        // reach its top, so a frame of many lines costs what its overlaps cost, not every pair.
        let shown = lines.indices.filter { lines[$0].visible != nil }.sorted {
            lines[$0].visible!.minY < lines[$1].visible!.minY
        }
        var active: [Int] = []
        for j in shown {
            let b = lines[j].visible!
            active.removeAll { lines[$0].visible!.maxY <= b.minY + Self.slack }
            defer { active.append(j) }
            for i in active where lines[i].element != lines[j].element {
                let a = lines[i].visible!
                guard let overlap = a.intersection(b), overlap.width > Self.slack, overlap.height > Self.slack else {
                    continue
                }
                // The element drawn later covers the earlier one: it is named first.
                let (top, under) =
                    lines[j].order >= lines[i].order
                    ? (lines[j].element, lines[i].element) : (lines[i].element, lines[j].element)
                let key = top + "|" + under
                let finding = LintFinding(
                    rule: .textOverlap, elements: [top, under],
                    detail: "\(top) overlaps \(under) by \(Self.points(overlap.height))", rect: overlap,
                    amount: overlap.height)
                if (worst[key]?.amount ?? -1) < finding.amount { worst[key] = finding }
            }
        }
        return worst.keys.sorted().map { worst[$0]! }
    }

    // MARK: outside-container

    /// Whether an element is drawn in this frame: present, not hidden (`visible: false`), not
    /// transparent (`opacity: 0`).
    static func isShown(_ e: LayoutElement) -> Bool {
        if case .bool(false)? = e["visible"] { return false }
        if case .number(let o)? = e["opacity"], o <= 0 { return false }
        // A post body not yet revealed (its mask is 0 tall) is not drawn at all.
        if case .number(let r)? = e["revealed"], r <= 0 { return false }
        return e.rect.width > 0 && e.rect.height > 0
    }

    func outsideContainers(_ frame: LayoutFrame, _ lines: [Line]) -> [LintFinding] {
        var findings: [LintFinding] = []
        let canvasRect = Rect(x: 0, y: 0, width: canvas.width, height: canvas.height)
        for (containerID, contents) in policy.containers {
            let container: Rect
            if containerID == "canvas" {
                container = canvasRect
            } else {
                guard let e = frame.element(containerID), Self.isShown(e) else { continue }
                container = e.rect
            }
            for id in contents {
                guard let e = frame.element(id), Self.isShown(e) else { continue }
                // A text is where its visible lines are (a mask may hide the rest); else its rect.
                let drawn = lines.filter { $0.element == id }.compactMap(\.visible)
                let rects = drawn.isEmpty ? [e.rect] : drawn
                if drawn.isEmpty, lines.isEmpty == false,
                    frame.drawList.contains(where: { if case .text(let d) = $0 { d.element == id } else { false } })
                {
                    continue  // drawn, but wholly masked: nothing of it shows
                }
                if let finding = Self.outside(
                    rects, of: container, subject: id, container: containerID,
                    elements: containerID == "canvas" ? [id] : [id, containerID])
                {
                    findings.append(finding)
                }
            }
        }
        // A text that is not scrolled stays inside its own element (a label in a fixed-height bar).
        for id in Set(lines.map(\.element)).sorted() where !policy.scrollingTexts(id) {
            guard let e = frame.element(id), Self.isShown(e) else { continue }
            let boxes = lines.filter { $0.element == id }.compactMap(\.visible)
            if let finding = Self.outside(boxes, of: e.rect, subject: id + "'s text", container: id, elements: [id]) {
                findings.append(finding)
            }
        }
        return findings
    }

    /// How far the rects reach past the container's edges, when more than the slack.
    static func outside(
        _ rects: [Rect], of container: Rect, subject: String, container name: String, elements: [String]
    ) -> LintFinding? {
        guard let first = rects.first else { return nil }
        let bounds = rects.dropFirst().reduce(first) { union($0, $1) }
        let over = [
            container.minY - bounds.minY, bounds.maxY - container.maxY, container.minX - bounds.minX,
            bounds.maxX - container.maxX,
        ]
        let sides = ["above", "below", "left of", "right of"]
        guard let worst = over.indices.max(by: { over[$0] < over[$1] }), over[worst] > slack else { return nil }
        let outsidePart = Rect(
            x: worst == 2 ? bounds.minX : worst == 3 ? container.maxX : bounds.minX,
            y: worst == 0 ? bounds.minY : worst == 1 ? container.maxY : bounds.minY,
            width: worst >= 2 ? over[worst] : bounds.width,
            height: worst < 2 ? over[worst] : bounds.height)
        let where_ = name == "canvas" ? "the canvas" : name
        return LintFinding(
            rule: .outsideContainer, elements: elements,
            detail: "\(subject) reaches \(points(over[worst])) \(sides[worst]) \(where_)", rect: outsidePart,
            amount: over[worst])
    }

    // MARK: clipped-text

    func clippedTexts(_ lines: [Line], _ frame: LayoutFrame) throws -> [LintFinding] {
        var findings: [LintFinding] = []
        var reported = Set<String>()
        for line in lines where !policy.scrollingTexts(line.element) {
            guard let clip = line.draw.clip, let visible = line.visible, !reported.contains(line.element) else {
                continue
            }
            let cut = max(
                clip.minY - line.box.minY, line.box.maxY - clip.maxY, clip.minX - line.box.minX,
                line.box.maxX - clip.maxX)
            // Wholly hidden lines are not cut glyphs (a mask that has not reached them).
            guard cut > Self.slack, visible.height > Self.slack, visible.width > Self.slack else { continue }
            reported.insert(line.element)
            findings.append(
                LintFinding(
                    rule: .clippedText, elements: [line.element],
                    detail: "a line of \(line.element) is cut by \(Self.points(cut)) at its clip", rect: line.box,
                    amount: cut))
        }
        var truncated = Set<String>()
        for case .text(let draw) in frame.drawList {
            guard let id = draw.element, !policy.truncatable.contains(id), !truncated.contains(id),
                draw.text.maxLines != nil
            else { continue }
            if try measurer.measure(draw.text).truncated {
                truncated.insert(id)
                let rect = frame.element(id)?.rect ?? Rect(x: draw.origin.x, y: draw.origin.y, width: 0, height: 0)
                findings.append(
                    LintFinding(
                        rule: .clippedText, elements: [id], detail: "\(id) is truncated, which this kind never does",
                        rect: rect, amount: 1))
            }
        }
        return findings
    }

    // MARK: contrast

    /// WCAG 2.x AA: 4.5:1, or 3:1 for large text (18 pt and up, or 14 pt bold and up).
    public static func requiredContrast(_ font: FontSpec) -> Double {
        font.size >= 18 || (font.size >= 14 && font.weight == .bold) ? 3 : 4.5
    }

    func contrasts(_ lines: [Line], _ frame: LayoutFrame) -> [LintFinding] {
        var worst: [String: LintFinding] = [:]
        for line in lines {
            guard let visible = line.visible, visible.height > Self.slack else { continue }
            let center = Point(x: visible.x + visible.width / 2, y: visible.y + visible.height / 2)
            guard let background = Self.background(at: center, under: line.order, in: frame.drawList) else { continue }
            let text = Self.over(line.draw.color, background)
            let ratio = Self.contrastRatio(text, background)
            let required = Self.requiredContrast(line.draw.text.font)
            guard ratio < required else { continue }
            let finding = LintFinding(
                rule: .contrast, elements: [line.element],
                detail:
                    "\(line.element) has contrast \(Self.ratio(ratio)):1 against its background, under \(Self.ratio(required)):1",
                rect: visible, amount: required - ratio,
                colors: LintColors(text: line.draw.color, background: background))
            if (worst[line.element]?.amount ?? -1) < finding.amount { worst[line.element] = finding }
        }
        return worst.keys.sorted().map { worst[$0]! }
    }

    /// The opaque colour the ops before `order` leave at `point` (a gradient's colour at that
    /// height); nil under an image (its pixels are not known here).
    static func background(at point: Point, under order: Int, in ops: [DrawOp]) -> Color? {
        var color = Color.white
        for op in ops.prefix(order) {
            switch op {
            case .fill(let c): color = over(c, color)
            case .roundedRect(let r, _, let fill, _) where contains(r, point): color = over(fill, color)
            case .image(_, let r, _, let opacity) where contains(r, point) && opacity > 0: return nil
            case .picture(_, let r, let clip, _) where contains(r, point) && contains(clip, point): return nil
            case .gradient(let r, let top, let bottom, let clip, _) where contains(r, point) && contains(clip, point):
                let t = r.height > 0 ? (point.y - r.minY) / r.height : 0
                func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * t }
                color = over(
                    Color(
                        red: mix(top.red, bottom.red), green: mix(top.green, bottom.green),
                        blue: mix(top.blue, bottom.blue), alpha: mix(top.alpha, bottom.alpha)), color)
            default: break
            }
        }
        return color
    }

    /// `top` composited over an opaque `bottom`.
    static func over(_ top: Color, _ bottom: Color) -> Color {
        let a = top.alpha
        return Color(
            red: top.red * a + bottom.red * (1 - a), green: top.green * a + bottom.green * (1 - a),
            blue: top.blue * a + bottom.blue * (1 - a))
    }

    /// WCAG's relative luminance and contrast ratio.
    public static func contrastRatio(_ a: Color, _ b: Color) -> Double {
        func channel(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        func luminance(_ c: Color) -> Double {
            0.2126 * channel(c.red) + 0.7152 * channel(c.green) + 0.0722 * channel(c.blue)
        }
        let (l1, l2) = (luminance(a), luminance(b))
        return (max(l1, l2) + 0.05) / (min(l1, l2) + 0.05)
    }

    // MARK: caret-hidden

    func caretHidden(_ frame: LayoutFrame) -> [LintFinding] {
        guard let policy = policy.caret, let caret = frame.element("caret"), case .bool(true)? = caret["visible"],
            let field = frame.element(policy.container)
        else { return [] }
        var findings: [LintFinding] = []
        if let f = Self.outside(
            [caret.rect], of: field.rect, subject: "caret", container: policy.container,
            elements: ["caret", policy.container])
        {
            findings.append(
                LintFinding(
                    rule: .caretHidden, elements: ["caret", policy.container], detail: f.detail, rect: caret.rect,
                    amount: f.amount))
        }
        for (id, name) in policy.covers {
            guard let e = frame.element(id), Self.isShown(e), let covered = caret.rect.intersection(e.rect),
                covered.height > Self.slack, covered.width > 0
            else { continue }
            findings.append(
                LintFinding(
                    rule: .caretHidden, elements: ["caret", id],
                    detail: "caret is \(Self.points(covered.height)) under the \(name)",
                    rect: covered, amount: covered.height))
        }
        return findings
    }

    static func union(_ a: Rect, _ b: Rect) -> Rect {
        let x = min(a.minX, b.minX)
        let y = min(a.minY, b.minY)
        return Rect(x: x, y: y, width: max(a.maxX, b.maxX) - x, height: max(a.maxY, b.maxY) - y)
    }

    static func contains(_ r: Rect, _ p: Point) -> Bool {
        p.x >= r.minX && p.x <= r.maxX && p.y >= r.minY && p.y <= r.maxY
    }

    static func points(_ v: Double) -> String { JSONWriter.formatNumber(v, roundingTo: 0.1) + " pt" }
    static func ratio(_ v: Double) -> String { JSONWriter.formatNumber(v, roundingTo: 0.01) }
}
