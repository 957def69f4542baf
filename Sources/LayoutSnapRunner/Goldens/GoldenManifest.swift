import Foundation
import LayoutSnapCore
import LayoutSnapImaging
import LayoutSnapJSON
import LayoutSnapSystem

/// `Goldens/manifest.json` (docs/goldens.md): for every golden frame the hash of its decoded pixels and of
/// its file, plus the environment that rendered them. Verify trusts a pixel hash only while the
/// file's bytes still hash to what the manifest says.
public struct GoldenManifest: Sendable, Equatable {
    public struct Entry: Sendable, Hashable {
        /// PixelHash of the premultiplied ARGB32 pixels, 16 hex digits.
        public var pixels: String {
            get { storedPixels.text }
            set { storedPixels = HashText(newValue) }
        }
        /// PixelHash of the PNG file's bytes.
        public var file: String {
            get { storedFile.text }
            set { storedFile = HashText(newValue) }
        }
        public var width: Int {
            get { Int(storedWidth) }
            set { storedWidth = Int32(clamping: newValue) }
        }
        public var height: Int {
            get { Int(storedHeight) }
            set { storedHeight = Int32(clamping: newValue) }
        }
        // A manifest holds an entry per golden frame (100,000 for 10,000 fixtures) for the
        // whole run, so they are kept small: 16 hex digits are one byte past a Swift string's
        // inline room, and as text every hash was a heap allocation of its own.
        private var storedPixels: HashText
        private var storedFile: HashText
        private var storedWidth: Int32
        private var storedHeight: Int32

        public init(pixels: String, file: String, width: Int, height: Int) {
            storedPixels = HashText(pixels)
            storedFile = HashText(file)
            storedWidth = Int32(clamping: width)
            storedHeight = Int32(clamping: height)
        }
    }

    /// A hash as the manifest writes it: 16 lowercase hex digits kept as their number, anything
    /// else (`unreadable`, a hand-edited value) as the text itself. Each text has one form, so
    /// equality is the text's.
    enum HashText: Sendable, Hashable {
        case hex(UInt64)
        case other(String)

        init(_ text: String) {
            let utf8 = text.utf8
            if utf8.count == 16, utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }),
                let value = UInt64(text, radix: 16)
            {
                self = .hex(value)
            } else {
                self = .other(text)
            }
        }

        var text: String {
            switch self {
            case .hex(let value): return PixelHash.hex(value)
            case .other(let text): return text
            }
        }
    }

    /// What a golden being replaced was (see `GoldenTransaction`): its old entry, or no file.
    public enum Previous: Sendable, Hashable {
        case absent
        case entry(Entry)
    }

    public static let formatVersion = 1
    public var environment: RenderEnvironment?
    /// Keyed by the frame's path below the goldens folder: `posts/x/01-expand/007.png`.
    public var frames: [String: Entry]
    /// Only while a record is replacing goldens: for each golden being replaced, what it was.
    /// Its file is then either the old one (described here) or the new one (`frames`).
    public var previous: [String: Previous] = [:]

    public init(environment: RenderEnvironment?, frames: [String: Entry]) {
        self.environment = environment
        self.frames = frames
    }

    /// The manifest's entry for `key` whose file hash is `fileHash`: the current entry, or the
    /// previous one of a golden a killed record was replacing. nil when the file is neither.
    public func entry(_ key: String, fileHash: String) -> Entry? {
        if let entry = frames[key], entry.file == fileHash { return entry }
        if case .entry(let old)? = previous[key], old.file == fileHash { return old }
        return nil
    }

    /// nil when there is no manifest; a manifest that cannot be read is an error the caller
    /// reports (verify then decodes every golden instead of trusting hashes).
    public static func load(path: String) throws(RunnerError) -> GoldenManifest? {
        // Read straight into bytes: through Data and a copy was a fifth of reading it.
        let read: (size: Int, bytes: [UInt8])
        do throws(SystemError) {
            read = try SystemCall.readPrefix(path, upTo: Int.max)
        } catch {
            // Absent where `fileExists` said so: no such file, a file where a folder should be, a
            // loop of links, a name too long.
            if [ENOENT, ENOTDIR, ELOOP, ENAMETOOLONG].contains(error.code) { return nil }
            throw RunnerError.goldens(
                Diagnostic(.error, .golden, file: path, message: "cannot be read: \(error.reason)"))
        }
        guard read.size == read.bytes.count else {
            throw RunnerError.goldens(
                Diagnostic(.error, .golden, file: path, message: "shrank while it was read: run verify again"))
        }
        let bytes = read.bytes
        // Frame by frame first (flat in memory); the whole tree only to explain what is wrong.
        if let manifest = ManifestReader.read(bytes) { return manifest }
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw RunnerError.goldens(
                Diagnostic(
                    .error, .golden, file: path, line: error.position.line, column: error.position.column,
                    message: "invalid JSON: \(error.message)"))
        }
        do {
            return try decode(JSONElement(root))
        } catch {
            throw RunnerError.goldens(
                Diagnostic(
                    .error, .golden, file: path, line: error.position?.line, column: error.position?.column,
                    path: error.path.description, message: error.message))
        }
    }

    static func decode(_ element: JSONElement) throws(JSONDecodingError) -> GoldenManifest {
        let o = try element.object()
        let version = try o.required("version").int()
        guard version == formatVersion else {
            throw try o.required("version").error(
                "manifest format \(version) is not known to this layoutsnap (expected \(formatVersion))")
        }
        var environment: RenderEnvironment?
        if let e = o.optional("environment") { environment = try RenderEnvironment.decode(e) }
        var frames: [String: Entry] = [:]
        var previous: [String: Previous] = [:]
        let framesObject = try o.required("frames").object()
        for member in framesObject.members {
            let (entry, old) = try decodeFrame(try framesObject.required(member.key).object())
            frames[member.key] = entry
            if let old { previous[member.key] = old }
        }
        try framesObject.finish()
        try o.finish()
        var manifest = GoldenManifest(environment: environment, frames: frames)
        manifest.previous = previous
        return manifest
    }

    /// One member of `frames`: the entry, and what it replaces while a record is under way.
    static func decodeFrame(_ entry: ObjectReader) throws(JSONDecodingError) -> (Entry, Previous?) {
        func decodeEntry(_ entry: ObjectReader) throws(JSONDecodingError) -> Entry {
            let size = try entry.required("size").array()
            guard size.count == 2 else { throw try entry.required("size").error("expected [width, height]") }
            return Entry(
                pixels: try entry.required("pixels").string(), file: try entry.required("file").string(),
                width: try size[0].int(), height: try size[1].int())
        }
        let current = try decodeEntry(entry)
        var previous: Previous?
        if let old = entry.optional("previous") {
            if old.isNull {
                previous = .absent
            } else {
                let oldEntry = try old.object()
                previous = .entry(try decodeEntry(oldEntry))
                try oldEntry.finish()
            }
        }
        try entry.finish()
        return (current, previous)
    }

    /// Deterministic bytes (sorted keys) so that a re-record without changes rewrites nothing.
    public func encoded() -> [UInt8] {
        var object: [(String, JSONOutput)] = [("version", .int(Self.formatVersion))]
        if let environment { object.append(("environment", environment.json)) }
        func fields(_ e: Entry) -> [(String, JSONOutput)] {
            [
                ("pixels", .string(e.pixels)), ("file", .string(e.file)),
                ("size", .array([.int(e.width), .int(e.height)])),
            ]
        }
        let sortedFrames = frames.keys.sorted().map { key -> (String, JSONOutput) in
            var object = fields(frames[key]!)
            switch previous[key] {
            case nil: break
            case .absent?: object.append(("previous", .null))
            case .entry(let old)?: object.append(("previous", .object(fields(old))))
            }
            return (key, .object(object))
        }
        object.append(("frames", .object(sortedFrames)))
        return JSONWriter(style: .pretty).bytes(.object(object)) + [0x0A]
    }
}

/// What rendered a set of goldens: library versions, font file hashes, CPU architecture. The
/// same fixture gives the same pixels only under the same environment.
public struct RenderEnvironment: Sendable, Equatable {
    public var architecture: String
    /// Library name → version, sorted by name when written.
    public var libraries: [String: String]
    /// Font file name → hash of its bytes.
    public var fonts: [String: String]

    public init(architecture: String, libraries: [String: String], fonts: [String: String]) {
        self.architecture = architecture
        self.libraries = libraries
        self.fonts = fonts
    }

    var json: JSONOutput {
        .object([
            ("architecture", .string(architecture)),
            ("libraries", .object(libraries.keys.sorted().map { ($0, .string(libraries[$0]!)) })),
            ("fonts", .object(fonts.keys.sorted().map { ($0, .string(fonts[$0]!)) })),
        ])
    }

    static func decode(_ element: JSONElement) throws(JSONDecodingError) -> RenderEnvironment {
        let o = try element.object()
        let arch = try o.required("architecture").string()
        func table(_ key: String) throws(JSONDecodingError) -> [String: String] {
            let t = try o.required(key).object()
            var result: [String: String] = [:]
            for m in t.members { result[m.key] = try t.required(m.key).string() }
            try t.finish()
            return result
        }
        let env = RenderEnvironment(architecture: arch, libraries: try table("libraries"), fonts: try table("fonts"))
        try o.finish()
        return env
    }

    /// Human-readable differences, `pango 1.50.12 → 1.52.0`.
    public func differences(from recorded: RenderEnvironment) -> [String] {
        var lines: [String] = []
        if architecture != recorded.architecture {
            lines.append("architecture \(recorded.architecture) → \(architecture)")
        }
        for key in Set(libraries.keys).union(recorded.libraries.keys).sorted()
        where libraries[key] != recorded.libraries[key] {
            lines.append("\(key) \(recorded.libraries[key] ?? "none") → \(libraries[key] ?? "none")")
        }
        for key in Set(fonts.keys).union(recorded.fonts.keys).sorted() where fonts[key] != recorded.fonts[key] {
            lines.append(
                "font \(key) \(recorded.fonts[key].map { "hash " + $0 } ?? "absent") → \(fonts[key].map { "hash " + $0 } ?? "absent")"
            )
        }
        return lines
    }
}
