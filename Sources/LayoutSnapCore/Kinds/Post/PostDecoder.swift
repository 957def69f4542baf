import LayoutSnapJSON

/// The `post` fields of docs/fixtures/post.md.
enum PostDecoder {
    static func decode(_ o: ObjectReader, folder: FixtureFolder) throws(JSONDecodingError) -> PostFixture {
        var post = PostFixture()
        if let e = o.optional("title") { post.title = try e.string() }
        if let e = o.optional("summary") { post.summary = try e.string() }
        if let e = o.optional("body") { post.body = try e.string() }
        if let e = o.optional("author") { post.author = try e.string() }
        if let e = o.optional("aiGenerated") { post.aiGenerated = try e.bool() }
        if let e = o.optional("expanded") { post.expanded = try e.bool() }
        if let e = o.optional("imageState") { post.imageState = try e.enumeration(ImageState.self) }
        if let e = o.optional("availableWidth") {
            post.availableWidth = try e.double(in: 1...8192, what: "a width in points")
        }
        if let e = o.optional("image") { post.image = try decodeImage(e, folder: folder) }
        let durationElement = o.optional("duration")
        let duration = try durationElement?.double(in: Limits.animationDuration, what: "a duration in seconds") ?? 0.3
        post.curve = try FixtureDecoder.decodeCurve(o.optional("curve"), duration: duration)
        post.ownsCurve = o.contains("curve") || durationElement != nil
        // As in SwiftUI, a spring takes no duration: it runs until it settles.
        if case .spring = post.curve, let durationElement {
            throw durationElement.error(
                "duration applies to timing curves (\(CubicBezier.presets.map(\.name).joined(separator: ", ")), cubic); a spring has none: its duration is its settling time, computed from the distance it moves (docs/fixtures/README.md). Remove duration, or give the spring a longer response to slow it"
            )
        }
        if let e = o.optional("steps") {
            post.steps = try e.each(decodeStep)
        }
        return post
    }

    /// `{"path": "images/x.png"}` (its aspect ratio read from the PNG's header) or
    /// `{"aspectRatio": r}`: a post's and a chat message's picture.
    static func decodeImage(
        _ element: JSONElement, folder: FixtureFolder, ratios: ClosedRange<Double> = 0.01...100
    ) throws(JSONDecodingError) -> PostImage {
        let o = try element.object()
        let pathElement = o.optional("path")
        let ratioElement = o.optional("aspectRatio")
        try o.finish()
        switch (pathElement, ratioElement) {
        case (let p?, nil):
            let relative = try p.string()
            let resolved = folder.resolve(relative)
            let header: InputFileBytes
            do {
                header = try folder.files.read(resolved, upTo: PNGHeader.byteCount)
            } catch {
                switch error {
                case .notFound: throw p.error("image file not found: \(relative) (looked for \(resolved))")
                case .unreadable(let reason): throw p.error("image \(relative): cannot be read (\(reason))")
                }
            }
            let size: (width: Int, height: Int)
            do {
                size = try PNGHeader.parse(header.prefix)
            } catch {
                throw p.error("image \(relative): \(error.message)")
            }
            return PostImage(
                path: resolved, aspectRatio: Double(size.width) / Double(size.height),
                source: (relative, p.position.line, p.position.column, p.path.description))
        case (nil, let r?):
            return PostImage(
                path: nil, aspectRatio: try r.double(in: ratios, what: "an aspect ratio (width / height)"))
        case (nil, nil):
            throw element.error("an image needs \"path\" (a PNG file) or \"aspectRatio\" (a placeholder)")
        case (_?, _?):
            throw element.error(
                "give either \"path\" or \"aspectRatio\", not both: a file's aspect ratio comes from the file")
        }
    }

    static func imageNode(ratios: ClosedRange<Double>) -> SchemaNode {
        .object(
            [
                SchemaField("path", .nonEmptyString, "A PNG file, relative to the fixture."),
                SchemaField("aspectRatio", .number(ratios), "A placeholder of this width / height."),
            ], exactlyOneOf: ["path", "aspectRatio"])
    }

    static func decodeStep(_ element: JSONElement) throws(JSONDecodingError) -> PostStep {
        let o = try element.object()
        let name = try o.stepEvent(PostEvent.allCases.map(\.rawValue), kind: "post", step: element)
        let event = PostEvent(rawValue: name)!
        try o.required(event.rawValue).isTrue()
        let at = try o.stepDelay()
        try o.finish()
        return PostStep(event: event, at: at)
    }
}

extension PostDecoder {
    /// The fields `decode` reads, for the schema (a test keeps the two equal).
    static let fields: [SchemaField] = [
        SchemaField("title", .string, "22 pt bold, one line, ellipsized."),
        SchemaField("summary", .string, "15 pt italic at 80% black, at most two lines, ellipsized."),
        SchemaField(
            "body", .string, "Formatted text (# headings, - bullets, **bold**, *italic*), measured at availableWidth."),
        SchemaField("author", .string, "The author line, subheadline at 50% black."),
        SchemaField("aiGenerated", .boolean, "The author line reads \"👓 librarian\"."),
        SchemaField("expanded", .boolean, "The initial state is expanded."),
        SchemaField("imageState", .enumeration(ImageState.self), "Default loaded."),
        SchemaField(
            "availableWidth", .number(1...8192), "The content width in points (default 350); the card is 20 pt wider."),
        SchemaField("image", imageNode(ratios: 0.01...100), "{\"path\": \"images/x.png\"} or {\"aspectRatio\": r}."),
        SchemaField(
            "duration", .number(Limits.animationDuration),
            "Seconds of the expand and collapse animation (default 0.3), for a timing curve; a spring takes none (it runs until it settles)."
        ),
        SchemaField(
            "curve", .ref("curve"),
            "A named timing curve, a cubic Bézier [x1, y1, x2, y2] over `duration`, or a spring (default easeInOut)."),
        SchemaField(
            "steps",
            .array(
                .object(
                    PostEvent.allCases.map { SchemaField($0.rawValue, .trueFlag) } + [FixtureSchema.stepDelay],
                    exactlyOneOf: PostEvent.allCases.map(\.rawValue))), "Events applied in order; each makes a state."),
    ]
}
