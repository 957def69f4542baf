import Foundation

/// The composer's rules (docs/fixtures/composer.md, seeds 001 and 004).
///
/// The field sits at (margin, margin), as wide as the canvas less two margins, and grows downward
/// from 1 to `maxLines` lines (soft wraps counted, `lineSpacing` between lines, UITextView's insets:
/// 8 pt top and bottom, 5 pt each side); beyond that its content scrolls. The suggestion strip is
/// pinned to the keyboard's top (or to the bottom safe area while the keyboard is down), and the
/// keyboard slides with its own spring. Scroll offsets follow UIKit: `offset` is the content
/// offset, the content is the text plus its insets, the viewport is the field.
public struct ComposerRules: Sendable {
    public let composer: ComposerFixture
    public let canvas: Canvas
    public let device: Device
    /// `maxLines`, lowered when the canvas has no room for that many lines above the keyboard and
    /// the suggestion strip: the caret must never hide behind them (docs/fixtures/composer.md).
    public let maxLines: Int
    public let textSize: ContentSizeCategory
    /// Right to left, carets, selections and marked text are placed on the lines as the renderer
    /// right-aligns them (the frame itself is mirrored afterwards, `RightToLeft`).
    public let direction: LayoutDirection
    /// The drawn keyboard's geometry and fonts (the theme's).
    public var keyboardStyle: KeyboardStyle { theme.keyboard }
    /// Every visual token: the styles above, the text styles, the motion.
    public let theme: Theme
    /// The theme's geometry of the field, the caret and the suggestion strip.
    public let style: ComposerStyle

    public static let insetTop = TextViewInsets.top
    public static let insetBottom = TextViewInsets.bottom
    public static let insetSide = TextViewInsets.side
    /// Room kept around the caret when it is scrolled into view (docs/fixtures/composer.md).
    public static let caretRoomAbove = 12.0
    public static let caretRoomBelow = 18.0
    /// Suggestion chips: subheadline text (it follows the text size) in capsules.
    var chipFont: FontSpec { theme.font(.subheadline, at: textSize) }

    /// `composer.font` is already at `textSize` (a variant resizes the fixture's fonts).
    public init(
        composer: ComposerFixture, canvas: Canvas, device: Device, textSize: ContentSizeCategory = .large,
        direction: LayoutDirection = .ltr, theme: Theme = .default
    ) throws {
        self.theme = theme
        self.style = theme.composer
        let style = theme.composer
        self.composer = composer
        self.canvas = canvas
        self.device = device
        self.textSize = textSize
        self.direction = direction
        // The lowest the strip's top ever gets: with the keyboard up if it is ever shown.
        let keyboardEverShown = composer.keyboard || composer.steps.contains { $0.event == .keyboard(show: true) }
        let stripEverShown =
            !composer.suggestions.isEmpty || composer.steps.contains { !($0.suggestions ?? []).isEmpty }
        let bottom =
            canvas.height
            - (keyboardEverShown ? max(device.keyboardHeight, device.safeAreaBottom) : device.safeAreaBottom)
            - (stripEverShown ? style.stripHeight : 0) - style.stripGap
        let room = bottom - composer.margin - Self.insetTop - Self.insetBottom
        let font = composer.font
        guard room >= font.firstLineHeight else {
            let oneLine = font.firstLineHeight + Self.insetTop + Self.insetBottom
            throw LayoutError(
                path: "$.height",
                message: "the canvas is \(canvas.height.formatted2) pt tall: above the "
                    + (keyboardEverShown ? "keyboard (\(device.keyboardHeight.formatted2) pt)" : "bottom safe area")
                    + (stripEverShown ? " and the suggestion strip" : "")
                    + " there is no room for one line of the field (\(oneLine.formatted2) pt); make the canvas taller")
        }
        let fit =
            1 + Int(((room - font.firstLineHeight) / (font.lineAdvance + composer.lineSpacing) + 1e-9).rounded(.down))
        maxLines = max(1, min(composer.maxLines, fit))
    }

    public var fieldX: Double { composer.margin }
    public var fieldY: Double { composer.margin }
    public var fieldWidth: Double { max(canvas.width - 2 * composer.margin, 2 * Self.insetSide + 1) }
    public var textWidth: Double { fieldWidth - 2 * Self.insetSide }
    /// From one line's top to the next.
    var linePitch: Double { composer.font.lineAdvance + composer.lineSpacing }

    func textHeight(lines: Int) -> Double {
        LineMetrics.height(lines: lines, font: composer.font, lineSpacing: composer.lineSpacing)
    }

    func styled(_ string: String) -> StyledText {
        // Literal text: an input field shows asterisks as typed.
        StyledText(runs: [TextRun(string)], font: composer.font, width: textWidth)
    }

    /// A suggestion chip: its word, laid out once per state.
    struct Chip: Sendable {
        var text: StyledText
        var width: Double
    }

    /// Everything about one state that does not change between its frames. Rects are in the
    /// field's content coordinates: origin at the field's top-left, before scrolling.
    public struct Content: Sendable {
        public var editor: ComposerEditor
        public var enabled: Bool
        public var suggestions: [String]
        var chips: [Chip]
        var valueText: StyledText
        /// What is drawn: the value, or the placeholder in secondary colour.
        var shown: StyledText
        public var placeholder: String?
        public var shownLines: Int
        public var valueLines: Int
        public var caret: Rect
        public var selection: [Rect]
        public var marked: [Rect]
        public var fieldHeight: Double
        public var contentHeight: Double
        public var matched: Bool?
        public var maxOffset: Double { max(0, contentHeight - fieldHeight) }
    }

    public func content(
        _ editor: ComposerEditor, enabled: Bool, suggestions: [String], regex: NSRegularExpression?,
        measurer: some TextMeasuring
    ) throws -> Content {
        let value = editor.value
        let valueText = styled(value)
        let placeholder: String? =
            !enabled ? composer.disabledPlaceholder : (value.isEmpty ? composer.placeholder : nil)
        let shown = placeholder.map(styled) ?? valueText
        let shownLines = max(try measurer.measure(shown).lineCount, 1)
        let valueLines = placeholder == nil ? shownLines : max(try measurer.measure(valueText).lineCount, 1)

        let font = composer.font
        let valueLayout = direction == .rtl ? try measurer.measure(valueText).lines : []
        func box(line: Int, x: Double, width: Double, clamp: Bool = false) -> Rect {
            var x = x
            if direction == .rtl {
                // A line the measurer did not report (an empty last line) is empty, at the left.
                let measured = line < valueLayout.count ? valueLayout[line] : MeasuredLine(x: 0, width: 0)
                x =
                    RightToLeft.preMirrored(
                        Rect(x: x, y: 0, width: width, height: 0), line: measured, layoutWidth: textWidth
                    ).x
                // As UIKit keeps the caret inside the text container.
                if clamp { x = min(max(x, 0), max(textWidth - width, 0)) }
            }
            return Rect(
                x: Self.insetSide + x, y: Self.insetTop + Double(line) * linePitch, width: width,
                height: font.firstLineHeight)
        }
        let position = try measurer.caret(in: valueText, at: editor.caret)
        // UIKit keeps the caret inside the text container, even after a hanging trailing space.
        let caretX = min(max(position.x, 0), max(textWidth - style.caretWidth, 0))
        let caret = box(line: position.line, x: caretX, width: style.caretWidth, clamp: true)
        var selection: [Rect] = []
        var marked: [Rect] = []
        if placeholder == nil {
            if !editor.selection.isEmpty {
                selection = try measurer.spans(in: valueText, from: editor.selection.start, to: editor.selection.end)
                    .map { box(line: $0.line, x: $0.x, width: $0.width) }
            }
            if let m = editor.marked {
                marked = try measurer.spans(in: valueText, from: m.start, to: m.end).map {
                    box(line: $0.line, x: $0.x, width: $0.width)
                }
            }
        }
        let visibleSuggestions = enabled ? suggestions : []
        let chips = try visibleSuggestions.map { word -> Chip in
            let text = StyledText(runs: [TextRun(word)], font: chipFont, width: nil)
            return Chip(text: text, width: try measurer.measure(text).maxLineWidth)
        }
        var matched: Bool?
        if let regex {
            let ns = value as NSString
            matched = regex.firstMatch(in: value, options: [], range: NSRange(location: 0, length: ns.length)) != nil
        }
        let insets = Self.insetTop + Self.insetBottom
        return Content(
            editor: editor, enabled: enabled, suggestions: suggestions, chips: chips, valueText: valueText,
            shown: shown, placeholder: placeholder, shownLines: shownLines, valueLines: valueLines, caret: caret,
            selection: selection, marked: marked,
            fieldHeight: textHeight(lines: min(shownLines, maxLines)) + insets,
            contentHeight: textHeight(lines: shownLines) + insets, matched: matched)
    }

    /// The pattern anchored to the whole text. Patterns that cannot be wrapped (a trailing `\\Q`,
    /// an extended-mode comment) are rejected when decoding, at `$.pattern`.
    static func wholeMatch(_ pattern: String) -> String { "\\A(?:" + pattern + ")\\z" }

    /// `scrollRectToVisible` of the caret grown by 12 pt above and 18 below: the minimum scroll,
    /// none when it is already in view. A padded rect taller than the field (a one-line field)
    /// shows the caret itself. Clamped to the content, like UIKit.
    public static func scrollToShow(caret: Rect, offset: Double, viewport: Double, maxOffset: Double) -> Double {
        let padded = (top: caret.minY - caretRoomAbove, bottom: caret.maxY + caretRoomBelow)
        let target = padded.bottom - padded.top <= viewport ? padded : (top: caret.minY, bottom: caret.maxY)
        var o = offset
        if target.top < o {
            o = target.top
        } else if target.bottom > o + viewport {
            o = target.bottom - viewport
        }
        return min(max(o, 0), maxOffset)
    }

    /// One state as its step left it.
    struct StateInfo {
        var name: String
        var content: Content
        var offset: Double
        var following: Bool
        var note: String?
        var keyboardFrom: Double
        var keyboardTo: Double
    }

    public func states(fps: Double, palette: Palette, measurer: some TextMeasuring) throws -> [StateLayout] {
        let keyLabels = try Keyboard.Labels(measurer: measurer, style: keyboardStyle)
        // Whole-text match, as the seed's `SELF MATCHES` does; checked when decoding.
        let regex = try composer.pattern.map { try NSRegularExpression(pattern: Self.wholeMatch($0)) }
        var editor = ComposerEditor(text: composer.text, selection: composer.selection)
        var enabled = composer.enabled
        var suggestions = composer.suggestions
        var content = try self.content(
            editor, enabled: enabled, suggestions: suggestions, regex: regex, measurer: measurer)
        // The field opens focused: scrolled the least that shows the caret. A field that opens
        // disabled keeps that scroll for its text, shown once it is enabled.
        let opening =
            composer.enabled
            ? content
            : try self.content(editor, enabled: true, suggestions: suggestions, regex: regex, measurer: measurer)
        var offset = Self.scrollToShow(
            caret: opening.caret, offset: 0, viewport: opening.fieldHeight, maxOffset: opening.maxOffset)
        var following = true
        let keyboardHeight = max(device.keyboardHeight, 0)
        var keyboard = AnimatedValue(composer.keyboard ? keyboardHeight : 0)

        func shownOffset(_ c: Content) -> Double { c.placeholder == nil ? offset : 0 }
        var infos = [
            StateInfo(
                name: "initial", content: content, offset: shownOffset(content), following: following, note: nil,
                keyboardFrom: keyboard.target, keyboardTo: keyboard.target)
        ]
        var schedules = [Timeline.Schedule(start: 0, settle: 0)]
        var snapshots = [keyboard]

        for (i, step) in composer.steps.enumerated() {
            let start = Timeline.stepStart(
                after: schedules[schedules.count - 1], at: step.at, running: keyboard.endTime)
            let keyboardFrom = keyboard.value(at: start)
            var note: String?
            var editing = false
            let disabledNote = "\(step.event.name) ignored: the field is disabled"
            switch step.event {
            case .type(let text):
                if enabled {
                    editor.type(text)
                    editing = true
                } else {
                    note = disabledNote
                }
            case .insertSuggestion(let word):
                if !enabled {
                    note = disabledNote
                } else if case .ignored(let why) = editor.insertSuggestion(word) {
                    note = why
                } else {
                    editing = true
                }
            case .select(let s, let e):
                guard e <= editor.count else {
                    throw LayoutError(
                        path: "$.steps[\(i)].select",
                        message:
                            "the selection [\(s), \(e)] ends past the text, which has \(Plural.count(editor.count, "character")) at this step"
                    )
                }
                if enabled {
                    editor.select(s, e)
                    editing = true
                } else {
                    note = disabledNote
                }
            case .compose(let text):
                if enabled {
                    editor.compose(text)
                    editing = true
                } else {
                    note = disabledNote
                }
            case .commit:
                if !enabled {
                    note = disabledNote
                } else if case .ignored(let why) = editor.commit() {
                    note = "commit ignored: " + why
                } else {
                    editing = true
                }
            case .scrollBy(let dy):
                if enabled {
                    // A drag moves the content at once and is kept until the next editing step.
                    offset = min(max(offset + dy, 0), content.placeholder == nil ? content.maxOffset : 0)
                    following = false
                } else {
                    note = disabledNote
                }
            case .enable(let on):
                enabled = on
            case .keyboard(let show):
                keyboard.set(
                    show ? keyboardHeight : 0, at: start, curve: .spring(theme.motion.keyboard),
                    pixelsPerPoint: canvas.scale)
                // Showing the keyboard is the user tapping into the field: the caret comes back.
                if show && enabled { editing = true }
            }
            if let words = step.suggestions { suggestions = words }
            content = try self.content(
                editor, enabled: enabled, suggestions: suggestions, regex: regex, measurer: measurer)
            if content.placeholder == nil {
                if editing {
                    offset = Self.scrollToShow(
                        caret: content.caret, offset: offset, viewport: content.fieldHeight,
                        maxOffset: content.maxOffset)
                    following = true
                }
                offset = min(max(offset, 0), content.maxOffset)
            }
            let settle = max(start, keyboard.endTime)
            schedules.append(Timeline.Schedule(start: start, settle: settle))
            snapshots.append(keyboard)
            infos.append(
                StateInfo(
                    name: StateNaming.name(index: i + 1, event: step.event.name), content: content,
                    offset: shownOffset(content), following: following, note: note,
                    keyboardFrom: keyboardFrom, keyboardTo: keyboard.target))
        }

        let samples = try Timeline.checkedSamples(schedules: schedules, fps: fps)
        return Timeline.placingOnTimeline(
            schedules,
            infos.indices.map { i in
                let info = infos[i]
                return StateLayout(
                    name: info.name,
                    frames: samples[i].map { s in
                        let k = snapshots[i].value(at: s.absolute)
                        let span = info.keyboardTo - info.keyboardFrom
                        let progress = abs(span) < 1e-9 ? 1 : min(max((k - info.keyboardFrom) / span, 0), 1)
                        return frame(
                            index: s.index, time: s.time, progress: progress, state: info, keyboard: k,
                            palette: palette,
                            keyLabels: keyLabels)
                    }, note: info.note)
            })
    }

    func frame(
        index: Int, time: Double, progress: Double, state: StateInfo, keyboard: Double, palette: Palette,
        keyLabels: Keyboard.Labels
    ) -> LayoutFrame {
        let c = state.content
        let field = Rect(x: fieldX, y: fieldY, width: fieldWidth, height: c.fieldHeight)
        let offset = state.offset
        func place(_ r: Rect) -> Rect { r.offsetBy(dx: field.x, dy: field.y - offset) }
        let textOrigin = Point(x: field.x + Self.insetSide, y: field.y + Self.insetTop - offset)
        let caret = place(c.caret)
        let caretShown = c.enabled && c.editor.selection.isEmpty
        let unmatched = c.matched == false && !c.editor.value.isEmpty

        var ops: [DrawOp] = [.fill(palette.canvas)]
        let radius = composer.border ? style.borderRadius : 0
        ops.append(.roundedRect(field, cornerRadius: radius, fill: palette.field, continuous: true))
        for span in c.marked {
            if let r = place(span).intersection(field) {
                ops.append(.roundedRect(r, cornerRadius: 0, fill: palette.accent.opacity(0.15), continuous: false))
            }
        }
        for span in c.selection {
            if let r = place(span).intersection(field) {
                ops.append(.roundedRect(r, cornerRadius: 0, fill: palette.accent.opacity(0.25), continuous: false))
            }
        }
        let boxes = LineMetrics.boxes(lines: c.shownLines, font: composer.font, lineSpacing: composer.lineSpacing)
        ops.append(
            .text(
                TextDraw(
                    text: c.shown, origin: textOrigin, baselines: boxes.baselines,
                    color: c.placeholder == nil ? palette.text : palette.secondary, clip: field,
                    element: c.placeholder == nil ? "text" : "placeholder")))
        if caretShown, let r = caret.intersection(field) {
            ops.append(.roundedRect(r, cornerRadius: 1, fill: palette.accent, continuous: false))
        }
        if composer.border {
            ops.append(
                .strokeRoundedRect(
                    field, cornerRadius: radius, color: unmatched ? palette.red : palette.gray, lineWidth: 1,
                    continuous: true))
        }

        // The strip rides on the keyboard's top, or on the safe area while the keyboard is down.
        let strip = Rect(
            x: 0, y: canvas.height - max(keyboard, device.safeAreaBottom) - style.stripHeight, width: canvas.width,
            height: style.stripHeight)
        let stripShown = !c.chips.isEmpty
        if stripShown {
            ops.append(.roundedRect(strip, cornerRadius: 0, fill: palette.keyboard, continuous: false))
            var x = composer.margin
            let top = strip.y + (style.stripHeight - style.chipHeight) / 2
            let chipLine = LineMetrics.boxes(lines: 1, font: chipFont)
            for chip in c.chips where x < canvas.width {
                let width = chip.width + 2 * style.chipPadding
                ops.append(
                    .roundedRect(
                        Rect(x: x, y: top, width: width, height: style.chipHeight), cornerRadius: style.chipHeight / 2,
                        fill: palette.chip, continuous: true))
                ops.append(
                    .text(
                        TextDraw(
                            text: chip.text,
                            origin: Point(x: x + style.chipPadding, y: top + (style.chipHeight - chipLine.height) / 2),
                            baselines: chipLine.baselines, color: palette.text, clip: strip, element: "suggestions")))
                x += width + style.chipSpacing
            }
        }
        let keys = Keyboard.layout(
            canvas: canvas, device: device, shown: keyboard, palette: palette, style: keyboardStyle,
            direction: direction,
            labels: keyLabels)
        ops.append(contentsOf: keys.ops)

        var fieldAttributes: [(key: String, value: LayoutValue)] = [
            ("enabled", .bool(c.enabled)), ("maxLines", .int(maxLines)),
        ]
        if let matched = c.matched { fieldAttributes.append(("matched", .bool(matched))) }
        var elements = [
            LayoutElement(id: "field", rect: field, attributes: fieldAttributes),
            LayoutElement(
                id: "text",
                rect: Rect(x: textOrigin.x, y: textOrigin.y, width: textWidth, height: textHeight(lines: c.valueLines)),
                attributes: [
                    ("value", .string(c.editor.value)), ("selection", .ints(c.editor.selection.ints)),
                    ("marked", c.editor.marked.map { .ints($0.ints) } ?? .null), ("lines", .int(c.valueLines)),
                ]),
            LayoutElement(
                id: "caret", rect: caret,
                attributes: [
                    ("visible", .bool(caretShown)),
                    ("inView", .bool(caret.minY >= field.minY - 1e-9 && caret.maxY <= field.maxY + 1e-9)),
                ]),
        ]
        if let placeholder = c.placeholder {
            let lines = c.shownLines
            elements.append(
                LayoutElement(
                    id: "placeholder",
                    rect: Rect(
                        x: field.x + Self.insetSide, y: field.y + Self.insetTop, width: textWidth,
                        height: textHeight(lines: lines)),
                    attributes: [("text", .string(placeholder)), ("disabled", .bool(!c.enabled))]))
        }
        elements.append(
            LayoutElement(
                id: "suggestions", rect: strip,
                attributes: [("visible", .bool(stripShown)), ("words", .strings(c.enabled ? c.suggestions : []))]))
        elements.append(keys.element)
        return LayoutFrame(
            index: index, time: time, progress: progress, elements: elements,
            scroll: ScrollInfo(
                offset: offset, contentHeight: c.contentHeight, viewportHeight: c.fieldHeight,
                following: state.following),
            drawList: ops)
    }
}

extension Double {
    /// 2 decimals, for messages.
    var formatted2: String {
        let r = (self * 100).rounded() / 100
        return r == r.rounded() ? String(Int(r)) : String(r)
    }
}
