/// The layout JSON of docs/commands.md "render, layout", printed by `layoutsnap layout` and stored as `layout.json` beside
/// each fixture's goldens. Numbers are rounded to 0.01.

import LayoutSnapJSON

public enum LayoutJSON {
    public static let writer = JSONWriter(style: .pretty, roundingTo: 0.01)

    public static func encode(_ layout: FixtureLayout, state: String? = nil, frame: Int? = nil) -> [UInt8] {
        writer.bytes(json(layout, state: state, frame: frame)) + [0x0A]
    }

    public static func json(_ layout: FixtureLayout, state: String? = nil, frame: Int? = nil) -> JSONOutput {
        let states = layout.states.filter { state == nil || $0.name == state }.map { s -> JSONOutput in
            .object(
                [("name", .string(s.name))] + (s.note.map { [("note", JSONOutput.string($0))] } ?? []) + [
                    ("frames", .array(s.frames.filter { frame == nil || $0.index == frame }.map(json)))
                ])
        }
        return .object([
            ("fixture", .string(layout.fixtureID)),
            (
                "canvas",
                .object([
                    ("width", .number(layout.canvas.width)), ("height", .number(layout.canvas.height)),
                    ("scale", .number(layout.canvas.scale)),
                ])
            ),
            ("states", .array(states)),
        ])
    }

    public static func json(_ frame: LayoutFrame) -> JSONOutput {
        var object: [(String, JSONOutput)] = [
            ("index", .int(frame.index)),
            ("time", .number(frame.time)),
            ("progress", .number(frame.progress)),
            ("elements", .array(frame.elements.map(json))),
        ]
        if let scroll = frame.scroll {
            object.append(
                (
                    "scroll",
                    .object([
                        ("offset", .number(scroll.offset)), ("contentHeight", .number(scroll.contentHeight)),
                        ("viewportHeight", .number(scroll.viewportHeight)), ("following", .bool(scroll.following)),
                    ])
                ))
        }
        return .object(object)
    }

    public static func json(_ element: LayoutElement) -> JSONOutput {
        var object: [(String, JSONOutput)] = [
            ("id", .string(element.id)),
            (
                "rect",
                .array([
                    .number(element.rect.x), .number(element.rect.y), .number(element.rect.width),
                    .number(element.rect.height),
                ])
            ),
        ]
        for (key, value) in element.attributes {
            switch value {
            case .number(let n): object.append((key, .number(n)))
            case .int(let n): object.append((key, .int(n)))
            case .bool(let b): object.append((key, .bool(b)))
            case .string(let s): object.append((key, .string(s)))
            case .ints(let list): object.append((key, .array(list.map { .int($0) })))
            case .strings(let list): object.append((key, .array(list.map { .string($0) })))
            case .numbers(let list): object.append((key, .array(list.map { .number($0) })))
            case .null: object.append((key, .null))
            }
        }
        return .object(object)
    }
}

extension LayoutJSON {
    /// What layout.json holds (the fixture, canvas, states, frames, elements, their rects,
    /// attributes and scroll), as bytes to hash: each number exactly (its bits, not rounded to
    /// 0.01), each string with its length, each value behind a tag. The result cache keeps the
    /// hash of these beside the frames' pixel hashes; writing the text of layout.json for it
    /// was most of what the cache added to a cold run's rendering.
    public static func digestBytes(_ layout: FixtureLayout) -> [UInt8] {
        var out = DigestBytes()
        out.out.reserveCapacity(4096)
        out.string(layout.fixtureID)
        out.number(layout.canvas.width)
        out.number(layout.canvas.height)
        out.number(layout.canvas.scale)
        out.count(layout.states.count)
        for state in layout.states {
            out.string(state.name)
            if let note = state.note {
                out.tag(1)
                out.string(note)
            } else {
                out.tag(0)
            }
            out.count(state.frames.count)
            for frame in state.frames {
                out.int(frame.index)
                out.number(frame.time)
                out.number(frame.progress)
                out.count(frame.elements.count)
                for element in frame.elements {
                    out.string(element.id)
                    out.number(element.rect.x)
                    out.number(element.rect.y)
                    out.number(element.rect.width)
                    out.number(element.rect.height)
                    out.count(element.attributes.count)
                    for (key, value) in element.attributes {
                        out.string(key)
                        out.value(value)
                    }
                }
                if let scroll = frame.scroll {
                    out.tag(1)
                    out.number(scroll.offset)
                    out.number(scroll.contentHeight)
                    out.number(scroll.viewportHeight)
                    out.tag(scroll.following ? 1 : 0)
                } else {
                    out.tag(0)
                }
            }
        }
        return out.out
    }

    private struct DigestBytes {
        var out: [UInt8] = []

        mutating func tag(_ tag: UInt8) { out.append(tag) }

        mutating func word(_ bits: UInt64) {
            withUnsafeBytes(of: bits.littleEndian) { out.append(contentsOf: $0) }
        }

        mutating func count(_ n: Int) { word(UInt64(n)) }
        mutating func int(_ n: Int) { word(UInt64(bitPattern: Int64(n))) }
        mutating func number(_ x: Double) { word(x.bitPattern) }

        mutating func string(_ s: String) {
            var s = s
            s.withUTF8 { bytes in
                count(bytes.count)
                out.append(contentsOf: bytes)
            }
        }

        mutating func value(_ value: LayoutValue) {
            switch value {
            case .number(let x):
                tag(1)
                number(x)
            case .int(let n):
                tag(2)
                int(n)
            case .bool(let b): tag(b ? 4 : 3)
            case .string(let s):
                tag(5)
                string(s)
            case .ints(let list):
                tag(6)
                count(list.count)
                for n in list { int(n) }
            case .numbers(let list):
                tag(7)
                count(list.count)
                for x in list { number(x) }
            case .strings(let list):
                tag(8)
                count(list.count)
                for s in list { string(s) }
            case .null: tag(9)
            }
        }
    }
}
