/// The post card's layout rules (docs/fixtures/post.md). All card-relative numbers are the seed's;
/// `layout` measures the text once per fixture (a post's text never changes between states) and
/// then evaluates every frame from the expansion progress f alone.
public struct PostRules: Sendable {
    /// The card's numbers and colours: the theme's (`PostStyle`, the seed's by default).
    public let style: PostStyle
    public let textStyles: TextStyles
    /// The author line follows the text size (subheadline); the title and summary are explicit
    /// sizes and stay fixed, as on a device.
    public static func authorFont(_ textSize: ContentSizeCategory, theme: Theme = .default) -> FontSpec {
        theme.font(.subheadline, at: textSize)
    }
    public static func titleFont(_ theme: Theme) -> FontSpec {
        var font = FontSpec(size: theme.post.titleSize, weight: theme.post.titleWeight)
        font.family = theme.textStyles.family
        return font
    }
    public static func summaryFont(_ theme: Theme) -> FontSpec {
        var font = FontSpec(size: theme.post.summarySize, italic: true)
        font.family = theme.textStyles.family
        return font
    }
    public static let aiAuthor = "\u{1F453} librarian"

    /// What is measured once: text blocks and the heights that do not depend on f.
    public struct Measured: Sendable {
        public var cardWidth: Double
        public var title: (text: StyledText, measured: MeasuredText, height: Double)?
        public var summary: (text: StyledText, measured: MeasuredText, height: Double)?
        public var titleSummaryHeight: Double
        public var hasImage: Bool
        /// The aspect ratio the card uses: the image's when loaded, the seed's default 1.0 while
        /// loading or after a failure (the seed keeps 1.0 until the image data arrives).
        public var aspectRatio: Double
        public var body: FormattedBody
        public var author: (text: StyledText, lines: Int, height: Double)?
    }

    public let post: PostFixture
    public let canvas: Canvas
    public let textSize: ContentSizeCategory
    public let measured: Measured

    public init(
        post: PostFixture, canvas: Canvas, measurer: some TextMeasuring, textSize: ContentSizeCategory = .large,
        direction: LayoutDirection = .ltr, theme: Theme = .default
    ) throws {
        self.post = post
        self.style = theme.post
        self.textStyles = theme.textStyles
        let style = theme.post
        self.canvas = canvas
        self.textSize = textSize
        let aw = post.availableWidth
        let cardWidth = aw + 20
        let hasImage = post.image != nil
        let blockWidth = max(
            cardWidth - 2 * style.titleSummaryPadding - (hasImage ? style.thumbnailTrailingPadding : 0), 1)

        func measureBlock(_ source: String, font: FontSpec, maxLines: Int) throws -> (StyledText, MeasuredText, Double)?
        {
            guard !source.isEmpty else { return nil }
            let text = StyledText(markup: source, font: font, width: blockWidth, maxLines: maxLines)
            let m = try measurer.measure(text)
            return (text, m, LineMetrics.height(lines: m.lineCount, font: font))
        }
        let title = try measureBlock(post.title, font: Self.titleFont(theme), maxLines: 1)
        let summary = try measureBlock(post.summary, font: Self.summaryFont(theme), maxLines: 2)
        // The VStack's spacing only stands between two present texts.
        var tsHeight = 2 * style.titleSummaryPadding + (title?.2 ?? 0) + (summary?.2 ?? 0)
        if title != nil && summary != nil { tsHeight += style.titleSummarySpacing }

        let aspect = (post.imageState == .loaded ? post.image?.aspectRatio : nil) ?? 1.0
        let body = try FormattedBody(
            body: post.body, width: aw, measurer: measurer, textSize: textSize, direction: direction, theme: theme)

        let authorSource = post.aiGenerated ? Self.aiAuthor : post.author
        var author: (StyledText, Int, Double)?
        if let authorSource, !authorSource.isEmpty {
            let text = StyledText(markup: authorSource, font: Self.authorFont(textSize, theme: theme), width: aw)
            let m = try measurer.measure(text)
            author = (text, m.lineCount, LineMetrics.height(lines: m.lineCount, font: text.font))
        }
        measured = Measured(
            cardWidth: cardWidth, title: title, summary: summary, titleSummaryHeight: tsHeight,
            hasImage: hasImage, aspectRatio: aspect, body: body, author: author)
    }

    public var cardX: Double { (canvas.width - measured.cardWidth) / 2 }
    public var expandedImageHeight: Double { measured.hasImage ? post.availableWidth / measured.aspectRatio : 0 }
    public var expandedCardHeight: Double {
        measured.titleSummaryHeight + style.gapBelowImage + expandedImageHeight + style.gapBelowImage
            + measured.body.height + style.gapAboveAuthor + style.authorHeight + style.bottomPadding
    }

    /// Card-relative geometry at expansion progress f (the seed's lerps).
    public struct Geometry: Sendable, Hashable {
        public var cardHeight: Double
        public var image: Rect
        public var bodyTop: Double
        public var revealed: Double
        public var authorTop: Double
    }

    public func geometry(f: Double) -> Geometry {
        let aw = post.availableWidth
        let m = measured
        let imageX = lerp(aw - style.thumbnailSize + 8, style.contentInset, f)
        // With no image the y stays at its expanded value (docs/fixtures/post.md): lerping it from the
        // thumbnail's 18 pt put the body's top inside the title block in the first frames.
        let imageY = m.hasImage ? lerp(style.compactImageY, m.titleSummaryHeight + 8, f) : m.titleSummaryHeight + 8
        let imageW = m.hasImage ? lerp(style.thumbnailSize, aw, f) : 0
        let imageH = m.hasImage ? lerp(style.thumbnailSize, expandedImageHeight, f) : 0
        let bodyTop = imageY + imageH + style.gapBelowImage
        return Geometry(
            cardHeight: lerp(style.compactHeight, expandedCardHeight, f),
            image: Rect(x: imageX, y: imageY, width: imageW, height: imageH),
            bodyTop: bodyTop,
            // A spring may overshoot f past 1 (or under 0): the mask cannot reveal more than the
            // body, nor less than nothing.
            revealed: min(max(lerp(0, m.body.height, f), 0), m.body.height),
            authorTop: bodyTop + m.body.height + style.gapAboveAuthor)
    }

    /// One frame: layout facts and the display list.
    public func frame(index: Int, time: Double, f: Double, palette: Palette) -> LayoutFrame {
        let g = geometry(f: f)
        let m = measured
        let ox = cardX
        let oy = style.cardTop
        let card = Rect(x: ox, y: oy, width: m.cardWidth, height: g.cardHeight)
        var elements: [LayoutElement] = [LayoutElement(id: "card", rect: card)]
        var ops: [DrawOp] = [
            .fill(palette.canvas),
            .shadow(card, cornerRadius: style.cornerRadius, blur: style.shadowRadius, color: style.shadowColor),
            .roundedRect(card, cornerRadius: style.cornerRadius, fill: style.cardFill, continuous: true),
        ]

        // Post cards keep black text on white in both appearances, as the seed does.
        var y = oy + style.titleSummaryPadding
        let x = ox + style.titleSummaryPadding
        for (id, block, color) in [("title", m.title, style.titleColor), ("summary", m.summary, style.summaryColor)] {
            guard let block else { continue }
            if id == "summary" && m.title != nil { y += style.titleSummarySpacing }
            let rect = Rect(x: x, y: y, width: block.text.width ?? 0, height: block.height)
            elements.append(
                LayoutElement(
                    id: id, rect: rect,
                    attributes: [
                        ("lines", .int(block.measured.lineCount)), ("truncated", .bool(block.measured.truncated)),
                    ]))
            let boxes = LineMetrics.boxes(lines: block.measured.lineCount, font: block.text.font)
            ops.append(
                .text(
                    TextDraw(
                        text: block.text, origin: Point(x: x, y: y), baselines: boxes.baselines, color: color,
                        element: id)))
            y += block.height
        }

        let imageRect = g.image.offsetBy(dx: ox, dy: oy)
        if m.hasImage {
            elements.append(
                LayoutElement(id: "image", rect: imageRect, attributes: [("state", .string(post.imageState.rawValue))]))
        }
        let bodyRect = Rect(
            x: ox + style.contentInset, y: oy + g.bodyTop, width: post.availableWidth, height: m.body.height)
        if !m.body.pieces.isEmpty {
            elements.append(
                LayoutElement(
                    id: "body", rect: bodyRect,
                    attributes: [
                        ("lines", .int(m.body.lineCount)), ("revealed", .number(g.revealed)),
                    ]))
        }
        let authorOrigin = Point(x: ox + style.contentInset, y: oy + g.authorTop)
        if let author = m.author {
            let rect = Rect(x: authorOrigin.x, y: authorOrigin.y, width: post.availableWidth, height: author.height)
            elements.append(
                LayoutElement(id: "author", rect: rect, attributes: [("opacity", .number(min(max(f, 0), 1)))]))
        }

        // Body and author exist only while the card is (partly) expanded; the seed draws them
        // under the image.
        if f > 0 {
            let mask = Rect(x: bodyRect.x, y: bodyRect.y, width: bodyRect.width, height: g.revealed)
            for piece in m.body.pieces {
                ops.append(
                    .text(
                        TextDraw(
                            text: piece.text, origin: Point(x: bodyRect.x + piece.x, y: bodyRect.y),
                            baselines: piece.baselines, color: style.bodyColor, clip: mask, element: "body")))
            }
            if let author = m.author {
                let boxes = LineMetrics.boxes(lines: author.lines, font: author.text.font)
                ops.append(
                    .text(
                        TextDraw(
                            text: author.text, origin: authorOrigin, baselines: boxes.baselines,
                            color: style.authorColor.opacity(min(f, 1)), element: "author")))
            }
        }

        if m.hasImage {
            if post.imageState == .loaded, let path = post.image?.path {
                ops.append(.image(.file(path), imageRect, cornerRadius: style.imageCornerRadius, opacity: 1))
            } else {
                ops.append(
                    .roundedRect(
                        imageRect, cornerRadius: style.imageCornerRadius, fill: palette.gray.opacity(0.3),
                        continuous: true))
            }
        }
        return LayoutFrame(index: index, time: time, progress: f, elements: elements, drawList: ops)
    }
}
