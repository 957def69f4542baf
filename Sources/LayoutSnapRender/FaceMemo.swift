import CRenderLibraries
import Foundation
import LayoutSnapImaging
import LayoutSnapSystem

/// fontconfig's reading of a font file's faces (each face's pattern: names, style, the
/// characters it covers, its languages), remembered per user, as fontconfig itself remembers
/// what it reads of the system's fonts in `~/.cache/fontconfig`. The private configuration reads
/// every face of its files at each set-up, and that reading, most of it the twenty faces of the
/// two Noto CJK collections each listing some 65,000 characters and testing them against every
/// language fontconfig knows, was about 540 million instructions of a cold run's 6,200: the
/// longest part of the start both cores wait for.
///
/// A memo is one file per font file, in `$XDG_CACHE_HOME/layoutsnap/faces` (or
/// `~/.cache/layoutsnap/faces`), named by a hash of what it holds the reading for and used only
/// while all of that reads the same: the font file's path and `stat` (device, inode, size,
/// modification and change times), fontconfig's and FreeType's versions and the `stat` of their
/// library files, the architecture and the memo's format. Each value is written as it is (a double by its bits, a character set by
/// its pages, a language set by its languages, every value's binding), so the patterns read
/// back are the ones fontconfig made (`FaceMemoTests`); a pattern holding anything else is not
/// remembered. Anything that does not read whole (torn, another format, another file) is read
/// as no memo: the faces are read by fontconfig and the memo written again. It is written only
/// for a file that had not changed for two seconds when the set-up began and whose `stat` is the
/// same after the reading (a change within the file system's time granularity could keep it).
enum FaceMemo {
    static let header = Array("layoutsnap faces 1\n".utf8)

    /// How long ago a file must have last changed for its memo to be written, in nanoseconds.
    static let settle: Int64 = 2_000_000_000

    /// The folder, from the environment; nil when neither `XDG_CACHE_HOME` nor `HOME` names one.
    static func folder(environment: [String: String] = ProcessEnvironment.values(UserCache.variables)) -> String? {
        UserCache.folder(environment: environment).map { $0 + "/faces" }
    }

    /// What a memo of `path` holds the reading for, one line; `libraries` is `libraries()`.
    static func identity(path: String, signature: FileHashMemo.Signature, libraries: String) -> String {
        let s = signature
        return "\(RenderLibraries.architecture) \(libraries) stat \(s.device) \(s.inode) \(s.size) \(s.modified) "
            + "\(s.changed) \(path.utf8.count):\(path)"
    }

    /// fontconfig's and FreeType's versions and the `stat` of the files the loader took for them:
    /// a distribution's fix keeps a library's version but replaces its file.
    static func libraries() -> String {
        let versions = RenderLibraries.versions()
        var line = "fontconfig \(versions["fontconfig"] ?? "?") freetype \(versions["freetype"] ?? "?")"
        for i in 0..<Int(layoutsnap_render_library_count()) {
            guard let file = layoutsnap_render_library_file(Int32(i)).map({ String(cString: $0) }),
                file.contains("libfontconfig") || file.contains("libfreetype")
            else { continue }
            let s = FileHashMemo.signature(file)
            line += " \(file) \(s.map { "\($0.device) \($0.inode) \($0.size) \($0.modified) \($0.changed)" } ?? "?")"
        }
        return line
    }

    static func fileName(_ identity: String) -> String {
        var bytes = Array(identity.utf8)
        return bytes.withUnsafeMutableBytes { PixelHash.hex(PixelHash.ofBytes(UnsafeRawBufferPointer($0))) }
    }

    /// The patterns remembered for `identity` in `folder`, new ones the caller owns; nil when
    /// there is no memo that reads whole.
    static func load(_ identity: String, in folder: String) -> [OpaquePointer]? {
        guard let data = FileManager.default.contents(atPath: folder + "/" + fileName(identity)),
            data.count < 64 << 20
        else { return nil }
        return decode([UInt8](data), identity: identity)
    }

    /// Writes the memo of `patterns` (a file's faces in order, as fontconfig read them); does
    /// nothing when a pattern cannot be written exactly or the folder cannot be written.
    static func save(_ encodedFaces: [[UInt8]], identity: String, in folder: String) {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try? AtomicWriter.write(
            file(encodedFaces, identity: identity), to: folder + "/" + fileName(identity), durable: false)
        trim(folder)
    }

    /// Keeps the folder at most `most` files: past that, the least recently written go until
    /// `keep` are left. A font file that moves or changes leaves its old memo behind (the tests'
    /// copies in temporary folders do at every run); one still in use is written again at its
    /// next run.
    static func trim(_ folder: String, most: Int = 256, keep: Int = 128) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder), names.count > most else {
            return
        }
        let dated = names.map { name -> (String, Int64) in
            let path = folder + "/" + name
            return (path, FileHashMemo.signature(path, followsLinks: false)?.modified ?? 0)
        }
        for (path, _) in dated.sorted(by: { $0.1 < $1.1 }).prefix(names.count - keep) {
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// The whole memo file: header, identity, the faces, then a hash of all before it.
    static func file(_ encodedFaces: [[UInt8]], identity: String) -> [UInt8] {
        var out = header
        var writer = Writer(bytes: [])
        writer.string(identity)
        writer.u32(UInt32(encodedFaces.count))
        for face in encodedFaces {
            writer.u32(UInt32(face.count))
            writer.bytes += face
        }
        out += writer.bytes
        let sum = out.withUnsafeBytes { PixelHash.ofBytes($0) }
        withUnsafeBytes(of: sum.littleEndian) { out += $0 }
        return out
    }

    static func decode(_ bytes: [UInt8], identity: String) -> [OpaquePointer]? {
        guard bytes.count >= header.count + 8, bytes.starts(with: header) else { return nil }
        let body = bytes.count - 8
        let stored = bytes[body...].withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        let sum = bytes.withUnsafeBytes { PixelHash.ofBytes(UnsafeRawBufferPointer(rebasing: $0[..<body])) }
        guard UInt64(littleEndian: stored) == sum else { return nil }
        var reader = Reader(bytes: bytes, at: header.count, end: body)
        guard reader.string() == identity, let count = reader.u32(), count > 0, count < 4096 else { return nil }
        var patterns: [OpaquePointer] = []
        for _ in 0..<count {
            guard let length = reader.u32(), let face = reader.slice(Int(length)),
                let pattern = decodePattern(face)
            else {
                for pattern in patterns { FcPatternDestroy(pattern) }
                return nil
            }
            patterns.append(pattern)
        }
        guard reader.at == body else {
            for pattern in patterns { FcPatternDestroy(pattern) }
            return nil
        }
        return patterns
    }

    // MARK: - One pattern

    enum Kind: UInt8 {
        case integer = 1
        case double
        case string
        case bool
        case matrix
        case charSet
        case langSet
        case range
    }

    /// Every element of `pattern` in fontconfig's order, each value with its binding; nil when
    /// a value is of a type not written here (a face, or none, which fontconfig does not add) or
    /// bound as "same".
    static func encodePattern(_ pattern: OpaquePointer) -> [UInt8]? {
        var w = Writer(bytes: [])
        var iter = FcPatternIter()
        FcPatternIterStart(pattern, &iter)
        var elements: [[UInt8]] = []
        while FcPatternIterIsValid(pattern, &iter) != 0 {
            guard let object = FcPatternIterGetObject(pattern, &iter) else { return nil }
            var e = Writer(bytes: [])
            e.string(String(cString: object))
            let count = FcPatternIterValueCount(pattern, &iter)
            e.u32(UInt32(count))
            for i in 0..<count {
                var value = FcValue()
                var binding = FcValueBindingWeak
                guard FcPatternIterGetValue(pattern, &iter, i, &value, &binding) == FcResultMatch,
                    binding == FcValueBindingWeak || binding == FcValueBindingStrong,
                    encodeValue(value, into: &e)
                else { return nil }
                e.bytes.append(binding == FcValueBindingStrong ? 1 : 0)
            }
            elements.append(e.bytes)
            if FcPatternIterNext(pattern, &iter) == 0 { break }
        }
        w.u32(UInt32(elements.count))
        for element in elements { w.bytes += element }
        return w.bytes
    }

    private static func encodeValue(_ value: FcValue, into w: inout Writer) -> Bool {
        switch value.type {
        case FcTypeInteger:
            w.bytes.append(Kind.integer.rawValue)
            w.u32(UInt32(bitPattern: value.u.i))
        case FcTypeDouble:
            w.bytes.append(Kind.double.rawValue)
            w.u64(value.u.d.bitPattern)
        case FcTypeString:
            guard let s = value.u.s else { return false }
            w.bytes.append(Kind.string.rawValue)
            let length = strlen(UnsafeRawPointer(s).assumingMemoryBound(to: CChar.self))
            w.u32(UInt32(length))
            w.bytes.append(contentsOf: UnsafeBufferPointer(start: s, count: length))
        case FcTypeBool:
            w.bytes.append(Kind.bool.rawValue)
            w.u32(UInt32(bitPattern: value.u.b))
        case FcTypeMatrix:
            guard let m = value.u.m?.pointee else { return false }
            w.bytes.append(Kind.matrix.rawValue)
            for d in [m.xx, m.xy, m.yx, m.yy] { w.u64(d.bitPattern) }
        case FcTypeCharSet:
            guard let set = value.u.c else { return false }
            w.bytes.append(Kind.charSet.rawValue)
            w.bytes += charSetPages(set)
        case FcTypeLangSet:
            guard let set = value.u.l, let langs = FcLangSetGetLangs(set) else { return false }
            defer { FcStrSetDestroy(langs) }
            var names: [String] = []
            if let list = FcStrListCreate(langs) {
                while let next = FcStrListNext(list) { names.append(String(cString: next)) }
                FcStrListDone(list)
            }
            w.bytes.append(Kind.langSet.rawValue)
            w.u32(UInt32(names.count))
            for name in names { w.string(name) }
        case FcTypeRange:
            guard let range = value.u.r else { return false }
            var begin = 0.0
            var end = 0.0
            guard FcRangeGetDouble(range, &begin, &end) != 0 else { return false }
            w.bytes.append(Kind.range.rawValue)
            w.u64(begin.bitPattern)
            w.u64(end.bitPattern)
        default:
            return false
        }
        return true
    }

    /// A character set as its pages: count, then each page's base and its eight words.
    static func charSetPages(_ set: OpaquePointer) -> [UInt8] {
        var w = Writer(bytes: [])
        var pages: [(UInt32, [UInt32])] = []
        var map = [FcChar32](repeating: 0, count: 8)
        var next: FcChar32 = 0
        var base = map.withUnsafeMutableBufferPointer { FcCharSetFirstPage(set, $0.baseAddress, &next) }
        while base != UInt32.max {
            pages.append((base, map))
            base = map.withUnsafeMutableBufferPointer { FcCharSetNextPage(set, $0.baseAddress, &next) }
        }
        w.u32(UInt32(pages.count))
        for (base, words) in pages {
            w.u32(base)
            for word in words { w.u32(word) }
        }
        return w.bytes
    }

    /// Character sets made from memos, by their pages: a collection's faces (the CJK files'
    /// twenty) mostly share one, made once per process. Kept for the life of the process.
    private static let charSets = LockedValue<[[UInt8]: CharSet]>([:])

    struct CharSet: @unchecked Sendable {
        var pointer: OpaquePointer
    }

    private static func charSet(_ pages: [UInt8]) -> OpaquePointer? {
        if let known = charSets.withLock({ $0[pages] }) { return known.pointer }
        var r = Reader(bytes: pages, at: 0, end: pages.count)
        guard let count = r.u32(), let set = FcCharSetCreate() else { return nil }
        for _ in 0..<count {
            // A page's base is a multiple of 256 below Unicode's end.
            guard let base = r.u32(), base & 0xFF == 0, base <= 0x10_FF00 else {
                FcCharSetDestroy(set)
                return nil
            }
            for word in 0..<8 {
                guard var bits = r.u32() else {
                    FcCharSetDestroy(set)
                    return nil
                }
                while bits != 0 {
                    let bit = UInt32(bits.trailingZeroBitCount)
                    guard FcCharSetAddChar(set, base + UInt32(word) * 32 + bit) != 0 else {
                        FcCharSetDestroy(set)
                        return nil
                    }
                    bits &= bits - 1
                }
            }
        }
        return charSets.withLock { known in
            if let other = known[pages] {
                FcCharSetDestroy(set)
                return other.pointer
            }
            known[pages] = CharSet(pointer: set)
            return set
        }
    }

    static func decodePattern(_ bytes: ArraySlice<UInt8>) -> OpaquePointer? {
        var r = Reader(bytes: Array(bytes), at: 0, end: bytes.count)
        guard let elements = r.u32(), let pattern = FcPatternCreate() else { return nil }
        func fail() -> OpaquePointer? {
            FcPatternDestroy(pattern)
            return nil
        }
        for _ in 0..<elements {
            guard let object = r.string(), let count = r.u32() else { return fail() }
            for _ in 0..<count {
                guard let kindByte = r.byte(), let kind = Kind(rawValue: kindByte) else { return fail() }
                var value = FcValue()
                var release: () -> Void = {}
                switch kind {
                case .integer:
                    guard let i = r.u32() else { return fail() }
                    value.type = FcTypeInteger
                    value.u.i = Int32(bitPattern: i)
                case .double:
                    guard let d = r.u64() else { return fail() }
                    value.type = FcTypeDouble
                    value.u.d = Double(bitPattern: d)
                case .bool:
                    guard let b = r.u32() else { return fail() }
                    value.type = FcTypeBool
                    value.u.b = Int32(bitPattern: b)
                case .string:
                    guard let length = r.u32(), let s = r.slice(Int(length)), !s.contains(0) else { return fail() }
                    let copy = UnsafeMutablePointer<FcChar8>.allocate(capacity: s.count + 1)
                    copy.initialize(from: Array(s), count: s.count)
                    copy[s.count] = 0
                    value.type = FcTypeString
                    value.u.s = UnsafePointer(copy)
                    release = { copy.deallocate() }
                case .matrix:
                    guard let xx = r.u64(), let xy = r.u64(), let yx = r.u64(), let yy = r.u64() else { return fail() }
                    let m = UnsafeMutablePointer<FcMatrix>.allocate(capacity: 1)
                    m.initialize(
                        to: FcMatrix(
                            xx: Double(bitPattern: xx), xy: Double(bitPattern: xy), yx: Double(bitPattern: yx),
                            yy: Double(bitPattern: yy)))
                    value.type = FcTypeMatrix
                    value.u.m = UnsafePointer(m)
                    release = { m.deallocate() }
                case .charSet:
                    let start = r.at
                    guard let pages = r.u32(), r.slice(Int(pages) * 36) != nil,
                        let set = charSet(Array(r.bytes[start..<r.at]))
                    else { return fail() }
                    value.type = FcTypeCharSet
                    value.u.c = set
                case .langSet:
                    guard let count = r.u32(), let set = FcLangSetCreate() else { return fail() }
                    for _ in 0..<count {
                        guard let name = r.string(),
                            name.withCString({
                                FcLangSetAdd(set, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self))
                            })
                                != 0
                        else {
                            FcLangSetDestroy(set)
                            return fail()
                        }
                    }
                    value.type = FcTypeLangSet
                    value.u.l = set
                    release = { FcLangSetDestroy(set) }
                case .range:
                    guard let begin = r.u64(), let end = r.u64(),
                        let range = FcRangeCreateDouble(Double(bitPattern: begin), Double(bitPattern: end))
                    else { return fail() }
                    value.type = FcTypeRange
                    value.u.r = range
                    release = { FcRangeDestroy(range) }
                }
                guard let binding = r.byte(), binding <= 1 else {
                    release()
                    return fail()
                }
                // fontconfig copies the value (a character set by a reference).
                let added = object.withCString {
                    binding == 1 ? FcPatternAdd(pattern, $0, value, 1) : FcPatternAddWeak(pattern, $0, value, 1)
                }
                release()
                guard added != 0 else { return fail() }
            }
        }
        guard r.at == r.end else { return fail() }
        return pattern
    }

    // MARK: - Bytes

    struct Writer {
        var bytes: [UInt8]

        mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
        mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
        mutating func string(_ s: String) {
            u32(UInt32(s.utf8.count))
            bytes += s.utf8
        }
    }

    struct Reader {
        let bytes: [UInt8]
        var at: Int
        let end: Int

        mutating func byte() -> UInt8? {
            guard at < end else { return nil }
            defer { at += 1 }
            return bytes[at]
        }

        mutating func u32() -> UInt32? {
            guard end - at >= 4 else { return nil }
            defer { at += 4 }
            return bytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt32.self)) }
        }

        mutating func u64() -> UInt64? {
            guard end - at >= 8 else { return nil }
            defer { at += 8 }
            return bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
        }

        mutating func slice(_ count: Int) -> ArraySlice<UInt8>? {
            guard count >= 0, end - at >= count else { return nil }
            defer { at += count }
            return bytes[at..<at + count]
        }

        mutating func string() -> String? {
            guard let length = u32(), let s = slice(Int(length)) else { return nil }
            return String(decoding: s, as: UTF8.self)
        }
    }
}
