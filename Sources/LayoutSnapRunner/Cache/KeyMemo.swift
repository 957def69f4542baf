import LayoutSnapCore

/// What the local folder remembers for a fixture (`ResultCache.rememberedKey`): its key, and the
/// SHA-256 of each file it names, so that a warm run checks those files without decoding the
/// fixture to learn which they are. Text, one line each; a path is written with its length, so
/// any byte may be in it:
///
///     layoutsnap key memo 1
///     key <64 hex digits>
///     input <64 hex digits> <bytes>:<path>
///     end
///
/// The last line says the record is whole: a cut one must not pass with fewer inputs checked.
struct KeyMemo: Equatable {
    var key: ResultKey
    var inputs: [(path: String, sha256: String)]

    static let header = "layoutsnap key memo 1\n"

    static func == (a: KeyMemo, b: KeyMemo) -> Bool {
        a.key == b.key && a.inputs.map(\.path) == b.inputs.map(\.path)
            && a.inputs.map(\.sha256) == b.inputs.map(\.sha256)
    }

    func encoded() -> [UInt8] {
        var out = Array(Self.header.utf8) + Array("key \(key.hex)\n".utf8)
        for input in inputs {
            out += Array("input \(input.sha256) \(input.path.utf8.count):".utf8)
            out += Array(input.path.utf8)
            out.append(0x0A)
        }
        return out + Array("end\n".utf8)
    }

    /// nil for anything that is not a whole record (a torn write, another format).
    static func parse(_ bytes: [UInt8]) -> KeyMemo? {
        var reader = RecordReader(bytes: bytes)
        guard reader.take(header), reader.take("key "), let key = reader.hex(), reader.take("\n") else { return nil }
        var inputs: [(path: String, sha256: String)] = []
        while !reader.take("end\n") {
            guard reader.take("input "), let sha = reader.hex(), reader.take(" "), let count = reader.count(),
                reader.take(":"), let path = reader.line(count)
            else { return nil }
            inputs.append((String(decoding: path, as: UTF8.self), sha))
        }
        guard reader.atEnd else { return nil }
        return KeyMemo(key: ResultKey(hex: key), inputs: inputs)
    }
}

/// Reads the local folder's text records one expected piece at a time; each call takes its
/// piece and moves past it, or takes nothing and says so.
struct RecordReader {
    let bytes: [UInt8]
    private var at = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    var atEnd: Bool { at == bytes.count }

    mutating func take(_ text: String) -> Bool {
        let expected = Array(text.utf8)
        guard bytes.count - at >= expected.count, bytes[at..<at + expected.count].elementsEqual(expected) else {
            return false
        }
        at += expected.count
        return true
    }

    /// 64 lowercase hex digits: a SHA-256.
    mutating func hex() -> String? {
        guard bytes.count - at >= 64 else { return nil }
        let digits = bytes[at..<at + 64]
        guard digits.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        at += 64
        return String(decoding: digits, as: UTF8.self)
    }

    /// A decimal count of at most 9 digits.
    mutating func count() -> Int? {
        var count = 0
        var digits = 0
        while at < bytes.count, (0x30...0x39).contains(bytes[at]), digits < 9 {
            count = count * 10 + Int(bytes[at] - 0x30)
            at += 1
            digits += 1
        }
        return digits > 0 ? count : nil
    }

    /// `count` bytes of any value, then a newline.
    mutating func line(_ count: Int) -> [UInt8]? {
        guard bytes.count - at >= count + 1, bytes[at + count] == 0x0A else { return nil }
        defer { at += count + 1 }
        return Array(bytes[at..<at + count])
    }
}

/// What the local folder remembers for the project's defaults (`ResultCache.digest(of:source:
/// folder:)`): their canonical hash, filed under what they were decoded from and this build.
///
///     layoutsnap defaults memo 1
///     digest <64 hex digits>
enum DefaultsMemo {
    static let header = "layoutsnap defaults memo 1\n"

    static func encoded(_ digest: [UInt8]) -> [UInt8] {
        Array(header.utf8) + Array("digest \(SHA256.hex(digest))\n".utf8)
    }

    /// nil for anything that is not a whole record.
    static func parse(_ bytes: [UInt8]) -> [UInt8]? {
        let prefix = Array(header.utf8) + Array("digest ".utf8)
        guard bytes.count == prefix.count + 65, bytes.starts(with: prefix), bytes.last == 0x0A else { return nil }
        var digest: [UInt8] = []
        var high: UInt8?
        for c in bytes[prefix.count..<bytes.count - 1] {
            let nibble: UInt8
            switch c {
            case 0x30...0x39: nibble = c - 0x30
            case 0x61...0x66: nibble = c - 0x61 + 10
            default: return nil
            }
            if let h = high {
                digest.append(h << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return digest
    }
}
