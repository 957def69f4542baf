/// The chat's rules (docs/fixtures/chat.md): iOS 17's `defaultScrollAnchor(.bottom)`.
///
/// Top to bottom: the safe area, the offline banner (32 pt) when offline, the message list, the
/// input bar, the keyboard or the bottom safe area. The list's content is a stack (spacing 8,
/// padding 12 x 8) of bubbles, the status row and a 20 pt spacer. Offsets are measured from the top
/// of the content; content shorter than the viewport sits at the bottom, so its offset is negative
/// (content height - viewport height), which is also where "the bottom" always is.
public struct ChatRules: Sendable {
    public let chat: ChatFixture
    public let canvas: Canvas
    public let device: Device

    /// The theme's geometry of the chat (docs/fixtures/chat.md).
    public let style: ChatStyle
    /// The bubbles' text and the input field are body, the status row subheadline, the offline
    /// banner footnote: all follow the text size.
    var inputFont: FontSpec { theme.font(.body, at: textSize) }
    var statusFont: FontSpec { theme.font(.subheadline, at: textSize) }
    var textFont: FontSpec { theme.font(.body, at: textSize) }
    var bannerFont: FontSpec { theme.font(.footnote, at: textSize) }
    /// Following is re-engaged within this distance of the bottom (docs/fixtures/chat.md).
    public static let followSlack = 1.0

    public let textSize: ContentSizeCategory
    /// Only the keyboard reads it (it is drawn pre-mirrored); the frame is mirrored as a whole.
    public let direction: LayoutDirection
    /// The drawn keyboard's geometry and fonts (the theme's).
    public var keyboardStyle: KeyboardStyle { theme.keyboard }
    /// Every visual token: the style above, the text styles, the motion.
    public let theme: Theme

    public init(
        chat: ChatFixture, canvas: Canvas, device: Device, textSize: ContentSizeCategory = .large,
        direction: LayoutDirection = .ltr, theme: Theme = .default
    ) {
        self.theme = theme
        self.style = theme.chat
        self.chat = chat
        self.canvas = canvas
        self.device = device
        self.textSize = textSize
        self.direction = direction
    }

    public var bubbleMaxWidth: Double {
        max((canvas.width - 2 * style.listPaddingH) * style.bubbleFraction, 2 * style.bubblePaddingH + 1)
    }
    var bubbleTextWidth: Double { bubbleMaxWidth - 2 * style.bubblePaddingH }
    /// A picture without pixels (the fixture gives its aspect ratio only): a neutral gradient
    /// filling `image`, cut to the bubble's rounded shape, with SF Symbol `photo`'s outline (a
    /// frame, hills and a sun, 30 x 24 pt) centred on it when there is room for it.
    func imagePlaceholder(_ image: Rect, bubble: Rect, palette: Palette) -> [DrawOp] {
        var ops: [DrawOp] = [
            .gradient(
                image, top: palette.placeholderTop, bottom: palette.placeholderBottom, clip: bubble,
                cornerRadius: style.bubbleRadius)
        ]
        guard image.width >= 48, image.height >= 48 else { return ops }
        let cx = image.x + image.width / 2
        let cy = image.y + image.height / 2
        func p(_ x: Double, _ y: Double) -> Point { Point(x: cx + x, y: cy + y) }
        ops.append(
            .strokeRoundedRect(
                Rect(x: cx - 15, y: cy - 12, width: 30, height: 24), cornerRadius: 4, color: palette.gray,
                lineWidth: 1.5, continuous: true))
        ops.append(
            .strokeLines([[p(-11, 8), p(-3, -1), p(3, 5), p(6, 2), p(11, 8)]], color: palette.gray, lineWidth: 1.5))
        ops.append(
            .roundedRect(
                Rect(x: cx + 4, y: cy - 8, width: 5, height: 5), cornerRadius: 2.5, fill: palette.gray,
                continuous: false))
        return ops
    }

    /// The send button as iOS draws it (SF Symbol arrow.up.circle.fill): a filled circle, the
    /// accent colour with a draft and systemGray3 without one, and a white up-arrow drawn as a
    /// path: a shaft half the circle tall and a chevron head, stroked 3 pt with round ends.
    static func sendButton(_ rect: Rect, enabled: Bool, palette: Palette) -> [DrawOp] {
        let cx = rect.x + rect.width / 2
        let cy = rect.y + rect.height / 2
        let d = rect.width
        let top = Point(x: cx, y: cy - 0.25 * d)
        return [
            .roundedRect(
                rect, cornerRadius: d / 2, fill: enabled ? palette.accent : palette.sendDisabled, continuous: false),
            .strokeLines(
                [
                    [Point(x: cx, y: cy + 0.25 * d), top],
                    [Point(x: cx - 0.22 * d, y: cy - 0.03 * d), top, Point(x: cx + 0.22 * d, y: cy - 0.03 * d)],
                ], color: palette.onAccent, lineWidth: 0.094 * d),
        ]
    }

    var fieldWidth: Double { max(canvas.width - 2 * style.barPadding - style.sendSize - style.barPadding, 11) }

    /// A message as laid out once: its bubble's size and where its text sits inside.
    public struct Bubble: Sendable {
        public var width: Double
        public var height: Double
        var text: StyledText?
        public var lines: Int
        /// The leftmost line's x in the text layout (right-to-left lines are pushed right).
        var textMinX: Double
        var imageHeight: Double
    }

    func bubble(_ m: ChatMessage, measurer: some TextMeasuring) throws -> Bubble {
        var width = 0.0
        var height = 0.0
        var lines = 0
        var minX = 0.0
        var imageHeight = 0.0
        var text: StyledText?
        if let ratio = m.imageAspectRatio {
            // The picture is the bubble's full width, with no padding around it (iOS Messages).
            imageHeight = bubbleMaxWidth / ratio
            width = bubbleMaxWidth
            height = imageHeight
        }
        if !m.text.isEmpty {
            let styled = StyledText(markup: m.text, font: textFont, width: bubbleTextWidth)
            let measured = try measurer.measure(styled)
            lines = max(measured.lineCount, 1)
            minX = measured.lines.map(\.x).min() ?? 0
            width = max(width, min(measured.maxLineWidth - minX + 2 * style.bubblePaddingH, bubbleMaxWidth))
            height += LineMetrics.height(lines: lines, font: textFont) + 2 * style.bubblePaddingV
            text = styled
        }
        if m.imageAspectRatio == nil && m.text.isEmpty {
            // An empty message still shows an empty bubble one line tall.
            width = 2 * style.bubblePaddingH
            height = LineMetrics.height(lines: 1, font: textFont) + 2 * style.bubblePaddingV
        }
        return Bubble(width: width, height: height, text: text, lines: lines, textMinX: minX, imageHeight: imageHeight)
    }

    /// One state's content: the messages stacked, the status row, the input bar's draft.
    public struct Content: Sendable {
        public var messages: [ChatMessage]
        public var bubbles: [Bubble]
        /// Top of each bubble in content coordinates.
        public var tops: [Double]
        public var status: ChatStatus
        public var statusTop: Double?
        var statusText: StyledText
        var statusTextWidth: Double
        public var contentHeight: Double
        public var online: Bool
        public var input: String
        var inputText: StyledText
        public var inputLines: Int
        public var fieldHeight: Double
    }

    /// The input bar: the field with the bar's padding above and below it.
    func barHeight(_ c: Content) -> Double { c.fieldHeight + 2 * style.barPadding }

    func content(
        messages: [ChatMessage], bubbles: [Bubble], status: ChatStatus, online: Bool, input: String,
        measurer: some TextMeasuring
    ) throws -> Content {
        var tops: [Double] = []
        tops.reserveCapacity(bubbles.count)
        var y = style.listPaddingV
        for b in bubbles {
            tops.append(y)
            y += b.height + style.spacing
        }
        var statusTop: Double?
        if status != .idle {
            statusTop = y
            y += statusFont.firstLineHeight + style.spacing
        }
        let contentHeight = y + style.endSpacer + style.listPaddingV
        let statusText = StyledText(runs: [TextRun("Thinking")], font: statusFont, width: nil)
        let statusTextWidth = status == .idle ? 0 : try measurer.measure(statusText).maxLineWidth
        let inputText = StyledText(
            runs: [TextRun(input.isEmpty ? "Message" : input)], font: inputFont,
            width: fieldWidth - 2 * TextViewInsets.side)
        let inputLines = max(try measurer.measure(inputText).lineCount, 1)
        let fieldHeight =
            LineMetrics.height(
                lines: min(inputLines, style.inputMaxLines), font: inputFont, lineSpacing: style.inputLineSpacing)
            + TextViewInsets.top + TextViewInsets.bottom
        return Content(
            messages: messages, bubbles: bubbles, tops: tops, status: status, statusTop: statusTop,
            statusText: statusText, statusTextWidth: statusTextWidth, contentHeight: contentHeight, online: online,
            input: input, inputText: inputText,
            inputLines: inputLines, fieldHeight: fieldHeight)
    }

    public func listTop(_ c: Content) -> Double { device.safeAreaTop + (c.online ? 0 : style.bannerHeight) }
    public func barTop(_ c: Content, keyboard: Double) -> Double {
        canvas.height - max(keyboard, device.safeAreaBottom) - barHeight(c)
    }
    public func viewport(_ c: Content, keyboard: Double) -> Double {
        max(0, barTop(c, keyboard: keyboard) - listTop(c))
    }
    /// The offset that shows the end of the content at the viewport's bottom.
    public func bottom(_ c: Content, keyboard: Double) -> Double { c.contentHeight - viewport(c, keyboard: keyboard) }

    enum Mode: Sendable { case pinned, free }

    /// One state as its step left it.
    struct StateInfo {
        var name: String
        var content: Content
        var mode: Mode
        var following: Bool
        var unseen: Int
        var keyboardStep: Bool
    }

    public func states(fps: Double, palette: Palette, measurer: some TextMeasuring) throws -> [StateLayout] {
        let keyLabels = try Keyboard.Labels(measurer: measurer, style: keyboardStyle)
        // Each distinct message is laid out once for the whole fixture.
        var cache: [ChatMessage: Bubble] = [:]
        func bubble(_ m: ChatMessage) throws -> Bubble {
            if let b = cache[m] { return b }
            let b = try self.bubble(m, measurer: measurer)
            cache[m] = b
            return b
        }
        var messages = chat.messages
        var bubbles = try messages.map(bubble)
        var status = chat.status
        var online = chat.online
        var input = chat.input
        var content = try self.content(
            messages: messages, bubbles: bubbles, status: status, online: online, input: input, measurer: measurer)
        let keyboardHeight = device.keyboardHeight
        var keyboard = AnimatedValue(chat.keyboard ? keyboardHeight : 0)
        // It opens at the absolute bottom, following.
        var scroll = AnimatedValue(bottom(content, keyboard: keyboard.target))
        var mode = Mode.pinned
        var following = true
        var unseen = 0

        var infos = [
            StateInfo(name: "initial", content: content, mode: mode, following: true, unseen: 0, keyboardStep: false)
        ]
        var schedules = [Timeline.Schedule(start: 0, settle: 0)]
        var keyboards = [keyboard]
        var scrolls = [scroll]

        for (i, step) in chat.steps.enumerated() {
            let start = Timeline.stepStart(
                after: schedules[schedules.count - 1], at: step.at, running: max(keyboard.endTime, scroll.endTime))
            let shown = offset(
                content: content, mode: mode, scroll: scroll, keyboard: keyboard.value(at: start), at: start)
            // A scroll to the bottom that has finished pins the view again.
            if mode == .free && following && scroll.endTime <= start { mode = .pinned }
            var scrollsToBottom = false
            var drag: Double?
            switch step.event {
            case .open:
                mode = .pinned
                following = true
                unseen = 0
            case .receive(let m):
                messages.append(m)
                bubbles.append(try bubble(m))
                if !following { unseen += 1 }
            case .send(let text):
                var id = "\(messages.count + 1)"
                while messages.contains(where: { $0.id == id }) { id += "'" }
                let m = ChatMessage(id: id, role: .user, text: text)
                messages.append(m)
                bubbles.append(try bubble(m))
                input = ""
                scrollsToBottom = true
            case .stream(let more):
                guard let last = messages.indices.last else {
                    throw LayoutError(
                        path: "$.steps[\(i)].stream", message: "there is no message to stream into; receive one first")
                }
                messages[last].text += more
                bubbles[last] = try bubble(messages[last])
            case .status(let s):
                status = s
            case .scrollBy(let dy):
                drag = dy
            case .scrollToBottom:
                scrollsToBottom = true
            case .keyboard(let show):
                keyboard.set(
                    show ? keyboardHeight : 0, at: start, curve: .spring(theme.motion.keyboard),
                    pixelsPerPoint: canvas.scale)
            case .online(let on):
                online = on
            }
            content = try self.content(
                messages: messages, bubbles: bubbles, status: status, online: online, input: input, measurer: measurer)
            let finalBottom = bottom(content, keyboard: keyboard.target)
            if let dy = drag {
                // A finger: immediate, clamped to the content where the keyboard is now.
                let b = bottom(content, keyboard: keyboard.value(at: start))
                let target = min(max(shown + dy, min(0, b)), b)
                scroll.jump(to: target, at: start)
                following = target >= b - Self.followSlack
                mode = following ? .pinned : .free
                if following { unseen = 0 }
            } else if scrollsToBottom && mode != .pinned {
                // From where the content shows now, with the default spring, to the bottom.
                scroll.jump(to: shown, at: start)
                scroll.set(finalBottom, at: start, curve: .spring(theme.motion.scroll), pixelsPerPoint: canvas.scale)
                mode = .free
                following = true
                unseen = 0
            } else if mode == .free && following && scroll.target != finalBottom {
                // Still on its way down: the bottom moved, so does the target (added on top).
                scroll.set(finalBottom, at: start, curve: .spring(theme.motion.scroll), pixelsPerPoint: canvas.scale)
            } else if mode == .free && !following {
                // The offset holds; a viewport that grew past the content's end clamps it.
                let held = min(max(shown, min(0, finalBottom)), finalBottom)
                if held != shown { scroll.jump(to: held, at: start) }
            }
            let settle = max(start, keyboard.endTime, mode == .free ? scroll.endTime : start)
            schedules.append(Timeline.Schedule(start: start, settle: settle))
            keyboards.append(keyboard)
            scrolls.append(scroll)
            var isKeyboard = false
            if case .keyboard = step.event { isKeyboard = true }
            infos.append(
                StateInfo(
                    name: StateNaming.name(index: i + 1, event: step.event.name), content: content, mode: mode,
                    following: following, unseen: unseen, keyboardStep: isKeyboard))
        }

        let samples = try Timeline.checkedSamples(schedules: schedules, fps: fps)
        return Timeline.placingOnTimeline(
            schedules,
            infos.indices.map { i in
                let info = infos[i]
                let start = schedules[i].start
                let k0 = keyboards[i].value(at: start)
                let k1 = keyboards[i].target
                let o0 = offset(content: info.content, mode: info.mode, scroll: scrolls[i], keyboard: k0, at: start)
                let o1 = offset(content: info.content, mode: info.mode, scroll: scrolls[i], keyboard: k1, at: .infinity)
                return StateLayout(
                    name: info.name,
                    frames: samples[i].map { s in
                        let k = keyboards[i].value(at: s.absolute)
                        let o = offset(
                            content: info.content, mode: info.mode, scroll: scrolls[i], keyboard: k, at: s.absolute)
                        let progress: Double
                        if info.keyboardStep {
                            progress = abs(k1 - k0) < 1e-9 ? 1 : min(max((k - k0) / (k1 - k0), 0), 1)
                        } else {
                            progress = abs(o1 - o0) < 1e-9 ? 1 : min(max((o - o0) / (o1 - o0), 0), 1)
                        }
                        return frame(
                            index: s.index, time: s.time, progress: progress, state: info, offset: o, keyboard: k,
                            palette: palette, keyLabels: keyLabels)
                    })
            })
    }

    func offset(content c: Content, mode: Mode, scroll: AnimatedValue, keyboard: Double, at time: Double) -> Double {
        let b = bottom(c, keyboard: keyboard)
        switch mode {
        case .pinned: return b
        case .free: return min(max(time.isInfinite ? scroll.target : scroll.value(at: time), min(0, b)), b)
        }
    }

    func frame(
        index: Int, time: Double, progress: Double, state: StateInfo, offset: Double, keyboard: Double,
        palette: Palette,
        keyLabels: Keyboard.Labels
    ) -> LayoutFrame {
        let c = state.content
        let top = listTop(c)
        let list = Rect(x: 0, y: top, width: canvas.width, height: viewport(c, keyboard: keyboard))
        let origin = top - offset
        var ops: [DrawOp] = [.fill(palette.canvas)]
        var elements: [LayoutElement] = []

        // Only the bubbles that intersect the viewport are drawn and reported.
        let visible = visibleRange(c, from: offset, to: offset + list.height)
        var messageElements: [LayoutElement] = []
        for i in visible {
            let m = c.messages[i]
            let b = c.bubbles[i]
            let x = m.role == .user ? canvas.width - style.listPaddingH - b.width : style.listPaddingH
            let rect = Rect(x: x, y: origin + c.tops[i], width: b.width, height: b.height)
            let fill = m.role == .user ? palette.accent : palette.bubbleGray
            if b.imageHeight == 0 {
                ops.append(.roundedRect(rect, cornerRadius: style.bubbleRadius, fill: fill, continuous: true))
            } else {
                // No fill shows around a picture: a picture alone is its own bubble, and a text
                // under it is filled from 1 pt under the picture's bottom edge down, cut to the
                // bubble's shape, so no colour fringes the picture's corners.
                if b.text != nil {
                    let under = b.imageHeight - 1
                    ops.append(
                        .gradient(
                            Rect(x: rect.x, y: rect.y + under, width: rect.width, height: rect.height - under),
                            top: fill, bottom: fill, clip: rect, cornerRadius: style.bubbleRadius))
                }
                let image = Rect(x: rect.x, y: rect.y, width: rect.width, height: b.imageHeight)
                if let path = m.image?.path {
                    ops.append(.picture(.file(path), image, clip: rect, cornerRadius: style.bubbleRadius))
                } else {
                    ops += imagePlaceholder(image, bubble: rect, palette: palette)
                }
            }
            let textTop = rect.y + b.imageHeight + style.bubblePaddingV
            if let text = b.text {
                let boxes = LineMetrics.boxes(lines: b.lines, font: textFont)
                // The text's frame is the bubble's content, narrower than its layout width.
                ops.append(
                    .text(
                        TextDraw(
                            text: text, origin: Point(x: rect.x + style.bubblePaddingH - b.textMinX, y: textTop),
                            baselines: boxes.baselines, color: m.role == .user ? palette.onAccent : palette.text,
                            clip: list,
                            leadingX: rect.x + style.bubblePaddingH, element: "message:\(m.id)")))
            }
            messageElements.append(
                LayoutElement(
                    id: "message:\(m.id)", rect: rect,
                    attributes: [
                        ("role", .string(m.role.rawValue)), ("lines", .int(b.lines)),
                    ]))
        }
        var statusElement: LayoutElement?
        if let statusTop = c.statusTop {
            // "Thinking" and three 6 pt dots, 4 pt apart, 4 pt in from the list's padding (the
            // seed's `.padding(.horizontal, 4)`).
            let height = statusFont.firstLineHeight
            let x = style.listPaddingH + 4
            let y = origin + statusTop
            ops.append(
                .text(
                    TextDraw(
                        text: c.statusText, origin: Point(x: x, y: y),
                        baselines: LineMetrics.boxes(lines: 1, font: statusFont).baselines,
                        color: palette.secondary, clip: list, element: "status")))
            let dotsX = x + c.statusTextWidth + 6
            for d in 0..<3 {
                let dot = Rect(x: dotsX + Double(d) * 10, y: y + height / 2 - 3, width: 6, height: 6)
                if dot.intersects(list) {
                    ops.append(.roundedRect(dot, cornerRadius: 3, fill: palette.secondary, continuous: false))
                }
            }
            statusElement = LayoutElement(
                id: "status", rect: Rect(x: x, y: y, width: c.statusTextWidth + 6 + 26, height: height),
                attributes: [("state", .string(c.status.rawValue))])
        }

        // What lies outside the list covers whatever scrolled past its edges.
        ops.append(
            .roundedRect(
                Rect(x: 0, y: 0, width: canvas.width, height: top), cornerRadius: 0, fill: palette.canvas,
                continuous: false))
        if !c.online {
            let banner = Rect(x: 0, y: device.safeAreaTop, width: canvas.width, height: style.bannerHeight)
            ops.append(.roundedRect(banner, cornerRadius: 0, fill: palette.bubbleGray, continuous: false))
            let label = StyledText(runs: [TextRun("Offline")], font: bannerFont, width: canvas.width)
            let line = LineMetrics.boxes(lines: 1, font: bannerFont)
            ops.append(
                .text(
                    TextDraw(
                        text: label,
                        origin: Point(x: style.listPaddingH, y: banner.y + (style.bannerHeight - line.height) / 2),
                        baselines: line.baselines, color: palette.secondary, clip: banner, element: "banner")))
            elements.append(LayoutElement(id: "banner", rect: banner))
        }
        elements.append(
            LayoutElement(
                id: "list", rect: list,
                attributes: [("unseen", .int(state.unseen)), ("messages", .int(c.messages.count))]))
        elements.append(contentsOf: messageElements)
        if let statusElement { elements.append(statusElement) }

        // The input bar, riding on the keyboard or the bottom safe area.
        let barTop = barTop(c, keyboard: keyboard)
        let bar = Rect(x: 0, y: barTop, width: canvas.width, height: barHeight(c))
        ops.append(
            .roundedRect(
                Rect(x: 0, y: barTop, width: canvas.width, height: canvas.height - barTop), cornerRadius: 0,
                fill: palette.canvas, continuous: false))
        ops.append(
            .roundedRect(
                Rect(x: 0, y: barTop, width: canvas.width, height: 0.5), cornerRadius: 0, fill: palette.separator,
                continuous: false))
        let field = Rect(x: style.barPadding, y: barTop + style.barPadding, width: fieldWidth, height: c.fieldHeight)
        ops.append(.roundedRect(field, cornerRadius: style.bubbleRadius, fill: palette.field, continuous: true))
        ops.append(
            .strokeRoundedRect(
                field, cornerRadius: style.bubbleRadius, color: palette.gray.opacity(0.5), lineWidth: 1,
                continuous: true
            ))
        let inputBoxes = LineMetrics.boxes(lines: c.inputLines, font: inputFont, lineSpacing: style.inputLineSpacing)
        ops.append(
            .text(
                TextDraw(
                    text: c.inputText, origin: Point(x: field.x + TextViewInsets.side, y: field.y + TextViewInsets.top),
                    baselines: inputBoxes.baselines, color: c.input.isEmpty ? palette.secondary : palette.text,
                    clip: field,
                    element: "input")))
        let send = Rect(
            x: field.maxX + style.barPadding,
            y: field.maxY - (LineMetrics.height(lines: 1, font: inputFont) + 16 + style.sendSize) / 2,
            width: style.sendSize, height: style.sendSize)
        ops += Self.sendButton(send, enabled: !c.input.isEmpty, palette: palette)
        elements.append(LayoutElement(id: "send", rect: send, attributes: [("enabled", .bool(!c.input.isEmpty))]))
        elements.append(
            LayoutElement(
                id: "input", rect: bar,
                attributes: [("lines", .int(c.input.isEmpty ? 1 : c.inputLines)), ("value", .string(c.input))]))

        let keys = Keyboard.layout(
            canvas: canvas, device: device, shown: keyboard, palette: palette, style: keyboardStyle,
            direction: direction,
            labels: keyLabels)
        ops.append(contentsOf: keys.ops)
        elements.append(keys.element)

        return LayoutFrame(
            index: index, time: time, progress: progress, elements: elements,
            scroll: ScrollInfo(
                offset: offset, contentHeight: c.contentHeight, viewportHeight: list.height, following: state.following),
            drawList: ops)
    }

    /// The messages whose bubbles meet [top, bottom) of the content: a binary search, so a frame
    /// of a 5,000-message chat costs what a frame of a short one does.
    func visibleRange(_ c: Content, from top: Double, to bottom: Double) -> Range<Int> {
        let tops = c.tops
        // First bubble whose bottom is below `top`.
        var lo = 0
        var hi = tops.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if tops[mid] + c.bubbles[mid].height <= top { lo = mid + 1 } else { hi = mid }
        }
        var end = lo
        while end < tops.count && tops[end] < bottom { end += 1 }
        return lo..<end
    }
}
