import LayoutSnapCore
import LayoutSnapJSON

/// Reads a manifest.json frame by frame. The manifest of 10,000 fixtures holds some 100,000
/// frames (14 MB of JSON); parsed whole into a tree with positions it took 80 MB at once. Here
/// the `frames` object is walked member by member and each member's small value is parsed on its
/// own, so only the entries themselves stay. Every value is still parsed by `JSONParser` and
/// decoded by `GoldenManifest`'s own rules; the walk checks only the punctuation between them.
///
/// Anything this walk does not expect (a duplicate key, bad punctuation, a value that does not
/// parse) returns nil: the caller then parses the whole document the usual way, whose error names
/// the exact line and column. A manifest is read one way only when both would agree.
enum ManifestReader {
    static func read(_ bytes: [UInt8]) -> GoldenManifest? {
        bytes.withUnsafeBufferPointer { buffer in
            var walk = Walk(bytes: buffer)
            return walk.document()
        }
    }

    private struct Walk {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            // A UTF-8 byte order mark, as JSONParser allows.
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        }

        mutating func document() -> GoldenManifest? {
            var version: Int?
            var environment: RenderEnvironment??
            var frames: [String: GoldenManifest.Entry]?
            var previous: [String: GoldenManifest.Previous] = [:]
            let complete = members { key, walk in
                switch key {
                case "version" where version == nil:
                    guard let element = walk.value(), let v = try? element.int(), v == GoldenManifest.formatVersion
                    else { return false }
                    version = v
                case "environment" where environment == nil:
                    guard let element = walk.value() else { return false }
                    if element.isNull { return false }
                    guard let e = try? RenderEnvironment.decode(element) else { return false }
                    environment = .some(e)
                case "frames" where frames == nil:
                    var found: [String: GoldenManifest.Entry] = [:]
                    let ok = walk.members { key, walk in
                        guard found[key] == nil else { return false }
                        walk.skipSpace()
                        if let entry = walk.plainEntry() {
                            found[key] = entry
                            return true
                        }
                        guard let element = walk.value(), let object = try? element.object(),
                            let (entry, old) = try? GoldenManifest.decodeFrame(object)
                        else { return false }
                        found[key] = entry
                        if let old { previous[key] = old }
                        return true
                    }
                    guard ok else { return false }
                    frames = found
                default:
                    return false
                }
                return true
            }
            skipSpace()
            guard complete, i == bytes.count, version != nil, let frames else { return nil }
            var manifest = GoldenManifest(environment: environment ?? nil, frames: frames)
            manifest.previous = previous
            return manifest
        }

        /// `{ "key": value, ... }` with `member` reading each value; false when anything is off.
        mutating func members(_ member: (String, inout Walk) -> Bool) -> Bool {
            skipSpace()
            guard next() == UInt8(ascii: "{") else { return false }
            skipSpace()
            if peek() == UInt8(ascii: "}") {
                i += 1
                return true
            }
            while true {
                skipSpace()
                guard let key = string() else { return false }
                skipSpace()
                guard next() == UInt8(ascii: ":") else { return false }
                guard member(key, &self) else { return false }
                skipSpace()
                switch next() {
                case UInt8(ascii: ","): continue
                case UInt8(ascii: "}"): return true
                default: return false
                }
            }
        }

        /// The value that starts here, parsed on its own.
        mutating func value() -> JSONElement? {
            skipSpace()
            let start = i
            guard skipValue() else { return nil }
            guard let node = try? JSONParser.parse(UnsafeBufferPointer(rebasing: bytes[start..<i])) else { return nil }
            return JSONElement(node)
        }

        /// The common entry, `{"pixels": "…", "file": "…", "size": [w, h]}` (members in any order),
        /// read straight from the bytes: parsing each of 100,000 entries into a tree and an
        /// object reader was most of a warm run's manifest. Only what both ways read alike is
        /// taken here (plain ASCII strings, small whole numbers, each member once, no other);
        /// for anything else it returns nil with nothing consumed, and `value()` reads it.
        mutating func plainEntry() -> GoldenManifest.Entry? {
            let start = i
            var pixels: String?
            var file: String?
            var size: (Int, Int)?
            func fail() -> GoldenManifest.Entry? {
                i = start
                return nil
            }
            guard next() == UInt8(ascii: "{") else { return fail() }
            while true {
                skipSpace()
                guard let key = plainString() else { return fail() }
                skipSpace()
                guard next() == UInt8(ascii: ":") else { return fail() }
                skipSpace()
                switch key {
                case "pixels" where pixels == nil:
                    guard let value = plainString() else { return fail() }
                    pixels = value
                case "file" where file == nil:
                    guard let value = plainString() else { return fail() }
                    file = value
                case "size" where size == nil:
                    guard next() == UInt8(ascii: "["), let w = plainInt(), next() == UInt8(ascii: ","),
                        let h = plainInt(), next() == UInt8(ascii: "]")
                    else { return fail() }
                    size = (w, h)
                default: return fail()
                }
                skipSpace()
                switch next() {
                case UInt8(ascii: ","): continue
                case UInt8(ascii: "}"):
                    guard let pixels, let file, let size else { return fail() }
                    return GoldenManifest.Entry(pixels: pixels, file: file, width: size.0, height: size.1)
                default: return fail()
                }
            }
        }

        /// A string of printable ASCII without escapes, or nil.
        mutating func plainString() -> String? { PlainString.read(bytes, at: &i) }

        /// A whole number of up to 9 digits, spaces around it skipped, or nil.
        mutating func plainInt() -> Int? {
            skipSpace()
            let start = i
            var value = 0
            while let b = peek(), (0x30...0x39).contains(b), i - start < 9 {
                value = value * 10 + Int(b - 0x30)
                i += 1
            }
            guard i > start, bytes[start] != 0x30 || i - start == 1, let b = peek(),
                b == UInt8(ascii: ",") || b == UInt8(ascii: "]") || isSpace(b)
            else { return nil }
            skipSpace()
            return value
        }

        /// A string, its escapes decoded by JSONParser.
        mutating func string() -> String? {
            if let plain = plainString() { return plain }
            let start = i
            guard peek() == UInt8(ascii: "\""), skipString() else { return nil }
            guard let node = try? JSONParser.parse(UnsafeBufferPointer(rebasing: bytes[start..<i])),
                case .string(let s) = node.value
            else { return nil }
            return s
        }

        /// Moves past one value: a string, a nested object or array, or a literal.
        mutating func skipValue() -> Bool {
            guard let first = peek() else { return false }
            switch first {
            case UInt8(ascii: "\""):
                return skipString()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while let b = peek() {
                    switch b {
                    case UInt8(ascii: "\""):
                        guard skipString() else { return false }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 {
                            i += 1
                            return true
                        }
                    default: break
                    }
                    i += 1
                }
                return false
            default:
                let start = i
                while let b = peek(), b != UInt8(ascii: ","), b != UInt8(ascii: "}"), b != UInt8(ascii: "]"),
                    !isSpace(b)
                { i += 1 }
                return i > start
            }
        }

        mutating func skipString() -> Bool {
            i += 1
            while let b = peek() {
                i += 1
                if b == UInt8(ascii: "\\") { i += 1 } else if b == UInt8(ascii: "\"") { return i <= bytes.count }
            }
            return false
        }

        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }
        mutating func skipSpace() { while let b = peek(), isSpace(b) { i += 1 } }
        func peek() -> UInt8? { i < bytes.count ? bytes[i] : nil }
        mutating func next() -> UInt8? {
            defer { i += 1 }
            return peek()
        }
    }
}
