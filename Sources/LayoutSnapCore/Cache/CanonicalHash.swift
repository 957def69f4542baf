@_spi(Reflection) import Swift
import Foundation

/// Feeds a decoded value into a SHA-256 in one canonical form: every stored property, named,
/// in declaration order (as `Mirror` lists them; `Walk` reads most of them without it), each
/// leaf as its type and its exact text (a Double's shortest round-trip digits), strings with
/// their length. Dictionaries and sets, whose order
/// changes from process to process, go in sorted by their entries' own canonical form. So two
/// fixtures that decode to the same values hash alike however their JSON was written (key
/// order, whitespace, a default written out), and any field that differs changes the hash,
/// including fields added later: nothing here names a field.
public enum CanonicalHash {
    public static func update(_ hasher: inout SHA256, with value: Any) {
        hasher.update(bytes(of: value))
    }

    /// The canonical bytes `update` hashes. `fast: false` walks every value with `Mirror`: the
    /// tests' reference for the walks below, which must give the same bytes.
    static func bytes(of value: Any, fast: Bool = true) -> [UInt8] {
        var encoder = Encoder(known: fast ? known.withLock { $0 } : Known(walks: nil))
        let before = encoder.known.count
        encoder.out.reserveCapacity(4096)
        encoder.write(value)
        if fast, encoder.known.count > before {
            known.withLock { $0.merge(encoder.known) }
        }
        return encoder.out
    }

    /// What is worked out once per type (or enum case) in this process: every fixture's key
    /// walks the same types.
    static let known = KnownInProcess()

    /// `Known` behind a pthread mutex (`NSLock`) rather than `Mutex`: ThreadSanitizer does not
    /// see `Mutex` hand the value from one thread to the next when they contend for it, and
    /// reported four workers merging what they learnt as a race.
    final class KnownInProcess: @unchecked Sendable {  // every access under `lock`
        private let lock = NSLock()
        private var value = Known()

        func withLock<T>(_ body: (inout Known) -> T) -> T {
            lock.lock()
            defer { lock.unlock() }
            return body(&value)
        }
    }

    struct Known: @unchecked Sendable {  // names, offsets and metatypes: immutable once made
        var typeNames: [ObjectIdentifier: [UInt8]] = [:]
        /// nil: everything through `Mirror` (the reference walk).
        var walks: [ObjectIdentifier: Walk]? = [:]
        /// The bytes of an enum case without payload, by its type and bits.
        var cases: [CaseKey: [UInt8]] = [:]

        /// The types whose values go straight to their walk (`Walk.of`'s `direct`).
        var direct: Set<ObjectIdentifier> = []

        var count: Int { typeNames.count + (walks?.count ?? 0) + cases.count }

        mutating func merge(_ other: Known) {
            typeNames.merge(other.typeNames) { old, _ in old }
            if let more = other.walks { walks?.merge(more) { old, _ in old } }
            cases.merge(other.cases) { old, _ in old }
            direct.formUnion(other.direct)
        }
    }

    struct CaseKey: Hashable {
        var type: ObjectIdentifier
        var bits: (UInt64, UInt64)

        static func == (a: CaseKey, b: CaseKey) -> Bool { a.type == b.type && a.bits == b.bits }
        func hash(into hasher: inout Hasher) {
            hasher.combine(type)
            hasher.combine(bits.0)
            hasher.combine(bits.1)
        }
    }

    /// How the values of one type are walked, worked out from its first value. `Mirror` is
    /// slow where it is used most: it looks up a field's type by its mangled name each time a
    /// child is asked for, and boxes every child; a key worked out without its memo (a chat of
    /// 500 messages, a run with only a remote store) was mostly that. Each walk here gives
    /// `Mirror`'s bytes, and a type it cannot vouch for stays with `Mirror`.
    enum Walk {
        /// A plain struct (no custom mirror, at least one field): its stored fields as its
        /// metadata lists them, read at their offsets.
        case fields(Any.Type, [Field])
        /// An `Array`: its elements, unlabelled.
        case elements(Any.Type, any ElementsReader.Type)
        case optional(any PayloadReader.Type)
        /// An enum of at most 16 bytes: a case without payload is remembered by its bits.
        case cases(Any.Type, size: Int)
        case mirror

        /// `direct`: told by its metadata alone (an array, or a struct or enum of layoutsnap's),
        /// so a value of the type is no leaf and no substitute.
        static func of(_ type: Any.Type, sample: Any) -> (walk: Walk, direct: Bool) {
            // Arrays, optionals and layoutsnap's own structs and enums are told by their metadata,
            // not by `Mirror`: `Mirror(reflecting:)` and a cast to a protocol each scan every
            // protocol conformance in the process the first time they meet a type (an array or an
            // optional of each element type is a type of its own), and a run keys fixtures of some
            // fifty types: a tenth of a warm remote run's instructions.
            switch _MetadataKind(rawValue: metadataKind(type)) {
            case .optional?:
                return (.optional(payloadReader(genericArgument(of: type))), false)
            case .struct? where descriptor(of: type) == descriptor(of: [Int].self):
                return (.elements(type, elementsReader(genericArgument(of: type))), true)
            case .struct? where isOwn(type):
                // None of layoutsnap's types has a custom mirror (debug builds check it here, and
                // CanonicalWalkTests compares every fixture's bytes with `Mirror`'s).
                assert(!(type is any CustomReflectable.Type), "\(type) has a custom mirror")
                return (fields(of: type) ?? .mirror, true)
            case .enum? where isOwn(type):
                assert(!(type is any CustomReflectable.Type), "\(type) has a custom mirror")
                return (size(of: type) <= 16 ? .cases(type, size: size(of: type)) : .mirror, true)
            default:
                break
            }
            return (mirrored(type, sample: sample), false)
        }

        /// Any other type's walk, told by `Mirror`.
        static func mirrored(_ type: Any.Type, sample: Any) -> Walk {
            let mirror = Mirror(reflecting: sample)
            switch mirror.displayStyle {
            case .struct:
                guard !(type is any CustomReflectable.Type), mirror.superclassMirror == nil,
                    let walk = fields(of: type), case .fields(_, let fields) = walk,
                    fields.map(\.label) == mirror.children.map({ Array(($0.label ?? "_").utf8) })
                else { return .mirror }
                return walk
            case .enum:
                let bytes = size(of: type)
                guard !(type is any CustomReflectable.Type), bytes <= 16 else { return .mirror }
                return .cases(type, size: bytes)
            default:
                return .mirror
            }
        }

        /// A struct's stored fields as its metadata lists them; nil when one cannot be read by
        /// offset, or there are none.
        static func fields(of type: Any.Type) -> Walk? {
            var fields: [Field] = []
            // A field of class type may be `weak` or `unowned`, whose storage is not a plain
            // reference: such a struct stays with `Mirror`, which reads it as it is.
            // (CanonicalWalkTests checks the model has no field of a class-bound protocol type,
            // which could be `unowned` too.)
            let listed = _forEachField(of: type) { name, offset, fieldType, kind in
                guard kind != .class, kind != .optional || !(genericArgument(of: fieldType) is AnyObject.Type)
                else { return false }
                func reader<T>(_: T.Type) -> any FieldReader.Type { Value<T>.self }
                fields.append(
                    Field(
                        label: Array(String(cString: name).utf8), offset: offset, type: fieldType, kind: kind,
                        reader: _openExistential(fieldType, do: reader), leaf: Leaf(fieldType)))
                return true
            }
            guard listed, !fields.isEmpty else { return nil }
            return .fields(type, fields)
        }

        static func size(of type: Any.Type) -> Int {
            func size<T>(_: T.Type) -> Int { MemoryLayout<T>.size }
            return _openExistential(type, do: size)
        }

        /// Declared in one of layoutsnap's own modules.
        static func isOwn(_ type: Any.Type) -> Bool {
            _typeName(type, qualified: true).utf8.starts(with: "LayoutSnap".utf8)
        }

        static func payloadReader(_ wrapped: Any.Type) -> any PayloadReader.Type {
            func reader<T>(_: T.Type) -> any PayloadReader.Type { Payload<T>.self }
            return _openExistential(wrapped, do: reader)
        }

        static func elementsReader(_ element: Any.Type) -> any ElementsReader.Type {
            func reader<T>(_: T.Type) -> any ElementsReader.Type { Elements<T>.self }
            return _openExistential(element, do: reader)
        }
    }

    /// The kind of a type's metadata (struct, enum, optional, class, …), as `Mirror` reads it.
    static func metadataKind(_ type: Any.Type) -> UInt { swiftGetMetadataKind(type) }

    /// The nominal type descriptor of a struct's or enum's metadata: the same for every
    /// specialisation of one generic type (`[Int]` and `[Fixture]`).
    static func descriptor(of type: Any.Type) -> UnsafeRawPointer {
        unsafeBitCast(type, to: UnsafeRawPointer.self).load(
            fromByteOffset: MemoryLayout<Int>.size, as: UnsafeRawPointer.self)
    }

    /// The first generic argument of a generic struct or enum (an array's element, an optional's
    /// wrapped type): value metadata is its kind and descriptor, then the generic arguments.
    /// Only for such types (an array or an optional, told by `descriptor` or the kind).
    static func genericArgument(of type: Any.Type) -> Any.Type {
        unsafeBitCast(type, to: UnsafeRawPointer.self).load(
            fromByteOffset: 2 * MemoryLayout<Int>.size, as: Any.Type.self)
    }

    /// A stored field of a struct: its name, where it is, its type and how it is read.
    struct Field {
        var label: [UInt8]
        var offset: Int
        var type: Any.Type
        var kind: _MetadataKind
        var reader: any FieldReader.Type
        /// A field of type String, Double, Int or Bool is written from its storage, unboxed.
        var leaf: Leaf?
    }

    /// The leaves `Encoder.write` writes as text, by the field's declared type.
    enum Leaf {
        case string, double, int, bool

        init?(_ type: Any.Type) {
            switch ObjectIdentifier(type) {
            case ObjectIdentifier(String.self): self = .string
            case ObjectIdentifier(Double.self): self = .double
            case ObjectIdentifier(Int.self): self = .int
            case ObjectIdentifier(Bool.self): self = .bool
            default: return nil
            }
        }
    }

    protocol FieldReader {
        /// The field's value at `address`. A field of protocol type comes out boxed as that
        /// protocol, not as what it holds: `writeFields` unboxes a struct held so, and an enum
        /// held so goes to `Mirror`.
        static func value(at address: UnsafeRawPointer) -> Any
    }

    enum Value<T>: FieldReader {
        static func value(at address: UnsafeRawPointer) -> Any { address.load(as: T.self) }
    }

    protocol ElementsReader {
        /// The count of the array in `value`; nil when `value` is not such an array.
        static func count(of value: Any) -> Int?
        /// Each element, boxed as `Mirror` boxes it.
        static func forEach(in value: Any, _ body: (Any) -> Void)
    }

    enum Elements<Element>: ElementsReader {
        static func count(of value: Any) -> Int? { (value as? [Element])?.count }

        static func forEach(in value: Any, _ body: (Any) -> Void) {
            for element in value as? [Element] ?? [] { body(element) }
        }
    }

    protocol PayloadReader {
        /// `.some(wrapped)` or `.some(nil)`; nil when `value` is not such an optional.
        static func payload(of value: Any) -> Any??
    }

    enum Payload<Wrapped>: PayloadReader {
        static func payload(of value: Any) -> Any?? {
            guard let optional = value as? Wrapped? else { return nil }
            return .some(optional.map { $0 as Any })
        }
    }

    /// The types that hash as their `canonicalValue`, found by their type rather than by a cast
    /// to `CanonicallyHashed`: such a cast scans every protocol conformance in the process the
    /// first time it meets a type, and the settings' walk meets hundreds of types (most of a warm
    /// run's hashing). A new conformer is added here; debug builds check that none is missing.
    static let substitutes: [ObjectIdentifier: @Sendable (Any) -> Any] = [
        substitute(InputFile.self), substitute(PostImage.self), substitute(ThemePatch.self), substitute(Theme.self),
    ].reduce(into: [:]) { $0[$1.0] = $1.1 }

    private static func substitute<T: CanonicallyHashed & Sendable>(
        _ type: T.Type
    ) -> (ObjectIdentifier, @Sendable (Any) -> Any) {
        (ObjectIdentifier(type), { ($0 as! T).canonicalValue })
    }

    /// The name of the case an enum value is, as declared, without `String(describing:)`: that
    /// asks the type for three printing protocols, each a scan of every protocol conformance in
    /// the process the first time, for each enum type a run's keys meet (a sixth of what the
    /// keys of a cold run cost). nil when the runtime has no name for it.
    static func caseName(_ value: Any) -> String? {
        func name<T>(_ value: T) -> String? { swiftEnumCaseName(value).map { String(cString: $0) } }
        return _openExistential(value, do: name)
    }

    /// One value's canonical bytes. Type names are looked up once per type: type names and
    /// `Mirror` are what this costs, so the common leaves (strings, numbers, booleans) skip
    /// both.
    struct Encoder {
        var out: [UInt8] = []
        var known = Known()

        mutating func typeName(_ type: Any.Type) -> [UInt8] {
            let id = ObjectIdentifier(type)
            if let name = known.typeNames[id] { return name }
            // Not `String(reflecting:)`: it asks the metatype for three printing protocols
            // first, each a scan of every conformance in the process.
            let name = Array(_typeName(type, qualified: true).utf8)
            known.typeNames[id] = name
            return name
        }

        mutating func leaf(_ tag: UInt8, _ text: String) {
            out.append(tag)
            var text = text
            text.withUTF8 { bytes in
                decimal(bytes.count)
                out.append(UInt8(ascii: ":"))
                out += bytes
            }
        }

        /// `value`'s decimal digits, as `"\(value)"` writes them, without making that string.
        mutating func decimal(_ value: Int) {
            guard value >= 0 else {
                out += Array(String(value).utf8)
                return
            }
            var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: any Int's digits
            var count = 0
            var rest = UInt64(value)
            withUnsafeMutableBytes(of: &digits) { buffer in
                repeat {
                    count += 1
                    buffer[24 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                } while rest > 0
                out += UnsafeRawBufferPointer(rebasing: buffer[(24 - count)...])
            }
        }

        mutating func write(_ value: Any) {
            let id = ObjectIdentifier(type(of: value))
            // An array or one of layoutsnap's structs and enums casts to no leaf and is no
            // substitute: it goes straight to its walk, without four casts that fail.
            if !known.direct.contains(id) {
                switch value {
                case let s as String: return string(s)
                // The shortest digits that read back as the same bits.
                case let d as Double: return double(d)
                case let i as Int: return integer(i)
                case let b as Bool: return bool(b)
                default: break
                }
                if let substitute = CanonicalHash.substitutes[id] {
                    return write(substitute(value))
                }
            }
            if known.walks != nil, walked(value, id) { return }
            let mirror = Mirror(reflecting: value)
            // An optional casts to what it wraps: the wrapped value is checked on its own.
            assert(
                mirror.displayStyle == .optional || !(value is any CanonicallyHashed),
                "CanonicalHash.substitutes lacks \(type(of: value))")
            switch mirror.displayStyle {
            case .optional:
                if let some = mirror.children.first {
                    out.append(UInt8(ascii: "?"))
                    write(some.value)
                } else {
                    out.append(UInt8(ascii: "~"))
                }
            case .dictionary, .set:
                // Sorted by each entry's bytes: the same entries give the same bytes in any order.
                var entries: [[UInt8]] = []
                for child in mirror.children {
                    var inner = Encoder(out: [], known: known)
                    inner.write(child.value)
                    known = inner.known
                    entries.append(inner.out)
                }
                entries.sort { $0.lexicographicallyPrecedes($1) }
                open(UInt8(ascii: "{"), mirror.subjectType, count: entries.count)
                for entry in entries { out += entry }
                out.append(UInt8(ascii: "}"))
            case .collection, .tuple:
                open(UInt8(ascii: "["), mirror.subjectType, count: Int(mirror.children.count))
                for child in mirror.children {
                    label(child.label)
                    write(child.value)
                }
                out.append(UInt8(ascii: "]"))
            case .struct, .class, .enum:
                if mirror.children.isEmpty {
                    // A case without payload, by its name; a struct of no stored fields (or a
                    // leaf that reflects as one) by its description.
                    out += typeName(mirror.subjectType)
                    let caseName = mirror.displayStyle == .enum ? CanonicalHash.caseName(value) : nil
                    leaf(UInt8(ascii: "="), caseName ?? String(describing: value))
                    return
                }
                open(UInt8(ascii: "("), mirror.subjectType, count: Int(mirror.children.count))
                var current: Mirror? = mirror
                while let m = current {
                    // An enum's payload is labelled with its case's name.
                    for child in m.children {
                        label(child.label)
                        write(child.value)
                    }
                    current = m.superclassMirror
                }
                out.append(UInt8(ascii: ")"))
            default:
                out += typeName(mirror.subjectType)
                leaf(UInt8(ascii: "="), String(describing: value))
            }
        }

        /// The four leaves, each one way, whether met boxed (`write`) or in a field (`writeFields`).
        mutating func string(_ s: String) { leaf(UInt8(ascii: "s"), s) }

        /// The shortest digits that read back as the same bits.
        mutating func double(_ d: Double) { leaf(UInt8(ascii: "d"), d.description) }

        mutating func bool(_ b: Bool) { out.append(b ? UInt8(ascii: "T") : UInt8(ascii: "F")) }

        /// An Int as `leaf("i", i.description)` writes it.
        mutating func integer(_ i: Int) {
            guard i >= 0 else { return leaf(UInt8(ascii: "i"), i.description) }
            var digits = 1
            var n = i
            while n >= 10 {
                n /= 10
                digits += 1
            }
            out.append(UInt8(ascii: "i"))
            decimal(digits)
            out.append(UInt8(ascii: ":"))
            decimal(i)
        }

        /// `value` written by its type's walk; false for `Mirror` to write it.
        mutating func walked(_ value: Any, _ id: ObjectIdentifier) -> Bool {
            let walk: Walk
            if let made = known.walks?[id] {
                walk = made
            } else {
                let made = Walk.of(type(of: value), sample: value)
                walk = made.walk
                known.walks?[id] = walk
                if made.direct { known.direct.insert(id) }
            }
            switch walk {
            case .fields(let type, let fields): return writeFields(value, type, fields)
            case .elements(let type, let reader):
                guard let count = reader.count(of: value) else { return false }
                open(UInt8(ascii: "["), type, count: count)
                reader.forEach(in: value) { element in
                    out += [UInt8(ascii: "_"), UInt8(ascii: "=")]
                    write(element)
                }
                out.append(UInt8(ascii: "]"))
                return true
            case .optional(let reader):
                guard let payload = reader.payload(of: value) else { return false }
                if let some = payload {
                    out.append(UInt8(ascii: "?"))
                    write(some)
                } else {
                    out.append(UInt8(ascii: "~"))
                }
                return true
            case .cases(let type, let size):
                func bits<T>(_ opened: T) -> CaseKey? {
                    guard T.self == type else { return nil }
                    var key = CaseKey(type: id, bits: (0, 0))
                    withUnsafeBytes(of: opened) { source in
                        withUnsafeMutableBytes(of: &key.bits) {
                            $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: source.prefix(size)))
                        }
                    }
                    return key
                }
                guard let key = _openExistential(value, do: bits) else { return false }
                if let bytes = known.cases[key] {
                    out += bytes
                    return true
                }
                // A case with a payload is walked by `Mirror`; one without is remembered. (The
                // runtime's count of its children, as `Mirror` asks it, without `Mirror`'s cast.)
                func children<T>(_ opened: T) -> Int { swiftReflectionMirrorCount(opened, type: T.self) }
                guard _openExistential(value, do: children) == 0 else { return false }
                let start = out.count
                out += typeName(type)
                leaf(UInt8(ascii: "="), CanonicalHash.caseName(value) ?? String(describing: value))
                // Bounded: bytes a case leaves unset could make each value's bits new.
                if known.cases.count < 4096 { known.cases[key] = Array(out[start...]) }
                return true
            case .mirror:
                return false
            }
        }

        /// A struct as `Mirror` writes it: `(`, its type, its fields by name, `)`; a value that
        /// holds it inside another existential (a field or an element of protocol type, which
        /// opens to that protocol rather than to the struct) is unboxed first; false when `value`
        /// holds no such struct.
        mutating func writeFields(_ value: Any, _ type: Any.Type, _ fields: [Field]) -> Bool {
            func write<T>(_ opened: T) -> Bool {
                guard T.self == type else { return false }
                assert(!(opened is any CanonicallyHashed), "CanonicalHash.substitutes lacks \(T.self)")
                open(UInt8(ascii: "("), T.self, count: fields.count)
                withUnsafePointer(to: opened) { pointer in
                    let base = UnsafeRawPointer(pointer)
                    for field in fields {
                        out += field.label
                        out.append(UInt8(ascii: "="))
                        let address = base + field.offset
                        switch field.leaf {
                        case .string?: string(address.load(as: String.self))
                        case .double?: double(address.load(as: Double.self))
                        case .int?: integer(address.load(as: Int.self))
                        case .bool?: bool(address.load(as: Bool.self))
                        case nil: self.write(field.reader.value(at: address))
                        }
                    }
                }
                out.append(UInt8(ascii: ")"))
                return true
            }
            if _openExistential(value, do: write) { return true }
            // Held inside another existential (a field of protocol type): the struct itself.
            guard let inner = unboxed(value, as: type) else { return false }
            return _openExistential(inner, do: write)
        }

        /// `value` as a value of `type` itself, when it holds one inside another existential
        /// (opening `value` gives that existential's type, not `type`).
        func unboxed(_ value: Any, as type: Any.Type) -> Any? {
            func cast<T>(_: T.Type) -> Any? { (value as? T).map { $0 as Any } }
            return _openExistential(type, do: cast)
        }

        mutating func open(_ mark: UInt8, _ type: Any.Type, count: Int) {
            out.append(mark)
            out += typeName(type)
            out.append(UInt8(ascii: "#"))
            decimal(count)
            out.append(UInt8(ascii: ":"))
        }

        mutating func label(_ label: String?) {
            out += Array((label ?? "_").utf8)
            out.append(UInt8(ascii: "="))
        }
    }
}

/// The runtime's name of an enum value's case (what `Mirror` and `print` use underneath); declared
/// as the standard library declares it for itself.
@_silgen_name("swift_EnumCaseName")
private func swiftEnumCaseName<T>(_ value: T) -> UnsafePointer<CChar>?

/// The kind of a type's metadata (what `_MetadataKind` names), as the standard library asks it.
@_silgen_name("swift_getMetadataKind")
private func swiftGetMetadataKind(_ type: Any.Type) -> UInt

/// How many children `Mirror` would list for `value` of `type`, without its cast to
/// `CustomReflectable`; declared as the standard library declares it for itself.
@_silgen_name("swift_reflectionMirror_count")
private func swiftReflectionMirrorCount<T>(_ value: T, type: Any.Type) -> Int
