import Foundation

/// The `post` fields of SPEC §4.4.
enum PostDecoder {
    static func decode(_ o: ObjectReader, directory: String) throws(JSONDecodingError) -> PostFixture {
        var post = PostFixture()
        if let e = o.optional("title") { post.title = try e.string() }
        if let e = o.optional("summary") { post.summary = try e.string() }
        if let e = o.optional("body") { post.body = try e.string() }
        if let e = o.optional("author") { post.author = try e.string() }
        if let e = o.optional("aiGenerated") { post.aiGenerated = try e.bool() }
        if let e = o.optional("expanded") { post.expanded = try e.bool() }
        if let e = o.optional("imageState") { post.imageState = try e.enumeration(ImageState.self) }
        if let e = o.optional("availableWidth") { post.availableWidth = try e.double(in: 1...8192, what: "a width in points") }
        if let e = o.optional("image") { post.image = try decodeImage(e, directory: directory) }
        let duration = try o.double("duration", in: Limits.animationDuration, what: "a duration in seconds") ?? 0.3
        post.curve = try FixtureDecoder.decodeCurve(o.optional("curve"), duration: duration)
        if let e = o.optional("steps") {
            post.steps = try e.array().map { (step) throws(JSONDecodingError) -> PostStep in try decodeStep(step) }
        }
        return post
    }

    static func decodeImage(_ element: JSONElement, directory: String) throws(JSONDecodingError) -> PostImage {
        let o = try element.object()
        let pathElement = o.optional("path")
        let ratioElement = o.optional("aspectRatio")
        try o.finish()
        switch (pathElement, ratioElement) {
        case let (p?, nil):
            let relative = try p.string()
            let resolved = relative.hasPrefix("/") ? relative : (directory as NSString).appendingPathComponent(relative)
            guard FileManager.default.fileExists(atPath: resolved) else {
                throw p.error("image file not found: \(relative) (looked for \(resolved))")
            }
            let size: (width: Int, height: Int)
            do {
                size = try PNGHeader.read(path: resolved)
            } catch {
                throw p.error("image \(relative): \(error.message)")
            }
            return PostImage(path: resolved, aspectRatio: Double(size.width) / Double(size.height),
                             source: (relative, p.position.line, p.position.column))
        case let (nil, r?):
            return PostImage(path: nil, aspectRatio: try r.double(in: 0.01...100, what: "an aspect ratio (width / height)"))
        case (nil, nil):
            throw element.error("an image needs \"path\" (a PNG file) or \"aspectRatio\" (a placeholder)")
        case (_?, _?):
            throw element.error("give either \"path\" or \"aspectRatio\", not both: a file's aspect ratio comes from the file")
        }
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
