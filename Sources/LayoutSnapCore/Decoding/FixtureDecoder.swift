import Foundation
import LayoutSnapJSON

/// Reads a fixture file strictly (docs/fixtures/README.md): every field known, every value of the right type and
/// within the limits of docs/fixtures/README.md "Limits", unknown fields rejected (they are usually typos).
public enum FixtureDecoder {
    public static let idCharacters = Set("abcdefghijklmnopqrstuvwxyz0123456789._/-")

    /// Reads `path` through `files` and decodes it. `id` is the fixture id, `displayPath` how
    /// messages name the file.
    public static func load(
        path: String, id: String, displayPath: String, files: any InputFiles,
        defaults: FixtureDefaults = FixtureDefaults()
    ) throws(FixtureError) -> Fixture {
        let file: InputFileBytes
        do {
            file = try files.read(path, upTo: Limits.maxFixtureFileBytes)
        } catch {
            switch error {
            case .notFound: throw FixtureError(file: displayPath, message: "cannot be read (no such file)")
            case .unreadable(let reason): throw FixtureError(file: displayPath, message: "cannot be read (\(reason))")
            }
        }
        if file.size > Limits.maxFixtureFileBytes {
            throw FixtureError(
                file: displayPath,
                message: "the file is \(file.size) bytes, more than the limit of \(Limits.maxFixtureFileBytes)")
        }
        let folder = FixtureFolder(path: (path as NSString).deletingLastPathComponent, files: files)
        return try decode(bytes: file.prefix, id: id, file: displayPath, folder: folder, defaults: defaults)
    }

    /// The variants a fixture's JSON declares at its top level (the project's default when it
    /// declares none), or nil when they cannot be read (the JSON or its variants are broken).
    public static func variants(in bytes: [UInt8], defaults: FixtureDefaults = FixtureDefaults()) -> [FixtureVariant]? {
        guard let root = try? JSONParser.parse(bytes), case .object(let members) = root.value else { return nil }
        guard let node = members.last(where: { $0.key == "variants" })?.value else { return defaults.variants ?? [] }
        return try? decodeVariants(
            JSONElement(node, path: JSONPath.root.appending(key: "variants")), themes: defaults.themes)
    }

    public static func decode(
        bytes: [UInt8], id: String, file: String, folder: FixtureFolder,
        defaults: FixtureDefaults = FixtureDefaults()
    ) throws(FixtureError) -> Fixture {
        guard !id.isEmpty, id.allSatisfy({ idCharacters.contains($0) }),
            !id.split(separator: "/").contains(where: { $0 == ".." || $0 == "." })
        else {
            throw FixtureError(
                file: file,
                message: "the fixture id \"\(id)\" may only use a-z, 0-9, '.', '_', '/' and '-'; rename the file")
        }
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw FixtureError(
                file: file, line: error.position.line, column: error.position.column,
                message: "invalid JSON: \(error.message)")
        }
        do throws(DecodingErrors.Collected) {
            return try DecodingErrors.collecting(limit: Limits.maxErrorsPerFile) { () throws(JSONDecodingError) in
                try decode(JSONElement(root), id: id, file: file, folder: folder, defaults: defaults)
            }
        } catch {
            throw FixtureError(file: file, error)
        }
    }

    /// `defaults` (layoutsnap.json's) stand in for the fields the fixture does not write.
    static func decode(
        _ element: JSONElement, id: String, file: String, folder: FixtureFolder,
        defaults: FixtureDefaults = FixtureDefaults()
    ) throws(JSONDecodingError) -> Fixture {
        let o = try element.object()
        let kindElement = try o.required("kind")
        let kindName = try kindElement.string()
        guard let kind = FixtureKind(rawValue: kindName) else {
            throw kindElement.error(
                "unknown kind \"\(kindName)\"; expected one of: \(FixtureKind.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }

        // An editor's pointer to a JSON Schema: allowed, and nothing else.
        _ = try o.optional("$schema")?.string()
        var device = defaults.device ?? Device.named(Device.defaultName)!
        if let d = o.optional("device") { device = try deviceValue(d) }
        let textSize = try o.optional("textSize").map(textSizeValue) ?? defaults.textSize
        let direction = try o.optional("direction").map(directionValue) ?? defaults.direction
        let variants =
            try o.optional("variants").map { (e: JSONElement) throws(JSONDecodingError) in
                try decodeVariants(e, themes: defaults.themes)
            } ?? defaults.variants ?? []
        var theme = defaults.themes.theme()!
        var ownTheme = ThemePatch()
        if let e = o.optional("theme") {
            if case .string = e.value {
                theme = try defaults.themes.theme(named: e)
            } else {
                ownTheme = try ThemePatch.decode(e, families: defaults.themes.families)
                theme = ownTheme.applied(to: theme)
            }
        }
        let width = try o.double("width", in: Limits.canvasSide, what: "a width in points") ?? device.width
        let height = try o.double("height", in: Limits.canvasSide, what: "a height in points") ?? device.height
        let scale = try o.double("scale", in: Limits.scale, what: "a scale") ?? defaults.scale ?? device.scale
        let pixels = (width * scale).rounded() * (height * scale).rounded()
        if pixels > Double(Limits.maxCanvasPixels) {
            throw element.error(
                "the canvas is \(Int((width * scale).rounded())) x \(Int((height * scale).rounded())) pixels, more than the limit of \(Limits.maxCanvasPixels) pixels"
            )
        }
        let canvas = Canvas(width: width, height: height, scale: scale)
        if max(canvas.pixelWidth, canvas.pixelHeight) > Limits.maxCanvasSidePixels {
            throw element.error(
                "the canvas is \(canvas.pixelWidth) x \(canvas.pixelHeight) pixels; a side may have at most \(Limits.maxCanvasSidePixels) pixels (Cairo's limit)"
            )
        }
        let appearance = try o.enumeration("appearance", Appearance.self) ?? defaults.appearance ?? .light
        let fps = try o.double("fps", in: Limits.fps, what: "frames per second") ?? defaults.fps ?? 60
        var tolerance: Tolerance?
        var timingFrames = 0
        let lintIgnores = (try o.optional("lint").map(decodeLint) ?? []) + defaults.lintIgnores
        if let e = o.optional("tolerance") {
            (tolerance, timingFrames) = try decodeTolerance(e)
        } else if let t = defaults.tolerance {
            (tolerance, timingFrames) = (t.pixels, t.timingFrames)
        }

        // Every state has at least one frame: too many steps is known before any text is laid out.
        if let steps = o.optional("steps"), case .array(let items) = steps.value,
            items.count + 1 > Limits.maxFramesPerFixture
        {
            throw steps.error(
                "\(items.count) steps make at least \(items.count + 1) states of a frame or more each, more than the limit of \(Limits.maxFramesPerFixture) frames"
            )
        }
        let content = try kind.definition.decode(o, folder: folder)
        try o.finish()
        try checkTextSize(element)
        var fixture = Fixture(
            id: id, file: file, device: device, canvas: canvas, appearance: appearance,
            fps: fps, tolerance: tolerance, content: content)
        fixture.timingFrames = timingFrames
        fixture.ownTheme = ownTheme
        fixture.theme = theme
        // Always, so the fonts and the motion the fixture leaves out are the theme's.
        fixture = fixture.at(textSize ?? .large)
        fixture.direction = direction ?? .ltr
        fixture.variants = variants
        fixture.lintIgnores = lintIgnores
        return fixture
    }

    /// `variants`: a matrix (`{"device": [...], "textSize": [...], "appearance": [...],
    /// "direction": [...]}`, every combination, device varying slowest) or a list of objects with
    /// one value per key and an optional `name`. Names are unique folder names. `[]` is none (a
    /// fixture's way out of the project's default variants).
    static func decodeVariants(_ element: JSONElement, themes: ThemeBook) throws(JSONDecodingError) -> [FixtureVariant]
    {
        var variants: [FixtureVariant] = []
        var places: [String: JSONElement] = [:]
        func add(_ v: FixtureVariant, at e: JSONElement) throws(JSONDecodingError) {
            var v = v
            v.origin = FixtureVariant.Origin(path: e.path.description, line: e.position.line)
            guard FixtureVariant.isValidName(v.name) else {
                throw e.error(
                    "the variant name \"\(v.name)\" is a folder name in the goldens: use 1 to 100 of a-z, A-Z, 0-9, '.', '_', '+' and '-'"
                )
            }
            // In any case: the names are folders, and on a case-insensitive disk "a" and "A" are one.
            if places[v.name.lowercased()] != nil {
                throw e.error("two variants are named \"\(v.name)\" (in any case); give one a \"name\"")
            }
            places[v.name.lowercased()] = e
            variants.append(v)
            if variants.count > Limits.maxVariants {
                throw element.error(
                    "more than \(Limits.maxVariants) variants; each is rendered in full, so split the fixture")
            }
        }
        switch element.value {
        case .object:
            let o = try element.object()
            func values<T>(_ key: String, _ parse: (JSONElement) throws(JSONDecodingError) -> T)
                throws(JSONDecodingError) -> [T?]
            {
                guard let e = o.optional(key) else { return [nil] }
                guard case .array(let items) = e.value, !items.isEmpty else {
                    throw e.error("expected a non-empty array of \(key) values")
                }
                var out: [T?] = []
                for i in items.indices {
                    out.append(try parse(JSONElement(items[i], path: e.path.appending(index: i))))
                }
                return out
            }
            let devices = try values("device", deviceValue)
            let sizes = try values("textSize", textSizeValue)
            let appearances = try values("appearance") { (e: JSONElement) throws(JSONDecodingError) in
                try e.enumeration(Appearance.self)
            }
            let directions = try values("direction", directionValue)
            let themeNames = try values("theme") { (e: JSONElement) throws(JSONDecodingError) in
                (try e.string(), try themes.theme(named: e))
            }
            try o.finish()
            if devices == [nil] && sizes == [nil] && appearances == [nil] && directions == [nil]
                && o.optional("theme") == nil
            {
                throw element.error(
                    "a variants matrix needs at least one of: device, textSize, appearance, direction, theme")
            }
            for d in devices {
                for t in sizes {
                    for a in appearances {
                        for r in directions {
                            for th in themeNames {
                                try add(
                                    FixtureVariant(
                                        device: d, textSize: t, appearance: a, direction: r, theme: th?.0,
                                        themeBase: th?.1), at: element)
                            }
                        }
                    }
                }
            }
        case .array(let items):
            for i in items.indices {
                let e = JSONElement(items[i], path: element.path.appending(index: i))
                let o = try e.object()
                let device = try o.optional("device").map(deviceValue)
                let textSize = try o.optional("textSize").map(textSizeValue)
                let appearance = try o.enumeration("appearance", Appearance.self)
                let direction = try o.optional("direction").map(directionValue)
                let theme = try o.optional("theme").map { (e: JSONElement) throws(JSONDecodingError) in
                    (try e.string(), try themes.theme(named: e))
                }
                let name = try o.optional("name")?.string()
                try o.finish()
                if device == nil && textSize == nil && appearance == nil && direction == nil && theme == nil {
                    throw e.error("a variant needs at least one of: device, textSize, appearance, direction, theme")
                }
                try add(
                    FixtureVariant(
                        name: name, device: device, textSize: textSize, appearance: appearance, direction: direction,
                        theme: theme?.0, themeBase: theme?.1),
                    at: e)
            }
        default:
            throw element.error(
                "expected a matrix object ({\"device\": [...], \"textSize\": [...], ...}) or an array of variant objects"
            )
        }
        return variants
    }

    static func deviceValue(_ e: JSONElement) throws(JSONDecodingError) -> Device {
        let name = try e.string()
        guard let device = Device.named(name) else {
            throw e.error("unknown device \"\(name)\"; expected one of: \(Device.allNames.joined(separator: ", "))")
        }
        return device
    }

    /// `{"ignore": [{"rule": "contrast", "element": "author", "reason": "..."}]}`: a reason is
    /// required, so an ignore always says why.
    static func decodeLint(_ element: JSONElement) throws(JSONDecodingError) -> [LintIgnore] {
        let o = try element.object()
        var ignores: [LintIgnore] = []
        if let list = o.optional("ignore") {
            for item in try list.array() {
                let entry = try item.object()
                let rule = try entry.required("rule").enumeration(LintRule.self)
                var name: String?
                if let e = entry.optional("element") {
                    name = try e.string()
                    if name!.isEmpty {
                        throw e.error("expected an element id (\"author\", \"message:*\"), found an empty string")
                    }
                }
                let reasonElement = try entry.required("reason")
                let reason = try reasonElement.string()
                if reason.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    throw reasonElement.error("say why the finding is accepted")
                }
                try entry.finish()
                ignores.append(LintIgnore(rule: rule, element: name, reason: reason))
            }
        }
        try o.finish()
        return ignores
    }

    /// `ltr` or `rtl`.
    static func directionValue(_ e: JSONElement) throws(JSONDecodingError) -> LayoutDirection {
        try e.enumeration(LayoutDirection.self)
    }

    static func textSizeValue(_ e: JSONElement) throws(JSONDecodingError) -> ContentSizeCategory {
        let name = try e.string()
        guard let size = ContentSizeCategory.named(name) else {
            throw e.error(
                "unknown text size \"\(name)\"; expected one of: \(ContentSizeCategory.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        return size
    }

    /// The pixel tolerance (nil when the object names none of its keys: a timing tolerance alone
    /// keeps pixels exact) and the timing tolerance in frames.
    static func decodeTolerance(_ element: JSONElement) throws(JSONDecodingError) -> (Tolerance?, Int) {
        let o = try element.object()
        var t = Tolerance()
        var pixels = false
        if let e = o.optional("threshold") {
            t.threshold = try e.double(in: 0...1, what: "a threshold")
            pixels = true
        }
        if let e = o.optional("maxDiffPixels") {
            t.maxDiffPixels = try e.int()
            if t.maxDiffPixels < 0 { throw e.error("expected a count of 0 or more, found \(t.maxDiffPixels)") }
            pixels = true
        }
        if let e = o.optional("maxDiffRatio") {
            t.maxDiffRatio = try e.double(in: 0...1, what: "a ratio")
            pixels = true
        }
        if let e = o.optional("includeAntialiasing") {
            t.includeAntialiasing = try e.bool()
            pixels = true
        }
        var timingFrames = 0
        let timingElement = o.optional("timing")
        if let e = timingElement {
            let timing = try e.object()
            if let f = timing.optional("frames") {
                timingFrames = try f.int()
                if !(0...Limits.maxTimingToleranceFrames).contains(timingFrames) {
                    throw f.error(
                        "expected a number of frames from 0 to \(Limits.maxTimingToleranceFrames), found \(timingFrames)"
                    )
                }
            }
            try timing.finish()
        }
        try o.finish()
        // `{}` stays what it always was: the default pixel tolerance.
        return (pixels || timingElement == nil ? t : nil, timingFrames)
    }

    /// docs/fixtures/README.md "Limits": at most 1 MB of text per fixture, counted over every string in it; and at most
    /// `Limits.maxLineBreaks` line breaks, reported at the string that goes past the limit.
    static func checkTextSize(_ element: JSONElement) throws(JSONDecodingError) {
        var total = 0
        var breaks = 0
        var stack = [element]
        while let e = stack.popLast() {
            switch e.value {
            case .string(let s):
                total += s.utf8.count
                breaks += lineBreaks(in: s)
                if breaks > Limits.maxLineBreaks {
                    throw e.error(
                        "the fixture's text has more than \(Limits.maxLineBreaks) line breaks by here; Pango lays text out in time that grows with the square of its paragraphs, so that is the limit"
                    )
                }
            case .array(let items):
                for i in items.indices.reversed() {
                    stack.append(JSONElement(items[i], path: e.path.appending(index: i)))
                }
            case .object(let members):
                for m in members.reversed() {
                    total += m.key.utf8.count
                    stack.append(JSONElement(m.value, path: e.path.appending(key: m.key)))
                }
            default: break
            }
        }
        if total > Limits.maxTextBytes {
            throw element.error(
                "the fixture holds \(total) bytes of text, more than the limit of \(Limits.maxTextBytes)")
        }
    }

    /// Paragraph breaks as Pango counts them: "\n", "\r", "\r\n" and U+2029.
    static func lineBreaks(in s: String) -> Int {
        var count = 0
        // The two bytes before this one.
        var window: (UInt8, UInt8) = (0, 0)
        for b in s.utf8 {
            switch b {
            case 0x0A: if window.1 != 0x0D { count += 1 }
            case 0x0D: count += 1
            case 0xA9 where window == (0xE2, 0x80): count += 1  // U+2029 is E2 80 A9
            default: break
            }
            window = (window.1, b)
        }
        return count
    }

    /// A timing curve's name (`easeInOut`, ...), `{"cubic": [x1, y1, x2, y2]}`,
    /// `{"spring": {"response": r, "dampingFraction": z}}` or
    /// `{"spring": {"mass": m, "stiffness": k, "damping": c}}`.
    static func decodeCurve(_ element: JSONElement?, duration: Double) throws(JSONDecodingError) -> AnimationCurve {
        guard let element else { return .timing(.easeInOut, duration: duration) }
        if case .string = element.value {
            let name = try element.string()
            if let preset = CubicBezier.presets.first(where: { $0.name == name }) {
                return .timing(preset.curve, duration: duration)
            }
            // The command line's spelling: say how a fixture writes the same curve.
            switch CurveOverride.parse(name) {
            case .success(.timing(let c)):
                let numbers = [c.x1, c.y1, c.x2, c.y2].map { JSONWriter.formatNumber($0) }.joined(separator: ", ")
                throw element.error("a fixture writes the curve \"\(name)\" as {\"cubic\": [\(numbers)]}")
            case .success(.spring):
                throw element.error(
                    "a fixture writes a spring as {\"spring\": {\"response\": r, \"dampingFraction\": z}} or {\"spring\": {\"mass\": m, \"stiffness\": k, \"damping\": c}}"
                )
            case .failure: break
            }
            throw element.error(
                "unknown curve \"\(name)\"; expected \(CubicBezier.presets.map(\.name).joined(separator: ", ")), {\"cubic\": [x1, y1, x2, y2]} or {\"spring\": {...}}"
            )
        }
        let o = try element.object()
        let curve: AnimationCurve
        switch (o.optional("cubic"), o.optional("spring")) {
        case (let cubic?, nil): curve = .timing(try decodeCubic(cubic), duration: duration)
        case (nil, let spring?): curve = .spring(try decodeSpring(spring))
        case (nil, nil):
            if let misspelt = o.misspelling(among: ["cubic", "spring"]) { throw misspelt }
            throw element.error("a curve object holds \"cubic\" or \"spring\"")
        case (_?, _?): throw element.error("a curve is \"cubic\" or \"spring\", not both")
        }
        try o.finish()
        return curve
    }

    /// `[x1, y1, x2, y2]`, as CSS's cubic-bezier() and SwiftUI's timingCurve take them.
    static func decodeCubic(_ element: JSONElement) throws(JSONDecodingError) -> CubicBezier {
        let items = try element.array()
        guard items.count == 4 else {
            throw element.error("a cubic curve is four numbers [x1, y1, x2, y2], found \(items.count)")
        }
        let x = Limits.cubicX
        let y = Limits.cubicY
        return CubicBezier(
            try items[0].double(in: x, what: "x1 (a time fraction)"), try items[1].double(in: y, what: "y1"),
            try items[2].double(in: x, what: "x2 (a time fraction)"), try items[3].double(in: y, what: "y2"))
    }

    /// `{"response", "dampingFraction"}` or `{"mass", "stiffness", "damping"}`.
    static func decodeSpring(_ element: JSONElement) throws(JSONDecodingError) -> Spring {
        let o = try element.object()
        let swiftUI = ["response", "dampingFraction"].filter(o.contains)
        let physical = ["mass", "stiffness", "damping"].filter(o.contains)
        if !swiftUI.isEmpty && !physical.isEmpty {
            throw element.error(
                "a spring is {\"response\", \"dampingFraction\"} or {\"mass\", \"stiffness\", \"damping\"}; found \(Plural.list(swiftUI + physical))"
            )
        }
        let spring: Spring
        if physical.isEmpty {
            let r = Limits.springParameter
            spring = Spring(
                response: try o.required("response").double(in: r, what: "a response in seconds"),
                dampingFraction: try o.required("dampingFraction").double(in: r, what: "a damping fraction"))
        } else {
            spring = Spring(
                mass: try o.required("mass").double(in: Limits.springMass, what: "a mass"),
                stiffness: try o.required("stiffness").double(in: Limits.springStiffness, what: "a stiffness"),
                damping: try o.required("damping").double(in: Limits.springDamping, what: "a damping coefficient"))
            if let problem = spring.rangeProblem {
                throw element.error("this spring cannot be used: \(problem) (\(Spring.physicalNote))")
            }
        }
        try o.finish()
        return spring
    }
}

extension ObjectReader {
    /// A step's one event key among `names` (docs/fixtures/README.md "Common fields": each step is one event, plus `at`).
    func stepEvent(_ names: [String], kind: String, step: JSONElement) throws(JSONDecodingError) -> String {
        // Asked for one by one (not `contains`), so the schema test sees every event a step may name.
        let present = names.filter { optional($0) != nil }
        guard let name = present.first else {
            if let misspelt = misspelling(among: names) { throw misspelt }
            throw step.error("a \(kind) step needs one of: \(names.joined(separator: ", "))")
        }
        guard present.count == 1 else {
            throw step.error("a step is one event; found \(present.joined(separator: " and "))")
        }
        return name
    }

    /// A step's optional `at`: seconds after the previous step began (docs/fixtures/README.md "Common fields").
    func stepDelay() throws(JSONDecodingError) -> Double? {
        try double("at", in: Limits.stepDelay, what: "seconds after the previous step began")
    }

    /// The key's number within `range`, or nil when absent.
    func double(_ key: String, in range: ClosedRange<Double>, what: String) throws(JSONDecodingError) -> Double? {
        guard let element = optional(key) else { return nil }
        return try element.double(in: range, what: what)
    }

    /// The key's string as one of `E`'s cases, or nil when absent.
    func enumeration<E: RawRepresentable & CaseIterable>(_ key: String, _ type: E.Type) throws(JSONDecodingError) -> E?
    where E.RawValue == String {
        guard let element = optional(key) else { return nil }
        return try element.enumeration(type)
    }
}

extension JSONElement {
    /// A finite number within `range`.
    func double(in range: ClosedRange<Double>, what: String) throws(JSONDecodingError) -> Double {
        let v = try double()
        guard range.contains(v) else {
            throw error(
                "expected \(what) from \(JSONWriter.formatNumber(range.lowerBound)) to \(JSONWriter.formatNumber(range.upperBound)), found \(Self.describe(v))"
            )
        }
        return v
    }

    /// A whole number within `range`; out-of-range values name the range, not Int32's.
    func int(in range: ClosedRange<Int>, what: String) throws(JSONDecodingError) -> Int {
        let d = try double()
        guard d.rounded(.towardZero) == d, d >= Double(range.lowerBound), d <= Double(range.upperBound) else {
            throw error("expected \(what) from \(range.lowerBound) to \(range.upperBound), found \(Self.describe(d))")
        }
        return Int(d)
    }

    func enumeration<E: RawRepresentable & CaseIterable>(_ type: E.Type) throws(JSONDecodingError) -> E
    where E.RawValue == String {
        let s = try string()
        guard let value = E(rawValue: s) else {
            throw error(
                "unknown value \"\(s)\"; expected one of: \(E.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }

    /// A step's event flag: `{"expand": true}`.
    func isTrue() throws(JSONDecodingError) {
        guard try bool() else { throw error("expected true (a step happens or is left out)") }
    }
}
