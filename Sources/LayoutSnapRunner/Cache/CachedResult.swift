import LayoutSnapCore
import LayoutSnapJSON

/// The result cache's value for one key: what a rendering of the fixture produced, without a
/// verdict (a verdict is made again on every run, against the goldens as they are then). The
/// layout hash is the XXH3 of the fixture's layout.json; each frame's pixel hash is the one the
/// goldens' manifest records.
public struct CachedResult: Sendable, Equatable {
    public struct Frame: Sendable, Equatable {
        public var state: String
        public var index: Int
        public var time: Double
        public var progress: Double
        /// PixelHash of the frame's premultiplied ARGB32 pixels, 16 hex digits.
        public var pixels: String
        public var lints: [LintFinding]

        public init(
            state: String, index: Int, time: Double, progress: Double, pixels: String, lints: [LintFinding] = []
        ) {
            self.state = state
            self.index = index
            self.time = time
            self.progress = progress
            self.pixels = pixels
            self.lints = lints
        }
    }

    public static let format = 1
    /// The key it was stored under: an entry copied to another key is refused.
    public var key: String
    public var layout: String
    public var canvas: Canvas
    public var lintsIgnored: Int
    public var frames: [Frame]

    public init(key: String, layout: String, canvas: Canvas, lintsIgnored: Int, frames: [Frame]) {
        self.key = key
        self.layout = layout
        self.canvas = canvas
        self.lintsIgnored = lintsIgnored
        self.frames = frames
    }

    public func encoded() -> [UInt8] {
        func lint(_ l: LintFinding) -> JSONOutput {
            [
                "rule": .string(l.rule.rawValue), "elements": .array(l.elements.map { .string($0) }),
                "detail": .string(l.detail),
                "rect": [.number(l.rect.x), .number(l.rect.y), .number(l.rect.width), .number(l.rect.height)],
                "amount": .number(l.amount),
            ]
        }
        let value: JSONOutput = [
            "format": .int(Self.format), "key": .string(key), "layout": .string(layout),
            "canvas": [.number(canvas.width), .number(canvas.height), .number(canvas.scale)],
            "lintsIgnored": .int(lintsIgnored),
            "frames": .array(
                frames.map { f in
                    var members: [(key: String, value: JSONOutput)] = [
                        ("state", .string(f.state)), ("index", .int(f.index)), ("time", .number(f.time)),
                        ("progress", .number(f.progress)), ("pixels", .string(f.pixels)),
                    ]
                    if !f.lints.isEmpty { members.append(("lints", .array(f.lints.map(lint)))) }
                    return .object(members)
                }),
        ]
        return JSONWriter(style: .compact).bytes(value)
    }

    /// The entry in `bytes`, or why it is not one (a truncated or edited entry is a miss).
    public static func decode(_ bytes: [UInt8], key expected: String) -> Result<CachedResult, CacheEntryError> {
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            return .failure(CacheEntryError("not JSON (\(error.message) at byte \(error.position.offset))"))
        }
        do throws(JSONDecodingError) {
            let o = try JSONElement(root).object()
            let format = try o.required("format").int()
            guard format == Self.format else {
                return .failure(CacheEntryError("format \(format), expected \(Self.format)"))
            }
            let key = try o.required("key").string()
            guard key == expected else { return .failure(CacheEntryError("stored for key \(key)")) }
            let canvas = try numbers(o.required("canvas"), count: 3)
            var frames: [Frame] = []
            for element in try o.required("frames").array() {
                let f = try element.object()
                let lints = try f.optional("lints")?.array().map { e throws(JSONDecodingError) in
                    let l = try e.object()
                    let ruleElement = try l.required("rule")
                    guard let rule = LintRule(rawValue: try ruleElement.string()) else {
                        throw ruleElement.error("unknown lint rule")
                    }
                    let rect = try numbers(l.required("rect"), count: 4)
                    let finding = LintFinding(
                        rule: rule,
                        elements: try l.required("elements").array().map { e throws(JSONDecodingError) in try e.string()
                        },
                        detail: try l.required("detail").string(),
                        rect: Rect(x: rect[0], y: rect[1], width: rect[2], height: rect[3]),
                        amount: try l.required("amount").double())
                    try l.finish()
                    return finding
                }
                let pixels = try f.required("pixels")
                let hash = try pixels.string()
                guard hash.utf8.count == 16, UInt64(hash, radix: 16) != nil else {
                    throw pixels.error("not a pixel hash")
                }
                frames.append(
                    Frame(
                        state: try f.required("state").string(), index: try f.required("index").int(),
                        time: try f.required("time").double(), progress: try f.required("progress").double(),
                        pixels: hash, lints: lints ?? []))
                try f.finish()
            }
            let value = CachedResult(
                key: key, layout: try o.required("layout").string(),
                canvas: Canvas(width: canvas[0], height: canvas[1], scale: canvas[2]),
                lintsIgnored: try o.required("lintsIgnored").int(), frames: frames)
            try o.finish()
            return .success(value)
        } catch {
            return .failure(CacheEntryError("\(error.path): \(error.message)"))
        }
    }

    private static func numbers(_ element: JSONElement, count: Int) throws(JSONDecodingError) -> [Double] {
        let items = try element.array()
        guard items.count == count else { throw element.error("expected \(count) numbers") }
        return try items.map { e throws(JSONDecodingError) in try e.double() }
    }
}

/// Why a cache entry cannot be used.
public struct CacheEntryError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
