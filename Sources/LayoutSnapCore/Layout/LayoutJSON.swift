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
        var object: [(key: String, value: JSONOutput)] = [
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
        var object: [(key: String, value: JSONOutput)] = [
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
    /// What layout.json holds, as bytes to hash (`JSONOutput.digestBytes`: each number exactly,
    /// not rounded to 0.01). The result cache keeps their hash beside the frames' pixel hashes;
    /// writing the text of layout.json for it was most of what the cache added to a cold run's
    /// rendering. Made from `json(_:)`, so a field layout.json gains is in the hash too.
    public static func digestBytes(_ layout: FixtureLayout) -> [UInt8] {
        json(layout).digestBytes()
    }
}
