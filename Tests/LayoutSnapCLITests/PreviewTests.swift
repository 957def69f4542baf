import Foundation
import LayoutSnapImaging
import LayoutSnapTestSupport
import XCTest

/// `layoutsnap preview` as a designer uses it: a bundled post card previewed, its contact sheet,
/// animation and page checked, the page opened in Chromium and scrubbed, and `--watch` picking up
/// an edit.
final class PreviewTests: XCTestCase {
    struct Preview {
        let dir: TempDir
        let out: URL
        let layout: [String: Any]

        func states() -> [[String: Any]] { layout["states"] as! [[String: Any]] }
        func frames(_ state: String) -> [[String: Any]] {
            states().first { $0["name"] as? String == state }!["frames"] as! [[String: Any]]
        }
        /// The page's data: the JSON embedded in index.html.
        func pageData() throws -> [String: Any] {
            let html = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
            let open = "<script type=\"application/json\" id=\"layoutsnap-preview\">"
            let start = try XCTUnwrap(html.range(of: open)).upperBound
            let end = try XCTUnwrap(html.range(of: "</script>", range: start..<html.endIndex)).lowerBound
            return try JSONSerialization.jsonObject(with: Data(html[start..<end].utf8)) as! [String: Any]
        }
        func png(_ relative: String) throws -> PixelImage {
            try PNGDecoder.decode([UInt8](Data(contentsOf: out.appendingPathComponent(relative))))
        }
    }

    func preview(_ fixture: String = "Fixtures/posts/long-body.json", _ extra: [String] = []) throws -> Preview {
        let dir = try TempDir()
        let out = dir.path("preview")
        let r = try CLI.run(["preview", fixture, "--out", out.path] + extra)
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertTrue(r.stdout.contains("Open \(out.path)/index.html"), r.stdout)
        let layout =
            try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("layout.json")))
            as! [String: Any]
        return Preview(dir: dir, out: out, layout: layout)
    }

    /// Every state has its frames, a contact sheet and an APNG whose frames are exactly the
    /// frames, at their real timing, valid per the APNG spec (APNGReader checks the chunks and
    /// sequence numbers).
    func testPreviewOfABundledPostCard() throws {
        let p = try preview()
        XCTAssertEqual(p.layout["fixture"] as? String, "posts/long-body")
        XCTAssertEqual(p.states().map { $0["name"] as! String }, ["initial", "01-expand"])
        for state in ["initial", "01-expand"] {
            let frames = p.frames(state)
            let apng = try APNGReader(
                [UInt8](Data(contentsOf: p.out.appendingPathComponent("states/\(state)/animation.png"))))
            XCTAssertEqual(apng.frameCount, frames.count, state)
            XCTAssertEqual(apng.loops, 0, "loops forever")
            // fcTL and fdAT share one counter: frame k's fcTL is 2k - 1 (frame 0's is 0, its data is IDAT).
            let expectedSequence: [UInt32] = (0..<frames.count).map { k in k == 0 ? 0 : UInt32(2 * k - 1) }
            XCTAssertEqual(apng.frames.map(\.sequence), expectedSequence)
            for k in frames.indices {
                let expected = try p.png("states/\(state)/frames/\(String(format: "%03d", k)).png")
                XCTAssertEqual(apng.images[k], expected, "\(state) APNG frame \(k) is not the frame")
                // long-body runs at 60 fps; the settled last frame holds for a second.
                XCTAssertEqual(
                    apng.frames[k].delay, k + 1 < frames.count ? 1.0 / 60 : 1, accuracy: 0.0001,
                    "\(state) frame \(k) delay")
            }
            let sheet = try p.png("states/\(state)/filmstrip.png")
            XCTAssertGreaterThan(sheet.width, 100)
            XCTAssertGreaterThan(sheet.height, 100)
        }
        // One frame (a 200 pt thumbnail) on a sheet as wide as its title.
        XCTAssertGreaterThan(
            try p.png("states/initial/filmstrip.png").width, 2 * 16 + 200 + 40, "the title fits on a one-frame sheet")
        // 19 frames of a 390 x 650 card: 7 thumbnails to a row, 3 rows.
        let sheet = try p.png("states/01-expand/filmstrip.png")
        XCTAssertEqual(p.frames("01-expand").count, 19)
        XCTAssertGreaterThan(sheet.height, 3 * 200)
        // Only the changed rectangle is stored: the expanding card, not the whole canvas.
        let apng = try APNGReader(
            [UInt8](Data(contentsOf: p.out.appendingPathComponent("states/01-expand/animation.png"))))
        XCTAssertLessThan(apng.frames[1].height, apng.height)
        let html = try String(contentsOf: p.out.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("\"image\":\"states/01-expand/frames/018.png\""))
        XCTAssertTrue(html.contains("\"lines\":[{\"box\":["), "the page carries the text lines for the overlays")
    }

    /// Chromium decodes the APNG as an animation (WebCodecs' ImageDecoder, through the DevTools
    /// pipe): every frame, the real durations, looping forever, and the pixels of each frame.
    func testAnimationPlaysInChromium() throws {
        let chromium = try Browser.chromium()
        guard let python = TestTools.python3() else { throw XCTSkip("python3 not found") }
        let p = try preview()
        let script = p.dir.path("apng_check.py")
        try Data(Self.apngCheck.utf8).write(to: script)
        let check = try TestProcess.run(
            python,
            [
                script.path, chromium.path, p.out.appendingPathComponent("states/01-expand/animation.png").path,
                p.dir.path("profile").path,
            ], timeout: 300)
        XCTAssertEqual(check.status, 0, check.output)
        let data = Data(check.stdout.utf8)
        let result = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        XCTAssertEqual(result["animated"] as? Bool, true)
        XCTAssertEqual(result["frameCount"] as? Int, 19)
        XCTAssertEqual(result["repetitionCount"] as? String, "Infinity")
        let frames = result["frames"] as! [[String: Any]]
        XCTAssertEqual(frames.count, 19)
        for (k, frame) in frames.enumerated() {
            // ImageDecoder reports whole milliseconds: 1/60 s is 16 ms; the settled frame holds 1 s.
            let duration = frame["duration"] as! Double
            XCTAssertEqual(duration, k == 18 ? 1_000_000 : 16_000, accuracy: 1000, "frame \(k) duration \(duration) µs")
            let expected = try p.png("states/01-expand/frames/\(String(format: "%03d", k)).png")
            var sums = [0, 0, 0, 0]
            for word in expected.pixels {
                sums[0] += Int((word >> 16) & 0xFF)
                sums[1] += Int((word >> 8) & 0xFF)
                sums[2] += Int(word & 0xFF)
                sums[3] += Int(word >> 24)
            }
            XCTAssertEqual(frame["sums"] as? [Int], sums, "Chromium's frame \(k) differs from frames/\(k).png")
        }
    }

    /// The page, scrubbed like a designer would: the slider, arrow keys, Home/End, the next state,
    /// the overlay switches, play at real speed and pause.
    func testScrubberInChromium() throws {
        let chromium = try Browser.chromium()
        let p = try preview()
        let script = #"""
              const frame = () => document.body.dataset.frame;
              const shapes = () => parseInt(document.getElementById('overlay').dataset.shapes, 10);
              const range = document.querySelector('input.scrubber');
              ok(document.body.dataset.state === '01-expand' && frame() === '4', 'opens where the hash says: ' + document.body.dataset.state + ' ' + frame());
              ok(range.max === '18', 'slider spans 19 frames: ' + range.max);
              range.value = '7'; fire(range, 'input');
              ok(frame() === '7', 'slider: ' + frame());
              ok(document.getElementById('frame').getAttribute('src') === 'states/01-expand/frames/007.png', 'image follows the slider');
              ok(document.querySelector('.readout').textContent.includes('116.7 ms'), 'readout shows the time: ' + document.querySelector('.readout').textContent);
              key('ArrowRight'); ok(frame() === '8', 'ArrowRight: ' + frame());
              key('ArrowLeft'); key('ArrowLeft'); ok(frame() === '6', 'ArrowLeft: ' + frame());
              key('End'); ok(frame() === '18', 'End: ' + frame());
              key('Home'); ok(frame() === '0', 'Home: ' + frame());
              ok(shapes() === 0, 'overlays start off: ' + shapes());
              for (const box of document.querySelectorAll('input[data-overlay]')) { box.checked = true; fire(box, 'change'); }
              range.value = '18'; fire(range, 'input');
              ok(shapes() > 20, 'overlays drawn when switched on: ' + shapes());
              ok(document.querySelectorAll('aside tbody tr[data-id]').length === 5, 'element table lists card, title, summary, body, author');
              ok(location.hash.includes('rects=1') && location.hash.includes('frame=18'), 'place kept in the hash: ' + location.hash);
              key('ArrowUp'); ok(document.body.dataset.state === 'initial' && frame() === '0', 'ArrowUp: previous state');
              key('ArrowDown'); ok(document.body.dataset.state === '01-expand', 'ArrowDown: next state');
              key('Home');
              const started = performance.now();
              document.querySelector('button.play').click();
              ok(document.body.dataset.playing === 'true', 'playing');
              setTimeout(() => {
                // Real speed: after t seconds at 60 fps the page has moved on, but never past frame
                // floor(60 t). (A busy machine runs timers late, so the lower bound is loose.)
                const at = parseInt(frame(), 10), t = (performance.now() - started) / 1000;
                ok(at > 0 && at <= Math.min(18, Math.floor(60 * t) + 1), 'real-speed playback shows frame ' + at + ' after ' + t.toFixed(3) + ' s');
                key(' ');
                ok(document.body.dataset.playing === 'false', 'space pauses');
                const paused = frame();
                setTimeout(() => {
                  ok(frame() === paused, 'paused stays on frame ' + paused + ', now ' + frame());
                  done();
                }, 200);
              }, 158);
            """#
        XCTAssertEqual(
            try Browser.drive(
                chromium, page: p.out.appendingPathComponent("index.html"), hash: "#state=01-expand&frame=4",
                script: script,
                profile: p.dir.path("profile")), "ok")

        let shot = p.dir.path("page.png")
        _ = try Browser.run(
            chromium,
            [
                "--screenshot=\(shot.path)",
                p.out.appendingPathComponent("index.html").absoluteString
                    + "#state=01-expand&frame=9&rects=1&ids=1&lines=1&baselines=1",
            ],
            profile: p.dir.path("profile"))
        XCTAssertGreaterThan(try Data(contentsOf: shot).count, 20_000, "the screenshot looks empty")
        if let keep = ProcessInfo.processInfo.environment["LAYOUTSNAP_KEEP_SCREENSHOT"] {
            try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(at: shot, to: URL(fileURLWithPath: keep))
        }
    }

    /// `--overlay` draws the geometry into the animation and contact sheet (the frames for the
    /// scrubber stay clean); the command-line overrides change what is rendered.
    func testOverlayAndOverrides() throws {
        let p = try preview(
            "Fixtures/posts/long-body.json",
            ["--overlay", "--appearance", "dark", "--fps", "10", "--curve", "linear", "--duration", "0.5"])
        XCTAssertEqual(p.frames("01-expand").count, 6, "0.5 s at 10 fps: 6 frames")
        XCTAssertEqual(p.frames("01-expand")[1]["progress"] as? Double, 0.2, "linear: progress 0.2 at 0.1 s")
        let apng = try APNGReader(
            [UInt8](Data(contentsOf: p.out.appendingPathComponent("states/01-expand/animation.png"))))
        let clean = try p.png("states/01-expand/frames/005.png")
        XCTAssertNotEqual(apng.images[5], clean, "the overlay is drawn into the animation")
        // The element colour (#FF2D55) appears in the animation and not in the clean frame.
        func pink(_ word: UInt32) -> Bool {
            let r = (word >> 16) & 0xFF
            let g = (word >> 8) & 0xFF
            let b = word & 0xFF
            return r > 0xE0 && g < 0x60 && b > 0x40 && b < 0x70
        }
        XCTAssertGreaterThan(apng.images[5].pixels.filter(pink).count, 100)
        XCTAssertEqual(clean.pixels.filter(pink).count, 0)
        let html = try String(contentsOf: p.out.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("\"appearance\":\"dark\""))
        XCTAssertTrue(html.contains("\"overlayBaked\":true"))
    }

    /// An interrupted state's last frame is mid-motion (posts/interrupted-collapse's expand stops
    /// at progress 0.16 when the collapse arrives at 0.1 s): its animated PNG shows it for one
    /// frame and loops, and the page's playback knows; the settled collapse holds its last frame 1 s.
    func testOnlySettledStatesHoldTheirLastFrame() throws {
        let p = try preview("Fixtures/posts/interrupted-collapse.json")
        for (state, interrupted) in [("01-expand", true), ("02-collapse", false)] {
            let apng = try APNGReader(
                [UInt8](Data(contentsOf: p.out.appendingPathComponent("states/\(state)/animation.png"))))
            let frames = p.frames(state)
            XCTAssertEqual(apng.frameCount, frames.count)
            XCTAssertEqual(apng.frames.last!.delay, interrupted ? 1.0 / 60 : 1, accuracy: 0.0001, state)
        }
        XCTAssertLessThan(p.frames("01-expand").last!["progress"] as! Double, 0.2)
        let data = try p.pageData()
        let interrupted = (data["states"] as! [[String: Any]]).filter { $0["interrupted"] as? Bool == true }
        XCTAssertEqual(interrupted.map { $0["name"] as! String }, ["01-expand"])
    }

    /// Authored curves on the command line: a cubic Bézier runs the given duration; a spring
    /// given as SwiftUI's mass, stiffness and damping runs until it settles, and preview reports
    /// that settling time in the terminal and on the page.
    func testAuthoredCurvesAndTheSpringsSettlingTime() throws {
        let cubic = try preview(
            "Fixtures/posts/long-body.json", ["--curve", "cubic(0.2, 0, 0, 1)", "--duration", "0.5", "--fps", "10"])
        // cubic(0.2, 0, 0, 1) is at 0.5 when a fifth of the time has passed: 0.1 s of 0.5 s.
        XCTAssertEqual(cubic.frames("01-expand").count, 6)
        XCTAssertEqual(cubic.frames("01-expand")[1]["progress"] as! Double, 0.5, accuracy: 1e-4)

        let dir = try TempDir()
        let r = try CLI.run([
            "preview", "Fixtures/posts/long-body.json", "--out", dir.path("p").path, "--curve",
            "spring(mass: 1, stiffness: 100, damping: 10)",
        ])
        XCTAssertEqual(r.status, 0, r.output)
        let line = try XCTUnwrap(
            r.stdout.split(separator: "\n").first {
                $0.contains("01-expand: spring(response: 0.6283, dampingFraction: 0.5) settles in ")
            },
            r.stdout)
        let seconds = try XCTUnwrap(Double(line.split(separator: " ").dropLast().last ?? ""))
        // The last frame is the first at or after the settling moment (60 fps).
        let layout =
            try JSONSerialization.jsonObject(with: Data(contentsOf: dir.path("p/layout.json"))) as! [String: Any]
        let frames = (layout["states"] as! [[String: Any]])[1]["frames"] as! [[String: Any]]
        let last = frames.last!["time"] as! Double
        XCTAssertTrue(last >= seconds - 0.0005 && last < seconds + 1.0 / 60, "\(seconds) s, last frame at \(last) s")
        let html = try String(contentsOf: dir.path("p/index.html"), encoding: .utf8)
        XCTAssertTrue(
            html.contains("\"curve\":\"spring(response: 0.6283, dampingFraction: 0.5) settles in "), "the page")
    }

    /// Every moving track of every state is plotted under the viewer; `--against Goldens`
    /// plots the committed goldens' tracks beneath (here the bundled card previewed linear and
    /// slower, so the two differ), and the cursor follows the frame.
    func testMotionPlotsAgainstTheGoldens() throws {
        let p = try preview(
            "Fixtures/posts/long-body.json", ["--curve", "linear", "--duration", "0.5", "--against", "Goldens"])
        let html = try String(contentsOf: p.out.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("\"against\":\"Goldens\""), "the page does not know its goldens")
        let chromium = try Browser.chromium()
        let dom = try Browser.run(
            chromium,
            ["--dump-dom", p.out.appendingPathComponent("index.html").absoluteString + "#state=01-expand&frame=15"],
            profile: p.dir.path("profile"))
        Browser.assertMotionPlot(dom.stdout, track: "card.height")
        XCTAssertTrue(dom.stdout.contains("Motion of 01-expand: "), "no motion section")
        XCTAssertTrue(dom.stdout.contains("golden (Goldens)"), "no key for the golden track")
        // Frame 15 of 0.5 s at 60 fps is t = 0.25: half way along the plot (x from data-x0 to data-x1).
        let cursor = try XCTUnwrap(
            dom.stdout.range(of: "<line class=\"cursor\"[^>]*>", options: .regularExpression).map {
                String(dom.stdout[$0])
            })
        let x = try XCTUnwrap(Browser.attribute("x1", in: cursor).flatMap(Double.init))
        let x0 = try XCTUnwrap(Browser.attribute("data-x0", in: cursor).flatMap(Double.init))
        let x1 = try XCTUnwrap(Browser.attribute("data-x1", in: cursor).flatMap(Double.init))
        XCTAssertEqual((x - x0) / (x1 - x0), 0.5, accuracy: 0.005, "the cursor is not at the frame shown: \(cursor)")

        // Without --against: the same plots, no golden line; a folder without the fixture is an error.
        let plain = try preview("Fixtures/posts/long-body.json")
        XCTAssertTrue(
            try String(contentsOf: plain.out.appendingPathComponent("index.html"), encoding: .utf8).contains(
                "\"keys\":[\"card.height\""))
        let r = try CLI.run([
            "preview", "Fixtures/posts/long-body.json", "--out", p.dir.path("x").path, "--against",
            p.dir.path("nothing").path,
        ])
        XCTAssertEqual(r.status, 2, r.output)
        XCTAssertTrue(
            r.stderr.contains("posts/long-body/layout.json cannot be read (record posts/long-body into "), r.stderr)
    }

    func testBadArgumentsAndFixtures() throws {
        let dir = try TempDir()
        for (arguments, message) in [
            (
                ["preview", "Fixtures/transcripts/growing.json", "--curve", "linear"],
                "--curve applies only to post fixtures (the kinds with a `curve` field); a transcript has none"
            ),
            (["preview", "Fixtures/posts/long-body.json", "--curve", "bouncy"], "unknown curve \"bouncy\""),
            (
                ["preview", "Fixtures/chats/keyboard.json", "--duration", "0.8"],
                "--duration applies only to post fixtures (the kinds with a `duration` field); a chat has none"
            ),
            (
                ["preview", "Fixtures/posts/long-body.json", "--curve", "spring", "--duration", "0.8"],
                "--duration 0.8 does not apply to a spring: a spring's duration is its settling time"
            ),
            (
                ["preview", "Fixtures/posts/long-body.json", "--curve", "cubic(0.2,0,0)"],
                "--curve cubic(X1,Y1,X2,Y2) takes four numbers"
            ),
            (
                ["preview", "Fixtures/posts/long-body.json", "--curve", "spring:0,1"],
                "spring:RESPONSE,DAMPING takes two numbers from 0.01 to 10"
            ),
            (
                ["preview", "Fixtures/posts/long-body.json", "--appearance", "sepia"],
                "--appearance must be light or dark"
            ),
            (["preview", "Fixtures/posts"], "Fixtures/posts: name one fixture file"),
            (["preview", "nope.json"], "nope.json: no such file or folder"),
        ] {
            let r = try CLI.run(arguments + ["--out", dir.path("out").path])
            XCTAssertEqual(r.status, 2, "\(arguments): \(r.output)")
            XCTAssertTrue(r.stderr.contains(message), "\(arguments): \(r.stderr)")
        }
        try dir.write("bad.json", #"{"kind": "post", "title": 3}"#)
        let r = try CLI.run(["preview", "bad.json", "--out", "out"], in: dir.url)
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("bad.json:1:"), r.stderr)
        XCTAssertTrue(r.stderr.contains("$.title"), r.stderr)
    }

    /// `--watch`: a saved edit renders again, a broken edit prints its error and the watch goes
    /// on, and the next good edit renders again.
    func testWatchRendersAgainAfterAnEdit() throws {
        let dir = try TempDir()
        func card(_ width: Int) -> String {
            #"{"kind": "post", "width": 200, "height": 160, "scale": 1, "availableWidth": \#(width), "title": "Card", "fps": 10, "steps": [{"expand": true}]}"#
        }
        let fixture = try dir.write("card.json", card(160))
        let watch = try TestProcess.start(
            CLI.binary, ["preview", fixture.path, "--out", dir.path("out").path, "--watch"], in: dir.url)
        defer {
            watch.signal(SIGTERM)
            watch.wait()
        }
        let layout = dir.path("out/layout.json")

        func waitFor(_ what: String, _ condition: () -> Bool) -> Double? {
            let start = Date()
            while Date().timeIntervalSince(start) < 60 {
                if condition() { return Date().timeIntervalSince(start) }
                Thread.sleep(forTimeInterval: 0.05)
            }
            XCTFail("timed out waiting for \(what); log: \(watch.outputSoFar)")
            return nil
        }
        func logText() -> String { watch.outputSoFar }
        /// A finished build (build.js is written last) whose layout shows a card `width + 20` wide
        /// (the post kind's rule).
        var lastBuild = ""
        func built(_ width: Int) -> Bool {
            guard let build = try? String(contentsOf: dir.path("out/build.js"), encoding: .utf8), build != lastBuild,
                let data = try? Data(contentsOf: layout),
                let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let states = json["states"] as? [[String: Any]],
                let frames = states.first?["frames"] as? [[String: Any]],
                let elements = frames.first?["elements"] as? [[String: Any]],
                let card = elements.first(where: { $0["id"] as? String == "card" }),
                let rect = card["rect"] as? [Double]
            else { return false }
            guard rect[2] == Double(width + 20) else { return false }
            lastBuild = build
            return true
        }
        guard waitFor("the first build", { logText().contains("Watching") && built(160) }) != nil else { return }

        try Data(card(140).utf8).write(to: fixture)
        guard let seconds = waitFor("the rebuild", { built(140) }) else { return }
        XCTAssertTrue(logText().contains("changed: card.json"), logText())
        print("watch: rebuilt \(String(format: "%.2f", seconds)) s after the edit")

        try Data(#"{"kind": "post", "title": }"#.utf8).write(to: fixture)
        guard waitFor("the error", { logText().contains("error: ") }) != nil else { return }
        XCTAssertTrue(watch.isRunning, "a bad edit does not stop the watch")
        try Data(card(120).utf8).write(to: fixture)
        _ = waitFor("the rebuild after the fix", { built(120) })
    }

    /// Decodes an APNG with Chromium's ImageDecoder (WebCodecs) over the DevTools pipe and prints
    /// JSON: animated, frame count, repetition count, and per frame its duration (µs) and the
    /// sums of its R, G, B and A values. Arguments: CHROMIUM FILE.png PROFILE_DIR.
    static let apngCheck =
        Browser.devToolsPipe + #"""
            import base64, sys

            chromium, path, profile = sys.argv[1], sys.argv[2], sys.argv[3]
            proc = open_browser(chromium, profile)
            page = os.path.join(profile, 'blank.html')
            open(page, 'w').write('<!DOCTYPE html><title>apng</title>')

            try:
                target = call('Target.createTarget', {'url': 'about:blank'})['targetId']
                session = call('Target.attachToTarget', {'targetId': target, 'flatten': True})['sessionId']
                # A file:// page is a secure context, which WebCodecs needs; wait until it has loaded.
                call('Page.navigate', {'url': 'file://' + page}, session)
                call('Runtime.evaluate', {'expression': '''new Promise((done) => { const check = () =>
                    location.protocol === 'file:' && document.readyState === 'complete' ? done() : setTimeout(check, 20); check(); })''',
                    'awaitPromise': True}, session)
                data = base64.b64encode(open(path, 'rb').read()).decode()
                script = '''(async () => {
                  const bytes = Uint8Array.from(atob("%s"), (c) => c.charCodeAt(0));
                  const decoder = new ImageDecoder({ data: bytes, type: 'image/png' });
                  await decoder.tracks.ready;
                  const track = decoder.tracks.selectedTrack;
                  const frames = [];
                  for (let i = 0; i < track.frameCount; i++) {
                    const { image } = await decoder.decode({ frameIndex: i });
                    const canvas = new OffscreenCanvas(image.displayWidth, image.displayHeight);
                    const g = canvas.getContext('2d');
                    g.drawImage(image, 0, 0);
                    const px = g.getImageData(0, 0, canvas.width, canvas.height).data;
                    const sums = [0, 0, 0, 0];
                    for (let j = 0; j < px.length; j++) sums[j & 3] += px[j];
                    frames.push({ duration: image.duration, sums });
                    image.close();
                  }
                  return JSON.stringify({ animated: track.animated, frameCount: track.frameCount,
                                          repetitionCount: String(track.repetitionCount), frames });
                })()''' % data
                result = call('Runtime.evaluate', {'expression': script, 'awaitPromise': True, 'returnByValue': True}, session)
                if 'exceptionDetails' in result:
                    raise SystemExit('exception: ' + json.dumps(result['exceptionDetails'])[:2000])
                print(result['result']['value'])
            finally:
                try: call('Browser.close')
                except BaseException: pass
                proc.wait(timeout=30)
            """#
}
