import LayoutSnapTestSupport
import XCTest
@testable import LayoutSnapCore
import LayoutSnapJSON

/// `generate` (docs/commands.md "generate"): deterministic, independent per index, always valid and cheap to render,
/// and varied enough that every field, step, enum value and rule of docs/fixtures/README.md shows up in a batch.
final class FixtureGeneratorTests: XCTestCase {
    /// Fixtures per kind in the batch checks: enough for the rare cases (thousands of messages
    /// come up in about 2% of chats).
    static let batch = 400
    static let seed: UInt64 = 20_240_917

    func testSameSeedGivesTheSameBytes() {
        for kind in FixtureKind.allCases {
            let a = FixtureGenerator(kind: kind, seed: 99)
            let b = FixtureGenerator(kind: kind, seed: 99)
            for i in 0..<40 { XCTAssertEqual(a.fixture(at: i), b.fixture(at: i), "\(kind) \(i)") }
        }
    }

    func testDifferentSeedsKindsAndIndicesDiffer() {
        for kind in FixtureKind.allCases {
            let a = FixtureGenerator(kind: kind, seed: 1)
            let b = FixtureGenerator(kind: kind, seed: 2)
            let first = (0..<40).map { a.fixture(at: $0) }
            for i in 0..<40 { XCTAssertNotEqual(first[i], b.fixture(at: i), "\(kind) \(i)") }
            XCTAssertEqual(Set(first).count, first.count, "\(kind): every index gives its own fixture")
        }
        XCTAssertNotEqual(
            FixtureGenerator(kind: .post, seed: 1).fixture(at: 0), FixtureGenerator(kind: .chat, seed: 1).fixture(at: 0)
        )
    }

    /// Fixture i depends only on (seed, kind, i): the order of generation does not matter, and a
    /// smaller count is a prefix of a larger one, also for `--kind all`.
    func testFixturesAreIndependentOfOrderAndCount() {
        let g = FixtureGenerator(kind: .composer, seed: 5)
        let forward = (0..<30).map { g.fixture(at: $0) }
        let backward = (0..<30).reversed().map { g.fixture(at: $0) }
        XCTAssertEqual(forward, backward.reversed())

        let all = FixtureKind.allCases
        XCTAssertEqual(FixtureGenerator.spread(count: 10, over: all).map(\.count), [3, 3, 2, 2])
        XCTAssertEqual(FixtureGenerator.spread(count: 10_000, over: all).map(\.count), [2500, 2500, 2500, 2500])
        XCTAssertEqual(FixtureGenerator.spread(count: 1, over: all).map(\.count), [1, 0, 0, 0])
        XCTAssertEqual(FixtureGenerator.spread(count: 7, over: [.chat]).map(\.count), [7])
        for n in 1...40 {
            let small = FixtureGenerator.spread(count: n, over: all)
            let large = FixtureGenerator.spread(count: n + 1, over: all)
            XCTAssertEqual(small.map(\.count).reduce(0, +), n)
            XCTAssertTrue(zip(small, large).allSatisfy { $0.count <= $1.count }, "count \(n) is a prefix of \(n + 1)")
        }
        XCTAssertEqual(FixtureGenerator.relativePath(kind: .chat, index: 42), "chat/chat-000042.json")
        XCTAssertEqual(FixtureGenerator.relativePath(kind: .post, index: 999_999), "post/post-999999.json")
    }

    func testPRNGIsFixedForever() {
        // SplitMix64's published first outputs for seed 1234567.
        var r = SeededRandom(seed: 1_234_567)
        XCTAssertEqual(r.next(), 6_457_827_717_110_365_317)
        XCTAssertEqual(r.next(), 3_203_168_211_198_807_973)
        var s = SeededRandom(seed: 3)
        for _ in 0..<10_000 {
            XCTAssertTrue((-3...5).contains(s.int(-3...5)))
            let d = s.double(0.25...4)
            XCTAssertTrue((0.25...4).contains(d))
            XCTAssertEqual(d, (d * 100).rounded() / 100)
        }
    }

    /// Every generated fixture decodes, lays out (with the fake measurer) and stays far inside
    /// the limits of docs/fixtures/README.md "Limits", with at most 150 frames; over the batch, everything is exercised.
    func testBatchesAreValidCheapAndCoverEveryRule() throws {
        for kind in FixtureKind.allCases {
            var coverage = Coverage()
            let generator = FixtureGenerator(kind: kind, seed: Self.seed)
            for i in 0..<Self.batch {
                let bytes = generator.fixture(at: i)
                let id = FixtureGenerator.relativePath(kind: kind, index: i).replacingOccurrences(of: ".json", with: "")
                let fixture: Fixture
                do {
                    fixture = try FixtureDecoder.decode(
                        bytes: bytes, id: id, file: id + ".json", folder: .empty("/nonexistent"))
                } catch {
                    XCTFail("\(id): \(error)\n\(String(decoding: bytes, as: UTF8.self))")
                    continue
                }
                XCTAssertEqual(fixture.kind, kind)
                XCTAssertLessThan(bytes.count, 1_000_000, id)
                let layout: FixtureLayout
                do {
                    layout = try LayoutEngine.layout(fixture, measurer: FakeMeasurer())
                } catch {
                    XCTFail("\(id): \(error)\n\(String(decoding: bytes, as: UTF8.self))")
                    continue
                }
                XCTAssertLessThanOrEqual(layout.frameCount, 150, "\(id) renders \(layout.frameCount) frames")
                coverage.record(json: try JSONParser.parse(bytes), fixture: fixture, layout: layout)
            }
            let missing = Coverage.required[kind]!.filter { !coverage.features.contains($0) }
            XCTAssertEqual(missing, [], "\(kind): never generated in \(Self.batch) fixtures")
        }
    }
}

/// What a batch exercised, as named features ("step.append", "imageState=failed", "rule.unseen").
struct Coverage {
    var features = Set<String>()

    /// Per kind, what a batch must show: every field and step of the kinds' field tables (docs/fixtures/), every value of
    /// every enumeration, the texts of docs/commands.md "generate" and the rules of docs/fixtures/README.md.
    static let required: [FixtureKind: [String]] = {
        let common =
            [
                "device", "width", "height", "scale", "appearance=light", "appearance=dark", "fps", "tolerance",
                "steps",
                "script.latin", "script.cjk", "script.arabic", "script.emoji", "script.mixed", "text.oneWord",
                "text.thousands",
                "canvas.scale1", "canvas.scale2", "canvas.scale3",
            ]
            + Device.all.map { "device.\($0.name)" }
        let fonts =
            TextStyle.allCases.map { "font=\($0.rawValue)" } + FontWeight.allCases.map { "weight=\($0.rawValue)" }
            + ["font.size", "italic=true"]
        return [
            .post: common + [
                "title", "summary", "body", "image", "imageState=loaded", "imageState=loading", "imageState=failed",
                "author", "aiGenerated=true", "expanded=true", "expanded=false", "availableWidth", "duration",
                "curve=easeInOut", "curve=easeIn", "curve=easeOut", "curve=linear", "curve.spring",
                "curve.cubic", "curve.spring.response", "curve.spring.mass",
                "step.expand", "step.collapse", "step.at", "body.heading", "body.bullet", "body.blank", "markup.bold",
                "markup.italic",
                "image.none", "image.ratio1:4", "image.ratio4:1", "image.square",
                "rule.animates", "rule.interrupted", "rule.titleTruncated",
            ],
            .transcript: common + fonts + [
                "text", "maxLines", "padding", "margin", "sticky=true", "sticky=false",
                "indicators=scrolling", "indicators=always", "indicators=never",
                "step.append", "step.scrollBy", "step.scrollToBottom", "step.at", "markup.bold", "markup.italic",
                "rule.scrolls", "rule.heldWhileScrolledUp", "rule.animates", "rule.oneLine", "rule.maxLines",
            ],
            .composer: common + fonts + [
                "text", "selection", "lineSpacing", "maxLines", "margin", "border=true", "border=false",
                "enabled=true", "enabled=false", "disabledPlaceholder", "placeholder", "pattern",
                "keyboard=true", "keyboard=false", "suggestions",
                "step.type", "step.insertSuggestion", "step.select", "step.compose", "step.commit", "step.scrollBy",
                "step.enable", "step.keyboard", "step.at", "step.suggestions", "enable=true", "enable=false",
                "keyboard=show", "keyboard=hide",
                "rule.note", "rule.matched", "rule.unmatched", "rule.scrolls", "rule.dragKept", "rule.keyboardSlides",
                "rule.placeholder", "rule.disabledPlaceholder", "rule.marked", "rule.selection", "rule.maxLinesLowered",
            ],
            .chat: common + [
                "messages", "status=idle", "status=thinking", "status=streaming", "online=true", "online=false",
                "input",
                "keyboard=true", "keyboard=false", "role=user", "role=assistant", "message.id", "message.defaultID",
                "message.image", "message.imageOnly", "image.ratio1:4", "image.ratio4:1",
                "step.open", "step.receive", "step.send", "step.stream", "step.status", "step.scrollBy",
                "step.scrollToBottom", "step.keyboard", "step.online", "step.at", "keyboard=show", "keyboard=hide",
                "markup.bold", "markup.italic", "messages.1", "messages.hundreds", "messages.thousands",
                "rule.unseen", "rule.shortContent", "rule.freeScroll", "rule.animatedSend", "rule.keyboardSlides",
                "rule.banner", "rule.inputLines",
            ],
        ]
    }()

    static let enumKeys: Set<String> = [
        "appearance", "imageState", "curve", "indicators", "weight", "italic", "sticky", "status", "role",
        "keyboard", "online", "enable", "aiGenerated", "expanded", "border", "enabled", "font",
    ]

    mutating func record(json: JSONNode, fixture: Fixture, layout: FixtureLayout) {
        walk(json, key: nil, inStep: false)
        features.insert("device.\(fixture.device.name)")
        features.insert("canvas.scale\(Int(fixture.canvas.scale.rounded(.up)))")
        let frames = layout.states.flatMap(\.frames)
        if layout.states.dropFirst().contains(where: { $0.frames.count > 1 }) { features.insert("rule.animates") }
        switch fixture.content {
        case let post as PostFixture:
            features.insert(post.image == nil ? "image.none" : "image")
            if let r = post.image?.aspectRatio { ratio(r) }
            if case .spring = post.curve { features.insert("curve.spring") }
            for block in BodyFormatter.blocks(post.body) {
                switch block {
                case .heading: features.insert("body.heading")
                case .bullet: features.insert("body.bullet")
                case .blank: features.insert("body.blank")
                case .paragraph: break
                }
            }
            if post.steps.contains(where: { ($0.at ?? 10) < 0.3 }) && layout.states.count > 2 {
                features.insert("rule.interrupted")
            }
            if frames.contains(where: { $0.element("title")?["truncated"] == .bool(true) }) {
                features.insert("rule.titleTruncated")
            }
        case let t as TranscriptFixture:
            if t.font.leading == nil { features.insert("font.size") }
            if frames.contains(where: { ($0.scroll?.contentHeight ?? 0) > ($0.scroll?.viewportHeight ?? 0) + 1 }) {
                features.insert("rule.scrolls")
            }
            if frames.contains(where: { $0.scroll?.following == false }) { features.insert("rule.heldWhileScrolledUp") }
            if frames.contains(where: { $0.element("text")?["lines"] == .int(1) }) { features.insert("rule.oneLine") }
            if frames.contains(where: {
                ($0.scroll?.viewportHeight ?? 0) >= LineMetrics.height(lines: t.maxLines, font: t.font) - 0.01
                    && t.maxLines > 1
            }) {
                features.insert("rule.maxLines")
            }
        case let c as ComposerFixture:
            if c.font.leading == nil { features.insert("font.size") }
            if layout.states.contains(where: { $0.note != nil }) { features.insert("rule.note") }
            if frames.contains(where: { $0.element("field")?["matched"] == .bool(true) }) {
                features.insert("rule.matched")
            }
            if frames.contains(where: { $0.element("field")?["matched"] == .bool(false) }) {
                features.insert("rule.unmatched")
            }
            if frames.contains(where: { ($0.scroll?.offset ?? 0) > 0 }) { features.insert("rule.scrolls") }
            if frames.contains(where: { $0.scroll?.following == false }) { features.insert("rule.dragKept") }
            if layout.states.contains(where: { $0.name.contains("keyboard") && $0.frames.count > 1 }) {
                features.insert("rule.keyboardSlides")
            }
            for f in frames {
                if let p = f.element("placeholder") {
                    features.insert(p["disabled"] == .bool(true) ? "rule.disabledPlaceholder" : "rule.placeholder")
                }
                if let m = f.element("text")?["marked"], m != .null { features.insert("rule.marked") }
                if case .ints(let s)? = f.element("text")?["selection"], s[0] < s[1] {
                    features.insert("rule.selection")
                }
                if case .int(let n)? = f.element("field")?["maxLines"], n < c.maxLines {
                    features.insert("rule.maxLinesLowered")
                }
            }
        case let c as ChatFixture:
            let total = c.messages.count
            if total == 1 { features.insert("messages.1") }
            if (100...999).contains(total) { features.insert("messages.hundreds") }
            if total >= 1000 { features.insert("messages.thousands") }
            for m in c.messages {
                if let r = m.imageAspectRatio {
                    features.insert("message.image")
                    if m.text.isEmpty { features.insert("message.imageOnly") }
                    ratio(r)
                }
            }
            if frames.contains(where: { if case .int(let n)? = $0.element("list")?["unseen"] { n > 0 } else { false } })
            {
                features.insert("rule.unseen")
            }
            if frames.contains(where: { ($0.scroll?.offset ?? 0) < 0 }) { features.insert("rule.shortContent") }
            if frames.contains(where: { $0.scroll?.following == false }) { features.insert("rule.freeScroll") }
            if layout.states.contains(where: { $0.name.hasSuffix("-send") && $0.frames.count > 1 }) {
                features.insert("rule.animatedSend")
            }
            if layout.states.contains(where: { $0.name.contains("keyboard") && $0.frames.count > 1 }) {
                features.insert("rule.keyboardSlides")
            }
            if frames.contains(where: { $0.element("banner") != nil }) { features.insert("rule.banner") }
            if frames.contains(where: { if case .int(let n)? = $0.element("input")?["lines"] { n >= 3 } else { false } }
            ) {
                features.insert("rule.inputLines")
            }
        default:
            XCTFail("no coverage features for the \(fixture.kind) kind")
        }
    }

    mutating func ratio(_ r: Double) {
        if r <= 0.25 { features.insert("image.ratio1:4") }
        if r >= 4 { features.insert("image.ratio4:1") }
        if r == 1 { features.insert("image.square") }
    }

    /// Keys present (top level as "key", in steps as "step.key"), values of the enumerations
    /// ("imageState=failed"), and what the strings hold.
    mutating func walk(_ node: JSONNode, key: String?, inStep: Bool, depth: Int = 0) {
        switch node.value {
        case .object(let members):
            for m in members {
                if depth == 0 { features.insert(m.key) }
                if inStep && depth == 2 { features.insert("step.\(m.key)") }
                if key == "messages" || key == "receive" {
                    features.insert(m.key == "id" ? "message.id" : "message.\(m.key)")
                }
                if key == "messages", !members.contains(where: { $0.key == "id" }) {
                    features.insert("message.defaultID")
                }
                if key == "curve" && (m.key == "spring" || m.key == "cubic") { features.insert("curve.\(m.key)") }
                if key == "spring" { features.insert("curve.spring.\(m.key)") }
                walk(m.value, key: m.key, inStep: inStep || m.key == "steps", depth: depth + 1)
            }
        case .array(let items):
            // Messages are array items: their members report under "messages".
            for item in items { walk(item, key: key, inStep: inStep, depth: depth + (key == "steps" ? 1 : 0)) }
        case .string(let s):
            if let key, Self.enumKeys.contains(key) { features.insert("\(key)=\(s)") }
            text(s)
        case .bool(let b):
            if let key, Self.enumKeys.contains(key) { features.insert("\(key)=\(b)") }
        case .number, .null:
            break
        }
    }

    mutating func text(_ s: String) {
        var latin = false
        var cjk = false
        var arabic = false
        var emoji = false
        for u in s.unicodeScalars {
            switch u.value {
            case 0x41...0x5A, 0x61...0x7A: latin = true
            case 0x3040...0x9FFF, 0xAC00...0xD7AF: cjk = true
            case 0x0600...0x06FF: arabic = true
            case 0x1F300...0x1FAFF: emoji = true
            default: break
            }
        }
        if latin { features.insert("script.latin") }
        if cjk { features.insert("script.cjk") }
        if arabic { features.insert("script.arabic") }
        if emoji { features.insert("script.emoji") }
        if [latin, cjk, arabic, emoji].filter({ $0 }).count >= 3 { features.insert("script.mixed") }
        if s.count >= 2000 { features.insert("text.thousands") }
        if !s.isEmpty, !s.contains(" "), s.count < 30, cjk || latin || arabic { features.insert("text.oneWord") }
        if s.contains("**") { features.insert("markup.bold") }
        if s.replacingOccurrences(of: "**", with: "").contains("*") { features.insert("markup.italic") }
    }
}
