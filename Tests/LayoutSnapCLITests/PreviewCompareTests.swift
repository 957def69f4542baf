import Foundation
import LayoutSnapImaging
import LayoutSnapTestSupport
import XCTest

/// `preview A --compare ...`: side B rendered beside or over A, driven in headless Chromium.
extension PreviewTests {
    /// A 200 x 160 pt card expanding at 20 fps on easeInOut over 0.3 s: seven frames.
    static let expandingCard =
        #"{"kind": "post", "width": 200, "height": 160, "scale": 1, "title": "Card", "summary": "A summary that wraps onto a second line", "fps": 20, "steps": [{"expand": true}]}"#

    /// Two curves and two durations: by progress B shows the frame nearest A's progress, by time
    /// the frame of A's moment, in a state's view and on the timeline; B, twice as long, runs on
    /// after A has ended.
    func testCompareTwoCurvesScrubsBothSidesTogether() throws {
        let chromium = try Browser.chromium()
        let dir = try TempDir()
        let fixture = try dir.write("card.json", Self.expandingCard)
        let p = try preview(fixture.path, ["--compare-curve", "easeIn", "--compare-duration", "0.6"])
        let compare = try XCTUnwrap(p.pageData()["compare"] as? [String: Any])
        XCTAssertEqual(compare["a"] as? String, "card")
        XCTAssertEqual(compare["b"] as? String, "card · curve easeIn · duration 0.6 s")
        XCTAssertEqual(compare["sameCanvas"] as? Bool, true)
        let b = try XCTUnwrap(compare["data"] as? [String: Any])
        let bStates = try XCTUnwrap(b["states"] as? [[String: Any]])
        XCTAssertEqual(bStates.map { $0["curve"] as? String }, [nil, "easeIn runs 0.6 s"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: p.out.path + "/compare/states/01-expand/frames/012.png"))
        let script = #"""
              const b = document.body.dataset;
              const D = JSON.parse(document.getElementById('layoutsnap-preview').textContent);
              const A = D.states[1].frames, B = D.compare.data.states[1].frames;
              const imgB = document.getElementById('frame-b');
              const shows = (k) => imgB.getAttribute('src') === 'compare/' + B[k].image;
              ok(A.length === 7 && B.length === 13, 'frames: ' + A.length + ' and ' + B.length);
              document.querySelector('nav button[data-state="01-expand"]').click();
              ok(b.view === '01-expand', 'the expand: ' + b.view);
              document.querySelector('button[data-sync=progress]').click();
              ok(b.sync === 'progress', 'by progress: ' + b.sync);
              for (let k = 0; k < A.length; k++) {
                const near = Math.min(...B.map((f) => Math.abs(f.progress - A[k].progress)));
                ok(b.frame === String(k), 'A at frame ' + k + ': ' + b.frame);
                ok(Math.abs(Number(b.bProgress) - A[k].progress) === near, 'frame ' + k + ': B at progress ' + b.bProgress + ' for ' + A[k].progress);
                ok(shows(Number(b.bFrame)), 'B shows its frame ' + b.bFrame + ': ' + imgB.getAttribute('src'));
                key('ArrowRight');
              }
              key('Home');
              key('ArrowRight'); key('ArrowRight');
              const atTwo = b.bFrame;
              document.querySelector('button[data-sync=time]').click();
              ok(b.sync === 'time' && location.hash.includes('sync=time'), 'by time: ' + b.sync);
              ok(b.bFrame === '2' && b.bTime === b.time && shows(2), 'by time B is at A\'s time: ' + b.bTime + ' and ' + b.time);
              ok(atTwo !== '2', 'by progress easeIn is behind at 0.1 s: B frame ' + atTwo);
              for (let k = 3; k < A.length; k++) { key('ArrowRight'); ok(b.bTime === b.time && b.bFrame === String(k), 'by time at ' + b.time + ': B ' + b.bTime); }
              key('End');
              ok(b.frame === '6' && b.bFrame === '12' && b.bTime === '0.6000' && shows(12), 'End: A holds frame 6, B its last: ' + b.frame + ' ' + b.bFrame + ' at ' + b.bTime);
              ok(document.querySelector('input.scrubber').max === String(A.length + 6 - 1), 'the scrubber reaches B\'s end');
              // The filmstrip: each cell A's frame and B's paired with it, then B's later frames
              // beside A's last; each cell goes to its frame, B with it.
              const cells = [...document.querySelectorAll('.strips .cell')];
              ok(cells.length === 13 && cells.filter((c) => c.classList.contains('tail')).length === 6, 'A\'s 7 frames, then B\'s 6 later ones: ' + cells.length);
              cells.forEach((c, k) => {
                const bImg = c.querySelector('img.b');
                ok(c.dataset.bFrame === String(k) && bImg && bImg.getAttribute('src') === 'compare/' + B[k].image, 'cell ' + k + ' by time holds B\'s frame ' + k + ': ' + c.dataset.bFrame);
                ok(c.querySelector('img:not(.b)').getAttribute('src') === A[Math.min(k, 6)].image, 'cell ' + k + ' holds A\'s frame');
              });
              document.querySelector('button[data-sync=progress]').click();
              const paired = [...document.querySelectorAll('.strips .cell')];
              for (let k = 0; k < A.length; k++) {
                const near = Math.min(...B.map((f) => Math.abs(f.progress - A[k].progress)));
                ok(Math.abs(B[Number(paired[k].dataset.bFrame)].progress - A[k].progress) === near, 'cell ' + k + ' by progress: B ' + paired[k].dataset.bFrame);
                ok(paired[k].querySelector('img.b').getAttribute('src') === 'compare/' + B[Number(paired[k].dataset.bFrame)].image, 'cell ' + k + ' shows that frame of B');
              }
              ok(paired[2].dataset.bFrame !== '2', 'by progress the cells pair otherwise than by time');
              ok(document.querySelector('.cells-key').textContent.includes('paired by progress'), 'the key says how');
              paired[4].click();
              ok(b.frame === '4' && b.bFrame === paired[4].dataset.bFrame && shows(Number(b.bFrame)), 'a cell goes to its frame, B with it: ' + b.frame + ', B ' + b.bFrame);
              ok(paired[4].getAttribute('aria-current') === 'true', 'the cell is the current one');
              document.querySelector('button[data-sync=time]').click();
              // The timeline by time: both at the moment the slider names.
              document.querySelector('nav button[data-view=timeline]').click();
              const range = document.querySelector('input.scrubber');
              ok(range.max === '600', 'the timeline runs to B\'s end: ' + range.max);
              range.value = '150'; fire(range, 'input');
              ok(b.state === '01-expand' && b.frame === '3' && b.bState === '01-expand' && b.bFrame === '3' && b.bTime === '0.1500', 'timeline 150 ms: A ' + b.frame + ', B ' + b.bFrame + ' at ' + b.bTime);
              document.querySelector('button[data-sync=progress]').click();
              ok(Math.abs(Number(b.bProgress) - Number(b.progress)) === Math.min(...B.map((f) => Math.abs(f.progress - Number(b.progress)))), 'timeline by progress: ' + b.bProgress + ' for ' + b.progress);
              // Each plot draws both tracks, B dashed, and the key names both sides.
              const plot = document.querySelector('figure[data-track="card.height"]');
              ok(plot && plot.querySelector('path.actual') && plot.querySelector('path.compare-b'), 'card.height has A and B');
              ok(getComputedStyle(plot.querySelector('path.compare-b')).strokeDasharray !== 'none', 'B is dashed');
              const legend = document.querySelector('.plot-key').textContent;
              ok(legend.includes('A: card') && legend.includes('B: card · curve easeIn · duration 0.6 s'), 'legend: ' + legend);
              done();
            """#
        XCTAssertEqual(try drive(chromium, p, script), "ok")
    }

    /// Light against dark: two different images, side by side, then overlaid as the difference.
    func testCompareAppearanceShowsTwoImagesAndTheirDifference() throws {
        let chromium = try Browser.chromium()
        let dir = try TempDir()
        let fixture = try dir.write("card.json", Self.expandingCard)
        let p = try preview(fixture.path, ["--compare-appearance", "dark"])
        let light = try p.png("states/01-expand/frames/003.png")
        let dark = try p.png("compare/states/01-expand/frames/003.png")
        XCTAssertEqual([light.width, light.height], [dark.width, dark.height])
        XCTAssertNotEqual(light.pixels, dark.pixels, "dark is drawn in dark")
        let script = #"""
              const b = document.body.dataset;
              const a = document.getElementById('frame'), bImg = document.getElementById('frame-b');
              const over = document.getElementById('frame-over');
              ok(b.compare === 'side', 'side by side first: ' + b.compare);
              ok(a.getAttribute('src') !== bImg.getAttribute('src') && bImg.getAttribute('src').startsWith('compare/'), 'two images: ' + a.getAttribute('src') + ' and ' + bImg.getAttribute('src'));
              ok(!bImg.closest('figure').hidden && over.hidden, 'B beside A, not over it');
              document.querySelector('button[data-compare-mode=difference]').click();
              ok(b.compare === 'difference' && location.hash.includes('compare=difference'), 'difference: ' + b.compare);
              ok(bImg.closest('figure').hidden && !over.hidden, 'B over A');
              ok(getComputedStyle(over).mixBlendMode === 'difference' && getComputedStyle(over).opacity === '1', 'blended as the difference');
              ok(over.getAttribute('src') === bImg.getAttribute('src'), 'the same frame of B');
              document.querySelector('button[data-compare-mode=onion]').click();
              const slider = document.querySelector('input.opacity');
              slider.value = '30'; fire(slider, 'input');
              ok(getComputedStyle(over).opacity === '0.3' && getComputedStyle(over).mixBlendMode === 'normal', 'onion skin at 30 %: ' + getComputedStyle(over).opacity);
              ok(!document.querySelector('.compare-note'), 'the same canvas: no note');
              setTimeout(() => {
                ok(a.complete && a.naturalWidth === 200 && over.complete && over.naturalWidth === 200, 'both images load: ' + a.naturalWidth + ', ' + over.naturalWidth);
                done();
              }, 200);
            """#
        XCTAssertEqual(try drive(chromium, p, hash: "#state=01-expand&frame=3", script), "ok")
    }

    /// Another fixture on another canvas: side by side each at its size, overlaid from the
    /// top-left corner, which the page says.
    func testCompareAnotherFixtureOnAnotherCanvas() throws {
        let chromium = try Browser.chromium()
        let dir = try TempDir()
        let fixture = try dir.write("card.json", Self.expandingCard)
        let wide = try dir.write(
            "wide.json", Self.expandingCard.replacingOccurrences(of: "\"width\": 200", with: "\"width\": 300"))
        let p = try preview(fixture.path, ["--compare", wide.path])
        let compare = try XCTUnwrap(p.pageData()["compare"] as? [String: Any])
        XCTAssertEqual(compare["b"] as? String, "wide")
        XCTAssertEqual(compare["sameCanvas"] as? Bool, false)
        let script = #"""
              const b = document.body.dataset;
              const stages = [...document.querySelectorAll('.stage')];
              ok(stages.length === 2, 'two stages');
              const [wa, wb] = stages.map((s) => s.getBoundingClientRect().width);
              ok(Math.abs(wb / wa - 1.5) < 0.01, 'each at its size: ' + wa + ' and ' + wb);
              const note = document.querySelector('.compare-note');
              ok(note && note.textContent.includes('B 300 × 160 pt') && note.textContent.includes('top-left'), 'the note: ' + (note && note.textContent));
              document.querySelector('button[data-compare-mode=onion]').click();
              ok(Math.abs(stages[0].getBoundingClientRect().width - wb) < 0.5, 'overlaid, the stage holds the wider B');
              const over = document.getElementById('frame-over');
              ok(over.getBoundingClientRect().left === document.getElementById('frame').getBoundingClientRect().left, 'aligned left');
              done();
            """#
        XCTAssertEqual(try drive(chromium, p, script), "ok")
    }

    /// The recorded goldens as side B: their own frames, copied beside the page, paired with a
    /// new curve's by time; a folder without the fixture is refused before anything renders.
    func testCompareWithTheGoldensShowsTheRecordedFrames() throws {
        let dir = try TempDir()
        let fixture = try dir.write("Fixtures/card.json", Self.expandingCard)
        let record = try CLI.run(["record", "--no-progress", "--allow-ci", "--goldens", "G"], in: dir.url)
        XCTAssertEqual(record.status, 0, record.output)
        let goldens = dir.path("G").path
        let p = try preview(fixture.path, ["--compare-goldens", goldens, "--curve", "easeIn"])
        let compare = try XCTUnwrap(p.pageData()["compare"] as? [String: Any])
        XCTAssertEqual(compare["b"] as? String, "goldens \(goldens)")
        let states = try XCTUnwrap((compare["data"] as? [String: Any])?["states"] as? [[String: Any]])
        XCTAssertEqual(states.map { $0["name"] as? String }, ["initial", "01-expand"])
        let frames = try XCTUnwrap(states[1]["frames"] as? [[String: Any]])
        XCTAssertEqual(frames.count, 7)
        XCTAssertEqual(frames[3]["image"] as? String, "states/01-expand/frames/003.png")
        let copied = try Data(contentsOf: p.out.appendingPathComponent("compare/states/01-expand/frames/003.png"))
        XCTAssertEqual(copied, try Data(contentsOf: dir.path("G/card/01-expand/003.png")), "the golden frame itself")
        XCTAssertNotEqual(
            try p.png("states/01-expand/frames/003.png").pixels,
            try p.png("compare/states/01-expand/frames/003.png").pixels, "easeIn is elsewhere at 0.15 s than easeInOut")
        let pairs = try XCTUnwrap((compare["pairs"] as? [String: Any])?["states"] as? [[String: Any]])
        XCTAssertEqual(pairs[1]["time"] as? [Int], Array(0..<7))
        let missing = try CLI.run([
            "preview", fixture.path, "--out", dir.path("out").path, "--compare-goldens", dir.path("none").path,
        ])
        XCTAssertEqual(missing.status, 2, missing.output)
        XCTAssertTrue(missing.stderr.contains("cannot be read (record card into"), missing.stderr)
        let mixed = try CLI.run(["preview", fixture.path, "--compare-goldens", goldens, "--compare-appearance", "dark"])
        XCTAssertTrue(mixed.stderr.contains("leave out the other --compare options"), mixed.stderr)
    }

    /// A variant and a text size as side B: the variant's own device and size, and AX3's larger
    /// text, laid out as the fixture would be.
    func testCompareAVariantAndATextSize() throws {
        let variant = try preview("Fixtures/chats/one-message.json", ["--compare-variant", "iphone-se+AX3+dark"])
        let compare = try XCTUnwrap(variant.pageData()["compare"] as? [String: Any])
        XCTAssertEqual(compare["b"] as? String, "chats/one-message@iphone-se+AX3+dark")
        XCTAssertEqual(compare["sameCanvas"] as? Bool, false)
        let canvas = try XCTUnwrap((compare["data"] as? [String: Any])?["canvas"] as? [String: Double])
        XCTAssertEqual([canvas["width"], canvas["height"]], [375, 667])

        func bubbleHeight(_ data: [String: Any]) throws -> Double {
            let states = try XCTUnwrap(data["states"] as? [[String: Any]])
            let elements = try XCTUnwrap((states[0]["frames"] as? [[String: Any]])?[0]["elements"] as? [[String: Any]])
            let bubble = try XCTUnwrap(elements.first { $0["id"] as? String == "message:m1" })
            return try XCTUnwrap((bubble["rect"] as? [Double])?[3])
        }
        let large = try preview("Fixtures/chats/one-message.json", ["--compare-text-size", "ax3"])
        let data = try large.pageData()
        let sized = try XCTUnwrap(data["compare"] as? [String: Any])
        XCTAssertEqual(sized["b"] as? String, "chats/one-message · text size AX3")
        XCTAssertEqual(sized["sameCanvas"] as? Bool, true)
        XCTAssertGreaterThan(
            try bubbleHeight(try XCTUnwrap(sized["data"] as? [String: Any])), 2 * (try bubbleHeight(data)))
    }

    /// Runs `script` on the comparison's page (`Browser.drive`).
    func drive(_ chromium: URL, _ p: Preview, hash: String = "", _ script: String) throws -> String? {
        try Browser.drive(
            chromium, page: p.out.appendingPathComponent("index.html"), hash: hash, script: script,
            profile: p.dir.path("profile"))
    }

    /// A chat has no curve: `--compare-curve` is refused as `--curve` is, naming the option as
    /// typed and the kinds it applies to, before anything is written.
    func testCompareCurveIsRefusedForAKindWithoutACurve() throws {
        let dir = try TempDir()
        let out = dir.path("out")
        let r = try CLI.run(
            ["preview", "Fixtures/chats/dark-send.json", "--out", out.path, "--compare-curve", "easeIn"])
        XCTAssertEqual(r.status, 2, r.output)
        XCTAssertTrue(
            r.stderr.contains("--compare-curve applies only to post fixtures (the kinds with a `curve` field)"),
            r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path + "/index.html"))
        let typo = try CLI.run([
            "preview", "Fixtures/posts/long-body.json", "--out", out.path, "--compare-text-size", "huge",
        ])
        XCTAssertNotEqual(typo.status, 0)
        XCTAssertTrue(typo.stderr.contains("--compare-text-size: unknown text size \"huge\""), typo.stderr)
    }
}

/// A comparison exported: B's frames to the right of A's in one file.
extension ExportTests {
    /// The card against itself at twice the duration, as a GIF at 20 fps: A's 7 frames of 0.3 s,
    /// then A's last again beside B's 6 later ones, B's end held 1 s: 13 frames, 1.6 s, 200 + 8 +
    /// 200 px wide. Each half decodes back to that side's rendered frame.
    func testAComparisonAsAGIFSideBySide() throws {
        let (_, ffprobe) = try tools()
        let dir = try TempDir()
        let fixture = try dir.write("card.json", PreviewTests.expandingCard)
        let (out, stdout) = try preview(
            [fixture.path, "--compare-duration", "0.6", "--export", "gif", "--export-state", "01-expand"], in: dir)
        let file = out.appendingPathComponent("export/01-expand-compared.gif")
        XCTAssertTrue(stdout.contains("export: \(file.path), 13 frames, 1.60 s, 408 x 160"), stdout)
        XCTAssertEqual(
            try probe(file, ffprobe), Probe(codec: "gif", frames: 13, duration: 1.6, width: 408, height: 160))
        let gif = try GIFReader([UInt8](Data(contentsOf: file)))
        XCTAssertEqual(gif.frames.map(\.centiseconds), Array(repeating: 5, count: 12) + [100])
        func half(_ image: PixelImage, from left: Int) -> PixelImage {
            var pixels: [UInt32] = []
            for y in 0..<160 {
                let start = y * image.width + left
                pixels += image.pixels[start..<(start + 200)]
            }
            return PixelImage(width: 200, height: 160, pixels: pixels)
        }
        func frame(_ side: String, _ k: Int) throws -> PixelImage {
            try PNGDecoder.decode(
                [UInt8](
                    Data(
                        contentsOf: out.appendingPathComponent(
                            "\(side)states/01-expand/frames/\(String(format: "%03d", k)).png"))))
        }
        for k in 0..<13 {
            let a = difference(half(gif.images[k], from: 0), try frame("", min(k, 6)))
            let b = difference(half(gif.images[k], from: 208), try frame("compare/", k))
            XCTAssertLessThan(a.mean, 0.05, "A at frame \(k)")
            XCTAssertLessThan(b.mean, 0.05, "B at frame \(k)")
        }
        XCTAssertEqual(gif.images[0].pixels[204], 0xFFD1_D1D6, "the gutter")

        // Paired by progress: the same curve over twice the time is at A's progress of frame k
        // at its frame 2k, and after A's end B's last frame stays beside A's.
        let (byProgress, said) = try preview(
            [
                fixture.path, "--compare-duration", "0.6", "--export", "gif", "--export-state", "01-expand",
                "--export-pairing", "progress",
            ], in: dir)
        let progressFile = byProgress.appendingPathComponent("export/01-expand-compared.gif")
        XCTAssertTrue(said.contains("13 frames, 1.60 s, 408 x 160"), said)
        let paired = try GIFReader([UInt8](Data(contentsOf: progressFile)))
        for k in 0..<13 {
            let b = difference(
                half(paired.images[k], from: 208),
                try PNGDecoder.decode(
                    [UInt8](
                        Data(
                            contentsOf: byProgress.appendingPathComponent(
                                "compare/states/01-expand/frames/\(String(format: "%03d", min(2 * k, 12))).png")))))
            XCTAssertLessThan(b.mean, 0.05, "B beside A's frame \(k) by progress")
        }
        let lone = try CLI.run(
            ["preview", fixture.path, "--export", "gif", "--export-pairing", "progress"], in: dir.url)
        XCTAssertEqual(lone.status, 2, lone.output)
        XCTAssertTrue(lone.stderr.contains("--export-pairing pairs a comparison's frames"), lone.stderr)
    }
}
