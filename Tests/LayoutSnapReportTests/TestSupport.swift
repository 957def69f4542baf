import Foundation
import LayoutSnapCore
import LayoutSnapDiff
import LayoutSnapTestSupport
import XCTest
@testable import LayoutSnapReport

// MARK: - Sample results

enum Samples {
    static let failingMessage = "2210 pixels differ (0.41%)"

    static func imagePath(_ fixture: String, _ state: String, _ index: Int, _ kind: String) -> String {
        "\(fixture)/\(state)/\(String(format: "%03d", index))-\(kind).png"
    }

    /// A small run: one fixture with a failing animation frame (01-expand
    /// frame 7) plus one of every other kind of outcome.
    static func small() -> RunResults {
        let id = "posts/long-body"
        var expand: [FrameEntry] = []
        for i in 0..<12 {
            let golden = "posts/long-body/01-expand/\(String(format: "%03d", i)).png"
            let expected = imagePath(id, "01-expand", i, "expected")
            var frame = FrameEntry(
                index: i, time: Double(i) / 60, progress: Double(i) / 11, status: .passed,
                golden: golden, expected: expected, actual: expected)
            if i == 7 {
                frame.status = .failed
                frame.message = failingMessage
                frame.actual = imagePath(id, "01-expand", i, "actual")
                frame.diff = imagePath(id, "01-expand", i, "diff")
                frame.metrics = DiffFigures(
                    differentPixels: 2210, ratio: 0.0041, maxChannelDifference: 87,
                    regions: [[20, 150, 140, 60]], width: 180, height: 320)
                frame.layoutChanges = ["body.y +4.00", "card.height -12.50"]
            } else if i == 9 {
                frame.status = .similar
                frame.message = "12 pixels differ (0.02%)"
                frame.actual = imagePath(id, "01-expand", i, "actual")
                frame.diff = imagePath(id, "01-expand", i, "diff")
                frame.metrics = DiffFigures(
                    differentPixels: 12, ratio: 0.0002, maxChannelDifference: 3,
                    regions: [[30, 40, 4, 3]], width: 180, height: 320)
            }
            expand.append(frame)
        }
        let fixtures = [
            FixtureEntry(
                id: "settings/toggle", file: "Fixtures/settings/toggle.json",
                states: [
                    StateEntry(
                        name: "initial",
                        frames: [
                            FrameEntry(
                                index: 0, time: 0, progress: 1, status: .passed,
                                golden: "settings/toggle/initial/000.png")
                        ])
                ]),
            FixtureEntry(
                id: "feed/card", file: "Fixtures/feed/card.json",
                states: [
                    StateEntry(
                        name: "initial",
                        frames: [
                            FrameEntry(
                                index: 0, time: 0, progress: 1, status: .similar,
                                message: "3 pixels differ (0.00%)", golden: "feed/card/initial/000.png")
                        ])
                ]),
            FixtureEntry(
                id: id, file: "Fixtures/posts/long-body.json",
                states: [
                    StateEntry(
                        name: "initial",
                        frames: [
                            FrameEntry(
                                index: 0, time: 0, progress: 1, status: .passed,
                                golden: "posts/long-body/initial/000.png")
                        ]),
                    StateEntry(name: "01-expand", frames: expand),
                ]),
            FixtureEntry(
                id: "profile/avatar", file: "Fixtures/profile/avatar.json",
                states: [
                    StateEntry(
                        name: "initial",
                        frames: [
                            FrameEntry(
                                index: 0, time: 0, progress: 1, status: .missing,
                                message: "no golden for profile/avatar/initial/000.png",
                                golden: "profile/avatar/initial/000.png",
                                actual: "profile/avatar/initial/000-actual.png")
                        ])
                ]),
            FixtureEntry(
                id: "media/gallery", file: "Fixtures/media/gallery.json",
                states: [
                    StateEntry(
                        name: "initial",
                        frames: [
                            FrameEntry(
                                index: 0, time: 0, progress: 1, status: .unreadable,
                                message: "unreadable golden: truncated PNG (IDAT ends early)",
                                golden: "media/gallery/initial/000.png")
                        ])
                ]),
            FixtureEntry(
                id: "broken/bad-json", file: "Fixtures/broken/bad-json.json",
                diagnostic: Diagnostic(
                    .error, .fixture, file: "Fixtures/broken/bad-json.json", line: 3, column: 14,
                    path: "$.states[0].steps", message: "expected an array"), states: []),
        ]
        return RunResults(
            version: "0.4.0", durationSeconds: 3.52,
            environmentDifferences: ["font: Inter 4.0 (goldens: Inter 3.19)"], fixtures: fixtures)
    }

    /// `fixtureCount` fixtures × (1 + `framesPerAnimation`) frames; every
    /// tenth fixture fails, with images on every frame of its failing state
    /// (the worst case for the embedded data size).
    static func large(fixtureCount: Int = 100, framesPerAnimation: Int = 99) -> RunResults {
        var fixtures: [FixtureEntry] = []
        for f in 0..<fixtureCount {
            let id = "screens/group-\(f / 10)/screen-\(String(format: "%04d", f))"
            let failing = f % 10 == 3
            var frames: [FrameEntry] = []
            for i in 0..<framesPerAnimation {
                let golden = "\(id)/02-scroll/\(String(format: "%03d", i)).png"
                var frame = FrameEntry(
                    index: i, time: Double(i) / 60, progress: Double(i) / Double(framesPerAnimation - 1),
                    status: .passed, golden: golden)
                if failing {
                    frame.expected = imagePath(id, "02-scroll", i, "expected")
                    frame.actual = frame.expected
                    if i % 7 == 3 {
                        frame.status = .failed
                        frame.message = "\(1000 + i) pixels differ (0.\(i)%)"
                        frame.actual = imagePath(id, "02-scroll", i, "actual")
                        frame.diff = imagePath(id, "02-scroll", i, "diff")
                        frame.metrics = DiffFigures(
                            differentPixels: 1000 + i, ratio: 0.003, maxChannelDifference: 120,
                            regions: [[0, 100, 390, 44], [12, 400, 80, 20]], width: 390, height: 844)
                        frame.layoutChanges = ["list.y +\(i).00", "header.height -2.50"]
                    }
                } else if i == 50 && f % 10 == 5 {
                    frame.status = .similar
                    frame.message = "4 pixels differ (0.00%)"
                }
                frames.append(frame)
            }
            fixtures.append(
                FixtureEntry(
                    id: id, file: "Fixtures/\(id).json",
                    states: [
                        StateEntry(
                            name: "initial",
                            frames: [
                                FrameEntry(
                                    index: 0, time: 0, progress: 1, status: .passed, golden: "\(id)/initial/000.png")
                            ]),
                        StateEntry(name: "02-scroll", frames: frames),
                    ]))
        }
        return RunResults(version: "0.4.0", durationSeconds: 812.25, fixtures: fixtures)
    }

    /// One fixture whose single state is a 10,000-frame animation with
    /// images on every frame and a failure every 37 frames.
    static func longAnimation(frames count: Int = 10_000) -> RunResults {
        let id = "onboarding/carousel"
        var frames: [FrameEntry] = []
        for i in 0..<count {
            let expected = imagePath(id, "03-swipe", i, "expected")
            var frame = FrameEntry(
                index: i, time: Double(i) / 120, progress: Double(i) / Double(count - 1), status: .passed,
                golden: "\(id)/03-swipe/\(String(format: "%05d", i)).png", expected: expected, actual: expected)
            if i % 37 == 5 {
                frame.status = .failed
                frame.message = "\(300 + i % 100) pixels differ (0.0\(i % 10)%)"
                frame.actual = imagePath(id, "03-swipe", i, "actual")
                frame.diff = imagePath(id, "03-swipe", i, "diff")
                frame.metrics = DiffFigures(
                    differentPixels: 300 + i % 100, ratio: 0.0009, maxChannelDifference: 40,
                    regions: [[10, 20, 30, 40]], width: 390, height: 844)
            }
            frames.append(frame)
        }
        let fixtures = [
            FixtureEntry(id: id, file: "Fixtures/\(id).json", states: [StateEntry(name: "03-swipe", frames: frames)])
        ]
        return RunResults(version: "0.4.0", durationSeconds: 95.5, fixtures: fixtures)
    }
}

extension Samples {
    /// A run one rule change failed (docs/review.md): every bubble 4 pt wider (cause 1, five
    /// frames in two fixtures, the bubble below moving with its pixels unchanged), a restyled
    /// composer (cause 2), a frame without a golden layout (unexplained) and a frame without a
    /// golden (missing). The canvas is 90 x 160 pt drawn at 2 px a point (180 x 320 px images).
    static func review() -> RunResults {
        func widened(_ fixture: String, _ state: String, _ index: Int, y: Double = 46) -> FrameEntry {
            var frame = failing(fixture, state, index)
            frame.attribution = FrameAttribution(
                kind: .layout,
                elements: [
                    ElementChange(id: "message:m1", change: .resized, dw: 4, pixels: 1200, rect: [6, y, 78, 30]),
                    ElementChange(
                        id: "message:m2", change: .moved, dy: -11, pixelsUnchanged: true, pixels: 300,
                        rect: [6, 96, 78, 20]),
                ])
            return frame
        }
        func failing(_ fixture: String, _ state: String, _ index: Int) -> FrameEntry {
            let name = String(format: "%03d", index)
            return FrameEntry(
                index: index, time: Double(index) / 15, progress: 1, status: .failed,
                message: "2210 pixels differ (0.41%)",
                golden: "\(fixture)/\(state)/\(name).png", expected: "expected/\(fixture)/\(state)/\(name).png",
                actual: "actual/\(fixture)/\(state)/\(name).png", diff: "diff/\(fixture)/\(state)/\(name).png",
                metrics: DiffFigures(
                    differentPixels: 2210, ratio: 0.0041, maxChannelDifference: 87,
                    regions: [[20, 150, 140, 60]], width: 180, height: 320),
                goldenHash: String(
                    format: "%016llx",
                    UInt64(fixture.utf8.count * 10_000 + state.utf8.count * 100 + index) &* 0x9E37_79B9_7F4A_7C15))
        }
        // One frame: the width track is constant (one value each), so it has no plot.
        let initialMotion = MotionReport(
            frames: [1, 1], duration: [0, 0], shift: nil, pairs: [[0, 0]], kinds: ["start", "end"],
            changes: [MotionChange(element: "message:m1", property: "width", kind: "end", largest: 4)],
            times: [[0], [0]], tracks: ["message:m1.width": [[74], [78]]])
        var send = (0..<5).map { i -> FrameEntry in
            var frame = FrameEntry(
                index: i, time: Double(i) / 15, progress: Double(i) / 4, status: .passed,
                golden: "chats/a/02-send/\(String(format: "%03d", i)).png",
                expected: "expected/chats/a/02-send/\(String(format: "%03d", i)).png",
                actual: "expected/chats/a/02-send/\(String(format: "%03d", i)).png")
            if (1...3).contains(i) { frame = widened("chats/a", "02-send", i, y: 46 - Double(i)) }
            return frame
        }
        var composer = failing("chats/a", "02-send", 4)
        composer.progress = 1
        composer.attribution = FrameAttribution(
            kind: .pixelsOnly,
            elements: [
                ElementChange(id: "composer", change: .restyled, pixels: 800, rect: [0, 140, 90, 20])
            ])
        send[4] = composer
        // Five frames: the width is constant over the state (78 throughout), the new message moves.
        let sendMotion = MotionReport(
            frames: [5, 5], duration: [0.27, 0.27], shift: nil, pairs: (0..<5).map { [$0, $0] }, kinds: ["end"],
            changes: [
                MotionChange(element: "message:m1", property: "width", kind: "end", largest: 4),
                MotionChange(element: "message:13", property: "y", kind: "curve", largest: 2, curve: "easeIn"),
            ],
            times: [(0..<5).map { Double($0) / 15 }, (0..<5).map { Double($0) / 15 }],
            tracks: [
                "message:m1.width": [[74, 74, 74, 74, 74], [78, 78, 78, 78, 78]],
                "message:13.y": [[160, 150, 140, 130, 120], [160, 152, 142, 131, 120]],
            ])
        var unexplained = failing("feed/c", "initial", 0)
        unexplained.layoutChanges = ["card.height -12.50"]
        let missing = FrameEntry(
            index: 0, time: 0, progress: 1, status: .missing, message: "no golden for feed/c/01-open/000.png",
            golden: "feed/c/01-open/000.png", actual: "actual/feed/c/01-open/000.png")
        var a = FixtureEntry(
            id: "chats/a", file: "Fixtures/chats/a.json",
            states: [
                StateEntry(name: "initial", frames: [widened("chats/a", "initial", 0)], motion: initialMotion),
                StateEntry(name: "02-send", frames: send, motion: sendMotion),
            ])
        a.canvas = [90, 160]
        var b = FixtureEntry(
            id: "chats/b", file: "Fixtures/chats/b.json",
            states: [
                StateEntry(name: "initial", frames: [widened("chats/b", "initial", 0)])
            ])
        b.canvas = [90, 160]
        let c = FixtureEntry(
            id: "feed/c", file: "Fixtures/feed/c.json",
            states: [
                StateEntry(name: "initial", frames: [unexplained]),
                StateEntry(name: "01-open", frames: [missing]),
            ])
        let passing = FixtureEntry(
            id: "settings/toggle", file: "Fixtures/settings/toggle.json",
            states: [
                StateEntry(
                    name: "initial",
                    frames: [
                        FrameEntry(
                            index: 0, time: 0, progress: 1, status: .passed, golden: "settings/toggle/initial/000.png")
                    ])
            ])
        return RunResults(version: "0.4.0", durationSeconds: 2.5, fixtures: [passing, a, b, c])
    }
}

extension XCTestCase {
    /// The review sample (`Samples.review`) with an image at every path it names.
    func makeReviewReport(_ prefix: String = "report-review") throws -> URL {
        let dir = try makeTemporaryFolder(prefix)
        let results = Samples.review()
        try HTMLReport.write(results, to: dir)
        for fixture in results.fixtures {
            for state in fixture.states {
                for frame in state.frames {
                    let expected = TestImage.screen(cardGrowth: frame.index * 4)
                    let actual =
                        frame.status == .passed ? expected : TestImage.screen(cardGrowth: frame.index * 4 + 8, shift: 2)
                    for (path, image) in [
                        (frame.expected, expected), (frame.actual, actual),
                        (frame.diff, expected.diff(against: actual)),
                    ] {
                        guard let path else { continue }
                        let url = dir.appendingPathComponent(path)
                        try FileManager.default.createDirectory(
                            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                        if !FileManager.default.fileExists(atPath: url.path) { try image.png().write(to: url) }
                    }
                }
            }
        }
        return dir
    }
}

// MARK: - Tiny PNG writer (stored deflate blocks, no zlib deflate needed)

struct TestImage {
    var width: Int, height: Int
    var rgba: [UInt8]

    init(width: Int, height: Int, fill: (UInt8, UInt8, UInt8)) {
        self.width = width
        self.height = height
        rgba = [UInt8](repeating: 255, count: width * height * 4)
        fillRect(0, 0, width, height, fill)
    }

    mutating func fillRect(_ x: Int, _ y: Int, _ w: Int, _ h: Int, _ c: (UInt8, UInt8, UInt8)) {
        for yy in max(0, y)..<min(height, y + h) {
            for xx in max(0, x)..<min(width, x + w) {
                let o = (yy * width + xx) * 4
                rgba[o] = c.0
                rgba[o + 1] = c.1
                rgba[o + 2] = c.2
                rgba[o + 3] = 255
            }
        }
    }

    /// Red where the images differ, a faded copy of `self` elsewhere.
    func diff(against other: TestImage) -> TestImage {
        var out = TestImage(width: width, height: height, fill: (255, 255, 255))
        for p in 0..<(width * height) {
            let o = p * 4
            if rgba[o..<o + 4] != other.rgba[o..<o + 4] {
                out.rgba[o] = 230
                out.rgba[o + 1] = 30
                out.rgba[o + 2] = 40
            } else {
                let grey = UInt8((Int(rgba[o]) + Int(rgba[o + 1]) + Int(rgba[o + 2])) / 3)
                let faded = UInt8(255 - (255 - Int(grey)) / 4)
                out.rgba[o] = faded
                out.rgba[o + 1] = faded
                out.rgba[o + 2] = faded
            }
        }
        return out
    }

    func png() -> Data {
        var raw = [UInt8]()
        raw.reserveCapacity((width * 4 + 1) * height)
        for y in 0..<height {
            raw.append(0)
            raw.append(contentsOf: rgba[(y * width * 4)..<((y + 1) * width * 4)])
        }
        var z: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let n = min(65_535, raw.count - offset)
            let final: UInt8 = offset + n == raw.count ? 1 : 0
            z.append(final)
            z.append(contentsOf: [UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)])
            z.append(contentsOf: raw[offset..<offset + n])
            offset += n
        } while offset < raw.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in raw {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        z.append(contentsOf: PNGChunks.be32((b << 16) | a))

        let ihdr = PNGChunks.be32(UInt32(width)) + PNGChunks.be32(UInt32(height)) + [8, 6, 0, 0, 0]
        return Data(
            PNGChunks.signature + PNGChunks.chunk("IHDR", ihdr) + PNGChunks.chunk("IDAT", z)
                + PNGChunks.chunk("IEND", []))
    }

    /// A phone-screen-like picture: app bar, avatar, text lines, a card whose
    /// height grows with `cardGrowth`, and a button.
    static func screen(cardGrowth: Int, shift: Int = 0, buttonColor: (UInt8, UInt8, UInt8) = (9, 105, 218)) -> TestImage
    {
        var img = TestImage(width: 180, height: 320, fill: (250, 250, 252))
        img.fillRect(0, 0, 180, 36, (36, 41, 47))
        img.fillRect(12, 14, 70, 8, (230, 232, 235))
        img.fillRect(12, 50, 28, 28, (130, 80, 223))
        img.fillRect(48, 54, 100, 7, (60, 64, 70))
        img.fillRect(48, 66, 70, 6, (150, 155, 160))
        let cardY = 92 + shift
        img.fillRect(12, cardY, 156, 60 + cardGrowth, (255, 255, 255))
        img.fillRect(12, cardY, 156, 1, (208, 215, 222))
        img.fillRect(12, cardY + 59 + cardGrowth, 156, 1, (208, 215, 222))
        for line in 0..<((60 + cardGrowth - 16) / 12) {
            img.fillRect(22, cardY + 10 + line * 12, line % 3 == 2 ? 90 : 136, 6, (120, 126, 134))
        }
        img.fillRect(12, 280, 156, 28, buttonColor)
        img.fillRect(66, 291, 48, 6, (255, 255, 255))
        return img
    }
}

func count(_ needle: String, in haystack: String) -> Int {
    haystack.components(separatedBy: needle).count - 1
}
