public enum ImageState: String, Sendable, Hashable, CaseIterable {
    case loaded, loading, failed
}

/// A post card's image: pixels from a PNG file, or only an aspect ratio (a placeholder).
public struct PostImage: Sendable, Hashable {
    /// Absolute path of the PNG, nil for a placeholder given by `aspectRatio`.
    public var path: String?
    /// Width / height of the image (read from the PNG header, or given).
    public var aspectRatio: Double
    /// Where the fixture names the file, for messages about it: the path as written, and the
    /// line and column of `image.path`.
    public var source: (written: String, line: Int, column: Int, jsonPath: String)?

    public init(
        path: String?, aspectRatio: Double, source: (written: String, line: Int, column: Int, jsonPath: String)? = nil
    ) {
        self.path = path
        self.aspectRatio = aspectRatio
        self.source = source
    }

    public static func == (a: PostImage, b: PostImage) -> Bool { a.path == b.path && a.aspectRatio == b.aspectRatio }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(aspectRatio)
    }
}

public enum PostEvent: String, Sendable, Hashable, CaseIterable {
    case expand, collapse
}

public struct PostStep: Sendable, Hashable {
    public var event: PostEvent
    /// Seconds after the previous step began; interrupts the animation still running (docs/fixtures/README.md "Common fields").
    public var at: Double?

    public init(event: PostEvent, at: Double? = nil) {
        self.event = event
        self.at = at
    }
}

/// The `post` kind (docs/fixtures/post.md).
public struct PostFixture: Sendable, Hashable {
    public var title: String
    public var summary: String
    public var body: String
    public var image: PostImage?
    public var imageState: ImageState
    public var author: String?
    public var aiGenerated: Bool
    public var expanded: Bool
    /// The seed's content width; the card is 20 pt wider.
    public var availableWidth: Double
    public var curve: AnimationCurve
    /// Whether the fixture (or `--curve`/`--duration`) gave the curve or the duration; a curve
    /// it leaves out is its theme's `motion.expand`.
    public var ownsCurve = false
    public var steps: [PostStep]

    public init(
        title: String = "", summary: String = "", body: String = "", image: PostImage? = nil,
        imageState: ImageState = .loaded, author: String? = nil, aiGenerated: Bool = false,
        expanded: Bool = false, availableWidth: Double = 350,
        curve: AnimationCurve = .timing(.easeInOut, duration: 0.3), steps: [PostStep] = []
    ) {
        self.title = title
        self.summary = summary
        self.body = body
        self.image = image
        self.imageState = imageState
        self.author = author
        self.aiGenerated = aiGenerated
        self.expanded = expanded
        self.availableWidth = availableWidth
        self.curve = curve
        self.steps = steps
    }
}
