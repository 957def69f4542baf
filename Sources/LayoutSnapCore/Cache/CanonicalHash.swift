import Synchronization

/// Feeds a decoded value into a SHA-256 in one canonical form: every stored property, named,
/// in declaration order (through `Mirror`), each leaf as its type and its exact text (a Double's
/// shortest round-trip digits), strings with their length. Dictionaries and sets, whose order
/// changes from process to process, go in sorted by their entries' own canonical form. So two
/// fixtures that decode to the same values hash alike however their JSON was written (key
/// order, whitespace, a default written out), and any field that differs changes the hash,
/// including fields added later: nothing here names a field.
public enum CanonicalHash {
    public static func update(_ hasher: inout SHA256, with value: Any) {
        var encoder = Encoder(typeNames: knownTypeNames.withLock { $0 })
        let known = encoder.typeNames.count
        encoder.out.reserveCapacity(4096)
        encoder.write(value)
        hasher.update(encoder.out)
        if encoder.typeNames.count > known {
            knownTypeNames.withLock { $0.merge(encoder.typeNames) { old, _ in old } }
        }
    }

    /// Type names already worked out in this process: every fixture's key walks the same types.
    private static let knownTypeNames = Mutex<[ObjectIdentifier: [UInt8]]>([:])

    /// The types that hash as their `canonicalValue`, found by their type rather than by a cast
    /// to `CanonicallyHashed`: such a cast scans every protocol conformance in the process the
    /// first time it meets a type, and the settings' walk meets hundreds of types (most of a warm
    /// run's hashing). A new conformer is added here; debug builds check that none is missing.
    static let substitutes: [ObjectIdentifier: @Sendable (Any) -> Any] = [
        substitute(InputFile.self), substitute(PostImage.self), substitute(ThemePatch.self), substitute(Theme.self),
    ].reduce(into: [:]) { $0[$1.0] = $1.1 }

    private static func substitute<T: CanonicallyHashed>(_ type: T.Type) -> (ObjectIdentifier, @Sendable (Any) -> Any) {
        (ObjectIdentifier(type), { ($0 as! T).canonicalValue })
    }

    /// One value's canonical bytes. Type names are looked up once per type: type names and
    /// `Mirror` are what this costs, so the common leaves (strings, numbers, booleans) skip
    /// both.
    struct Encoder {
        var out: [UInt8] = []
        var typeNames: [ObjectIdentifier: [UInt8]] = [:]

        mutating func typeName(_ type: Any.Type) -> [UInt8] {
            let id = ObjectIdentifier(type)
            if let known = typeNames[id] { return known }
            // Not `String(reflecting:)`: it asks the metatype for three printing protocols
            // first, each a scan of every conformance in the process.
            let name = Array(_typeName(type, qualified: true).utf8)
            typeNames[id] = name
            return name
        }

        mutating func leaf(_ tag: UInt8, _ text: String) {
            out.append(tag)
            var text = text
            text.withUTF8 { bytes in
                out += Array("\(bytes.count):".utf8)
                out += bytes
            }
        }

        mutating func write(_ value: Any) {
            switch value {
            case let s as String: return leaf(UInt8(ascii: "s"), s)
            // The shortest digits that read back as the same bits.
            case let d as Double: return leaf(UInt8(ascii: "d"), d.description)
            case let i as Int: return leaf(UInt8(ascii: "i"), i.description)
            case let b as Bool: return out.append(b ? UInt8(ascii: "T") : UInt8(ascii: "F"))
            default: break
            }
            if let substitute = CanonicalHash.substitutes[ObjectIdentifier(type(of: value))] {
                return write(substitute(value))
            }
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
                    var inner = Encoder(out: [], typeNames: typeNames)
                    inner.write(child.value)
                    typeNames = inner.typeNames
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
                    // A case without payload, or a struct of no stored fields (or a leaf that
                    // reflects as one): its description says which.
                    out += typeName(mirror.subjectType)
                    leaf(UInt8(ascii: "="), String(describing: value))
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

        mutating func open(_ mark: UInt8, _ type: Any.Type, count: Int) {
            out.append(mark)
            out += typeName(type)
            out += Array("#\(count):".utf8)
        }

        mutating func label(_ label: String?) {
            out += Array((label ?? "_").utf8)
            out.append(UInt8(ascii: "="))
        }
    }
}
