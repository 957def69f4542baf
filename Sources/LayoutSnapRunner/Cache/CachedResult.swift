import Foundation
import LayoutSnapCore
import LayoutSnapJSON

/// The result cache's value for one key: what a rendering of the fixture produced, without a
/// verdict (a verdict is made again on every run, against the goldens as they are then). The
/// layout hash is the XXH3 of what the fixture's layout.json holds, each number exactly
/// (`LayoutJSON.digestBytes`); each frame's pixel hash is the one the goldens' manifest records.
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
    /// The hash of every brand font, by its name in the environment, when a text of the
    /// rendering named a brand family: the key leaves the brand fonts' bytes out (most renderings
    /// never reach them), so a hit is used only while these still hold. nil: no brand family.
    public var brandFonts: [String: String]?
    public var frames: [Frame]

    public init(
        key: String, layout: String, canvas: Canvas, lintsIgnored: Int, brandFonts: [String: String]? = nil,
        frames: [Frame]
    ) {
        self.key = key
        self.layout = layout
        self.canvas = canvas
        self.lintsIgnored = lintsIgnored
        self.brandFonts = brandFonts
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
        var members: [(key: String, value: JSONOutput)] = [
            ("format", .int(Self.format)), ("key", .string(key)), ("layout", .string(layout)),
            ("canvas", [.number(canvas.width), .number(canvas.height), .number(canvas.scale)]),
            ("lintsIgnored", .int(lintsIgnored)),
        ]
        if let brandFonts {
            members.append(("brandFonts", .object(brandFonts.keys.sorted().map { ($0, .string(brandFonts[$0]!)) })))
        }
        members.append(
            (
                "frames",
                .array(
                    frames.map { f in
                        var fields: [(key: String, value: JSONOutput)] = [
                            ("state", .string(f.state)), ("index", .int(f.index)), ("time", .number(f.time)),
                            ("progress", .number(f.progress)), ("pixels", .string(f.pixels)),
                        ]
                        if !f.lints.isEmpty { fields.append(("lints", .array(f.lints.map(lint)))) }
                        return .object(fields)
                    })
            ))
        return JSONWriter(style: .compact).bytes(.object(members))
    }

    /// The entry in `bytes`, or why it is not one (a truncated or edited entry is a miss).
    public static func decode(_ bytes: [UInt8], key expected: String) -> Result<CachedResult, CacheEntryError> {
        if let plain = PlainEntry.read(bytes, key: expected) { return .success(plain) }
        return decodeTree(bytes, key: expected)
    }

    /// Any entry, through JSONParser and the object reader, which say where it is wrong.
    static func decodeTree(_ bytes: [UInt8], key expected: String) -> Result<CachedResult, CacheEntryError> {
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
            var brandFonts: [String: String]?
            if let table = try o.optional("brandFonts")?.object() {
                var fonts: [String: String] = [:]
                for m in table.members { fonts[m.key] = try table.required(m.key).string() }
                try table.finish()
                brandFonts = fonts
            }
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
                lintsIgnored: try o.required("lintsIgnored").int(), brandFonts: brandFonts, frames: frames)
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

/// An entry exactly as `encoded()` writes it without lints or brand fonts (the members in that order, no
/// spaces, strings of printable ASCII without escapes), read straight from the bytes: parsing each entry into a
/// tree and an object reader was a fifth of a warm run's hits. Anything else, a refusal
/// included, is nil and left to the full parse, which reads it the same way or says why not
/// (`CachedResultTests` holds the two to the same results).
enum PlainEntry {
    static func read(_ bytes: [UInt8], key expected: String) -> CachedResult? {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = Reader(bytes: buffer)
            return reader.entry(key: expected)
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0

        mutating func entry(key expected: String) -> CachedResult? {
            guard take("{\"format\":"), int() == CachedResult.format, take(",\"key\":"), let key = string(),
                key == expected, take(",\"layout\":"), let layout = string(), take(",\"canvas\":["),
                let width = number(), take(","), let height = number(), take(","), let scale = number(),
                take("],\"lintsIgnored\":"), let lintsIgnored = int(), take(",\"frames\":[")
            else { return nil }
            var frames: [CachedResult.Frame] = []
            if !take("]") {
                repeat {
                    guard take("{\"state\":"), let state = string(), take(",\"index\":"), let index = int(),
                        take(",\"time\":"), let time = number(), take(",\"progress\":"), let progress = number(),
                        take(",\"pixels\":"), let pixels = string(), take("}"),
                        pixels.utf8.count == 16, UInt64(pixels, radix: 16) != nil
                    else { return nil }
                    frames.append(
                        CachedResult.Frame(state: state, index: index, time: time, progress: progress, pixels: pixels))
                } while take(",")
                guard take("]") else { return nil }
            }
            guard take("}"), i == bytes.count else { return nil }
            return CachedResult(
                key: key, layout: layout, canvas: Canvas(width: width, height: height, scale: scale),
                lintsIgnored: lintsIgnored, frames: frames)
        }

        mutating func take(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard bytes.count - i >= count, memcmp(bytes.baseAddress! + i, text.utf8Start, count) == 0 else {
                return false
            }
            i += count
            return true
        }

        /// A string of printable ASCII without escapes, or nil (the full parse also makes other
        /// text stream-safe).
        mutating func string() -> String? { PlainString.read(bytes, at: &i) }

        /// The number that starts here as JSONParser reads it (digits alone, the common case,
        /// without it).
        mutating func number() -> Double? {
            let start = i
            var digitsOnly = true
            scan: while i < bytes.count {
                switch bytes[i] {
                case 0x30...0x39: break
                case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
                    digitsOnly = false
                default: break scan
                }
                i += 1
            }
            let text = UnsafeBufferPointer(rebasing: bytes[start..<i])
            guard !text.isEmpty else { return nil }
            if digitsOnly, text.count <= 15, text[0] != 0x30 || text.count == 1 {
                return Double(text.reduce(0) { $0 * 10 + Int($1 - 0x30) })
            }
            guard let node = try? JSONParser.parse(text), case .number(let value) = node.value, value.isFinite else {
                return nil
            }
            return value
        }

        /// A whole number as `JSONElement.int()` takes it: digits alone, within Int32.
        mutating func int() -> Int? {
            let start = i
            while i < bytes.count, (0x30...0x39).contains(bytes[i]), i - start < 10 { i += 1 }
            guard i > start, i - start < 10, bytes[start] != 0x30 || i - start == 1 else { return nil }
            return bytes[start..<i].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
    }
}

/// Why a cache entry cannot be used.
public struct CacheEntryError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
