import Foundation

/// The compact JSON of a plain fixture entry, written directly: the bytes `ResultsJSON`'s
/// compact encoder writes for it (sorted keys, slashes unescaped, whole doubles without `.0`),
/// without Foundation's encoder, which builds a tree of every value first and was most of a
/// warm run's report. Only the shapes a spooled pass has are written here (no diagnostic,
/// motion, metrics, lints, attribution, pairing or cause); anything else is nil, and the encoder
/// writes it. `PassEntryJSONTests` holds the two to the same bytes.
enum PassEntryJSON {
    static func bytes(_ entry: FixtureEntry) -> Data? {
        guard entry.diagnostic == nil else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(256 + 160 * entry.states.reduce(0) { $0 + $1.frames.count })
        out.append(UInt8(ascii: "{"))
        var first = true
        func key(_ name: StaticString) {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.append(UInt8(ascii: "\""))
            name.withUTF8Buffer { out.append(contentsOf: $0) }
            out.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        }
        if let cached = entry.cached {
            key("cached")
            raw(cached ? "true" : "false", into: &out)
        }
        if let canvas = entry.canvas {
            key("canvas")
            array(canvas, into: &out)
        }
        if let seconds = entry.durationSeconds {
            key("durationSeconds")
            number(seconds, into: &out)
        }
        key("file")
        string(entry.file, into: &out)
        key("id")
        string(entry.id, into: &out)
        key("states")
        out.append(UInt8(ascii: "["))
        for (s, state) in entry.states.enumerated() {
            guard state.motion == nil else { return nil }
            if s > 0 { out.append(UInt8(ascii: ",")) }
            guard write(state, into: &out) else { return nil }
        }
        out.append(contentsOf: [UInt8(ascii: "]"), UInt8(ascii: "}")])
        return Data(out)
    }

    private static func write(_ state: StateEntry, into out: inout [UInt8]) -> Bool {
        out.append(UInt8(ascii: "{"))
        if let seconds = state.durationSeconds {
            raw("\"durationSeconds\":", into: &out)
            number(seconds, into: &out)
            out.append(UInt8(ascii: ","))
        }
        raw("\"frames\":[", into: &out)
        for (f, frame) in state.frames.enumerated() {
            guard frame.metrics == nil, frame.lints == nil, frame.attribution == nil, frame.pairing == nil,
                frame.cause == nil
            else { return false }
            if f > 0 { out.append(UInt8(ascii: ",")) }
            write(frame, into: &out)
        }
        raw("],\"name\":", into: &out)
        string(state.name, into: &out)
        out.append(UInt8(ascii: "}"))
        return true
    }

    private static func write(_ frame: FrameEntry, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        // Each name and its quotes and colon one static string: a string built for each was most
        // of a frame's cost, written 732 times a warm run.
        func optional(_ name: StaticString, _ value: String?) {
            guard let value else { return }
            raw(name, into: &out)
            string(value, into: &out)
            out.append(UInt8(ascii: ","))
        }
        optional("\"actual\":", frame.actual)
        optional("\"diff\":", frame.diff)
        optional("\"expected\":", frame.expected)
        raw("\"golden\":", into: &out)
        string(frame.golden, into: &out)
        out.append(UInt8(ascii: ","))
        optional("\"goldenHash\":", frame.goldenHash)
        raw("\"index\":", into: &out)
        integer(frame.index, into: &out)
        raw(",\"layoutChanges\":", into: &out)
        array(frame.layoutChanges, into: &out)
        out.append(UInt8(ascii: ","))
        optional("\"message\":", frame.message)
        if let pairedWith = frame.pairedWith {
            raw("\"pairedWith\":", into: &out)
            integer(pairedWith, into: &out)
            out.append(UInt8(ascii: ","))
        }
        raw("\"progress\":", into: &out)
        number(frame.progress, into: &out)
        raw(",\"status\":", into: &out)
        string(frame.status.rawValue, into: &out)
        raw(",\"time\":", into: &out)
        number(frame.time, into: &out)
        out.append(UInt8(ascii: "}"))
    }

    private static func array(_ values: [Double], into out: inout [UInt8]) { array(values, into: &out, number) }
    private static func array(_ values: [String], into out: inout [UInt8]) { array(values, into: &out, string) }

    private static func array<T>(
        _ values: [T], into out: inout [UInt8], _ element: (T, inout [UInt8]) -> Void
    ) {
        out.append(UInt8(ascii: "["))
        for (i, value) in values.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            element(value, &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    private static func raw(_ text: StaticString, into out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// An integer's decimal digits, without a string made of them.
    static func integer(_ value: Int, into out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        // At most 19 digits (Int.min's magnitude), written from the right.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var at = buffer.count
            repeat {
                at -= 1
                buffer[at] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            out.append(contentsOf: buffer[at...])
        }
    }

    /// As the encoder writes a double: its shortest digits, a whole one without `.0`, and the
    /// non-finite ones as the strings `ResultsJSON.makeEncoder` names.
    static func number(_ value: Double, into out: inout [UInt8]) {
        guard value.isFinite else {
            let text = value.isNaN ? "NaN" : value > 0 ? "Infinity" : "-Infinity"
            out.append(contentsOf: Array("\"\(text)\"".utf8))
            return
        }
        // The description's bytes copied whole (no array made of them, nor a byte at a time),
        // less a whole number's ".0": two numbers a frame, 1,464 a warm run.
        var text = value.description
        text.withUTF8 { bytes in
            let whole =
                bytes.count > 2 && bytes[bytes.count - 1] == UInt8(ascii: "0")
                && bytes[bytes.count - 2] == UInt8(ascii: ".")
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<(whole ? bytes.count - 2 : bytes.count)]))
        }
    }

    /// As the encoder escapes a string: the quote, the backslash and control characters, `/`
    /// as it is.
    static func string(_ value: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most strings (paths, hashes, names) need no escape: copied whole, checked over their
        // bytes in place (through the view's iterator, a tenth of a warm run's spooling).
        let plain =
            value.utf8.withContiguousStorageIfAvailable { bytes in
                for byte in bytes where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                    return false
                }
                return true
            } ?? false
        if plain {
            out.append(contentsOf: value.utf8)
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20:
                out.append(contentsOf: Array("\\u00".utf8))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
