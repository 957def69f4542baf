/// The transcript's rules (docs/fixtures/transcript.md). The view sits at (margin, margin), as wide as
/// the canvas less two margins; inside its padding, a viewport of clamp(lines, 1, maxLines) whole
/// lines shows the text, scrolled by `offset` from the top of the content.
public struct TranscriptRules: Sendable {
    public let transcript: TranscriptFixture
    public let canvas: Canvas

    /// What is measured once per text (once per state that changes it).
    public struct Content: Sendable {
        public var text: StyledText
        public var lines: Int
        public var contentHeight: Double
        public var viewportHeight: Double
        public var maxOffset: Double { max(0, contentHeight - viewportHeight) }
    }

    /// The scroll indicator's look and the scroll spring (the theme's).
    public let style: TranscriptStyle
    public let motion: MotionStyle

    public init(transcript: TranscriptFixture, canvas: Canvas, theme: Theme = .default) {
        self.transcript = transcript
        self.canvas = canvas
        self.style = theme.transcript
        self.motion = theme.motion
    }

    public var view: Rect {
        Rect(x: transcript.margin, y: transcript.margin, width: max(canvas.width - 2 * transcript.margin, 1), height: 0)
    }

    public var contentWidth: Double { max(view.width - 2 * transcript.padding, 1) }

    public func content(_ text: String, measurer: some TextMeasuring) throws -> Content {
        let styled = StyledText(markup: text, font: transcript.font, width: contentWidth)
        let lines = max(try measurer.measure(styled).lineCount, 1)
        // Whole lines only: the seed divides heights, which clips the last line when the leading
        // exceeds the natural line; docs/fixtures/transcript.md clamps by line count.
        let visible = min(lines, transcript.maxLines)
        return Content(
            text: styled, lines: lines, contentHeight: LineMetrics.height(lines: lines, font: transcript.font),
            viewportHeight: LineMetrics.height(lines: visible, font: transcript.font))
    }

    /// One state as the steps left it: its text, whether it follows, and the scroll it animates.
    struct StateInfo {
        var name: String
        var content: Content
        var following: Bool
        var from: Double
        var to: Double
        var animates: Bool
    }

    public func states(fps: Double, palette: Palette, measurer: some TextMeasuring) throws -> [StateLayout] {
        var text = transcript.text
        var content = try content(text, measurer: measurer)
        // It opens showing the last lines, following.
        var offset = AnimatedValue(content.maxOffset)
        var following = true
        var infos = [
            StateInfo(
                name: "initial", content: content, following: true, from: content.maxOffset, to: content.maxOffset,
                animates: false)
        ]
        var schedules = [Timeline.Schedule(start: 0, settle: 0)]
        // Each state is drawn with the value as its own step left it: a later step's change at
        // the very moment this state settles must not leak into its last frame.
        var snapshots = [offset]

        for (i, step) in transcript.steps.enumerated() {
            let start = Timeline.stepStart(after: schedules[schedules.count - 1], at: step.at, running: offset.endTime)
            let from = offset.value(at: start)
            switch step.event {
            case .append(let more):
                // Sticky: follow only if the view was at the bottom (or on its way there).
                let wasFollowing = following
                text += more
                content = try self.content(text, measurer: measurer)
                if !transcript.sticky || wasFollowing {
                    offset.set(
                        content.maxOffset, at: start, curve: .spring(motion.scroll), pixelsPerPoint: canvas.scale)
                    following = true
                } else {
                    following = false
                }
            case .scrollBy(let dy):
                // A drag moves the content at once and stops any scroll animation.
                let target = min(max(from + dy, 0), content.maxOffset)
                offset.jump(to: target, at: start)
                following = target >= content.maxOffset - 1
            case .scrollToBottom:
                offset.set(content.maxOffset, at: start, curve: .spring(motion.scroll), pixelsPerPoint: canvas.scale)
                following = true
            }
            let settle = max(start, offset.endTime)
            schedules.append(Timeline.Schedule(start: start, settle: settle))
            snapshots.append(offset)
            infos.append(
                StateInfo(
                    name: StateNaming.name(index: i + 1, event: step.event.name), content: content,
                    following: following, from: from, to: offset.target, animates: settle > start))
        }

        let samples = try Timeline.checkedSamples(schedules: schedules, fps: fps)
        return Timeline.placingOnTimeline(
            schedules,
            infos.indices.map { i in
                let info = infos[i]
                let schedule = schedules[i]
                return StateLayout(
                    name: info.name,
                    frames: samples[i].map { s in
                        let o = snapshots[i].value(at: s.absolute)
                        let moving = info.animates && s.absolute < schedule.settle
                        let span = info.to - info.from
                        let progress = abs(span) < 1e-9 ? 1 : min(max((o - info.from) / span, 0), 1)
                        return frame(
                            index: s.index, time: s.time, progress: progress, offset: o, content: info.content,
                            following: info.following, scrolling: moving, palette: palette)
                    })
            })
    }

    public func frame(
        index: Int, time: Double, progress: Double, offset: Double, content: Content, following: Bool,
        scrolling: Bool, palette: Palette
    ) -> LayoutFrame {
        let p = transcript.padding
        let viewRect = Rect(x: view.x, y: view.y, width: view.width, height: content.viewportHeight + 2 * p)
        let viewport = Rect(x: view.x + p, y: view.y + p, width: contentWidth, height: content.viewportHeight)
        let textRect = Rect(x: viewport.x, y: viewport.y - offset, width: contentWidth, height: content.contentHeight)
        var ops: [DrawOp] = [.fill(palette.canvas)]
        let boxes = LineMetrics.boxes(lines: content.lines, font: transcript.font)
        // The scroll view clips at its outer frame, text plus padding (docs/fixtures/transcript.md):
        // a glyph rising above the first visible line (a hamza, an emoji's top) and a line
        // scrolled partly out show in the padding instead of being cut flat at the text's edge.
        ops.append(
            .text(
                TextDraw(
                    text: content.text, origin: Point(x: textRect.x, y: textRect.y), baselines: boxes.baselines,
                    color: palette.text, clip: viewRect, element: "text")))
        let scrollable = content.maxOffset > 0
        let showIndicator =
            scrollable && (transcript.indicators == .always || (transcript.indicators == .scrolling && scrolling))
        if showIndicator {
            ops.append(
                .roundedRect(
                    indicator(viewport: viewport, offset: offset, content: content),
                    cornerRadius: style.indicatorWidth / 2, fill: palette.text.opacity(style.indicatorOpacity),
                    continuous: false))
        }
        return LayoutFrame(
            index: index, time: time, progress: progress,
            elements: [
                LayoutElement(id: "view", rect: viewRect),
                LayoutElement(id: "viewport", rect: viewport),
                LayoutElement(
                    id: "text", rect: textRect,
                    attributes: [
                        ("lines", .int(content.lines)),
                        ("clip", .numbers([viewRect.x, viewRect.y, viewRect.width, viewRect.height])),
                    ]),
            ],
            scroll: ScrollInfo(
                offset: offset, contentHeight: content.contentHeight, viewportHeight: content.viewportHeight,
                following: following), drawList: ops)
    }

    /// UIKit's vertical indicator (by default 3 pt wide, 3 pt from the viewport's right edge), as
    /// long as the visible fraction of the content (at least 12 pt), moving with the offset.
    func indicator(viewport: Rect, offset: Double, content: Content) -> Rect {
        let length = max(viewport.height * viewport.height / content.contentHeight, style.indicatorMinLength)
        let travel = max(viewport.height - length, 0)
        let fraction = content.maxOffset > 0 ? min(max(offset / content.maxOffset, 0), 1) : 0
        return Rect(
            x: viewport.maxX - style.indicatorInset - style.indicatorWidth, y: viewport.y + travel * fraction,
            width: style.indicatorWidth, height: length)
    }
}
