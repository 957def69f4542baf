import Foundation
import LayoutSnapTestSupport
import LayoutSnapDiff
import XCTest
@testable import LayoutSnapReport

/// Opens generated reports in headless Chromium. Skipped only when no
/// Chromium/Chrome executable can be found (set LAYOUTSNAP_CHROMIUM to
/// point at one).
final class BrowserTests: XCTestCase {
    func chromium() throws -> URL {
        guard let url = TestTools.chromium() else {
            // CI installs it (.ci/install): there a missing browser is a failure, not a skip.
            if TestTools.required { XCTFail(TestTools.chromiumMissing) }
            print("BrowserTests skipped: \(TestTools.chromiumMissing)")
            throw XCTSkip(TestTools.chromiumMissing)
        }
        return url
    }

    func chromiumArguments(profile: URL) -> [String] {
        TestTools.headlessChromium(profile: profile)
            + [
                "--no-default-browser-check", "--disable-extensions", "--hide-scrollbars", "--mute-audio",
                "--window-size=1280,900",
            ]
    }

    /// Report folder with the images of the small sample: a real expected,
    /// actual and diff for 01-expand frame 7 and expected images for every
    /// other frame of that state.
    func makeSmallReport() throws -> URL {
        let dir: URL
        if let keep = ProcessInfo.processInfo.environment["LAYOUTSNAP_KEEP_REPORT"] {
            // For looking at the page by hand: the report is left in this folder.
            dir = URL(fileURLWithPath: keep, isDirectory: true)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        } else {
            dir = try makeTemporaryFolder("report-browser")
        }
        let results = Samples.small()
        try HTMLReport.write(results, to: dir)
        func put(_ path: String?, _ image: TestImage) throws {
            guard let path else { return }
            let url = dir.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try image.png().write(to: url)
        }
        for frame in results.fixtures[2].states[1].frames {
            let expected = TestImage.screen(cardGrowth: frame.index * 4)
            try put(frame.expected, expected)
            if frame.status == .failed {
                let actual = TestImage.screen(cardGrowth: frame.index * 4 - 12, shift: 4, buttonColor: (207, 34, 46))
                try put(frame.actual, actual)
                try put(frame.diff, expected.diff(against: actual))
            } else if frame.status == .similar {
                var actual = expected
                actual.fillRect(30, 40, 4, 3, (128, 128, 128))
                try put(frame.actual, actual)
                try put(frame.diff, expected.diff(against: actual))
            }
        }
        try put(results.fixtures[3].states[0].frames[0].actual, TestImage.screen(cardGrowth: 0))
        return dir
    }

    func testPNGWriterOutputIsReadable() throws {
        guard let python = TestTools.python3() else { throw XCTSkip("python3 not found") }
        let dir = try makeTemporaryFolder("report-png")
        defer { removeTemporaryFolder(dir) }
        let file = dir.appendingPathComponent("x.png")
        try TestImage.screen(cardGrowth: 8).png().write(to: file)
        let script = """
            import struct, sys, zlib
            d = open(sys.argv[1], 'rb').read()
            assert d[:8] == b'\\x89PNG\\r\\n\\x1a\\n'
            pos, idat, w, h = 8, b'', 0, 0
            while pos < len(d):
                n, = struct.unpack('>I', d[pos:pos+4]); t = d[pos+4:pos+8]; body = d[pos+8:pos+8+n]
                assert zlib.crc32(t + body) == struct.unpack('>I', d[pos+8+n:pos+12+n])[0], t
                if t == b'IHDR': w, h = struct.unpack('>II', body[:8])
                if t == b'IDAT': idat += body
                pos += 12 + n
            raw = zlib.decompress(idat)
            assert len(raw) == h * (w * 4 + 1)
            print(w, h)
            """
        let result = try TestProcess.run(python, ["-c", script, file.path], timeout: 30)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "180 320\n")
    }

    func testFailingFrameRendersInChromium() throws {
        let chromium = try chromium()
        let dir = try makeSmallReport()
        defer { if ProcessInfo.processInfo.environment["LAYOUTSNAP_KEEP_REPORT"] == nil { removeTemporaryFolder(dir) } }
        let profile = dir.appendingPathComponent(".chromium-profile")
        let page = dir.appendingPathComponent("index.html").absoluteString
        XCTAssertTrue(page.hasPrefix("file:///"))

        // 1. Rendered DOM, after the script ran and the images loaded.
        let dom = try TestProcess.run(
            chromium, chromiumArguments(profile: profile) + ["--virtual-time-budget=2000", "--dump-dom", page],
            timeout: 120)
        XCTAssertFalse(dom.timedOut, "chromium --dump-dom timed out")
        XCTAssertEqual(dom.status, 0, dom.stderr)
        let html = dom.stdout
        XCTAssertTrue(html.contains("data-ready=\"true\""), "the report script did not finish:\n\(dom.stderr)")
        XCTAssertTrue(html.contains(">posts/long-body</span>"), "failing fixture id not rendered")
        XCTAssertTrue(html.contains("aria-expanded=\"true\""), "failing fixture not opened")
        XCTAssertTrue(html.contains("<h3 class=\"mono\">01-expand</h3>"), "state name not rendered")
        XCTAssertTrue(html.contains(">01-expand frame 7</span>"), "frame title not rendered")
        XCTAssertTrue(html.contains("<b>frame 7</b>"), "scrubber not on frame 7")
        XCTAssertTrue(html.contains(">2210 pixels differ (0.41%)</span>"), "failure message not rendered")
        XCTAssertTrue(html.contains(">body.y +4.00</span>"), "layout change not rendered")
        XCTAssertTrue(
            html.contains("Fixtures/broken/bad-json.json:3:14: $.states[0].steps: expected an array"),
            "fixture error not shown")
        // Failures first, passing fixtures hidden by the default "failures only" filter.
        let longBody = try XCTUnwrap(html.range(of: "data-fixture=\"posts/long-body\""))
        let avatar = try XCTUnwrap(html.range(of: "data-fixture=\"profile/avatar\""))
        XCTAssertLessThan(longBody.lowerBound, avatar.lowerBound)
        XCTAssertFalse(html.contains("data-fixture=\"settings/toggle\""))
        XCTAssertFalse(html.contains("data-fixture=\"feed/card\""))
        // The three images of frame 7 were loaded from the report folder.
        for kind in ["expected", "actual", "diff"] {
            let src = "src=\"posts/long-body/01-expand/007-\(kind).png\""
            let tag = try XCTUnwrap(
                html.components(separatedBy: "<img ").first { $0.contains(src) }, "no <img> for \(kind)")
            XCTAssertTrue(tag.contains("loading=\"lazy\""))
            XCTAssertTrue(tag.contains("data-loaded=\"true\""), "\(kind) image did not load: \(tag.prefix(300))")
        }
        XCTAssertFalse(html.contains("data-loaded=\"error\""))
        // One strip cell per frame of the 12-frame animation; frame 7 red, frame 9 orange.
        XCTAssertTrue(html.contains("class=\"cell s-failed cur\" title=\"frame 7: failed\""))
        XCTAssertTrue(html.contains("class=\"cell s-similar\" title=\"frame 9: similar\""))
        if let ms = attribute("data-render-ms", in: html) { print("small report rendered in \(ms) ms (Chromium)") }

        // 2. Screenshot.
        let shot = dir.appendingPathComponent("screenshot.png")
        let capture = try TestProcess.run(
            chromium,
            chromiumArguments(profile: profile) + ["--virtual-time-budget=2000", "--screenshot=\(shot.path)", page],
            timeout: 120)
        XCTAssertFalse(capture.timedOut, "chromium --screenshot timed out")
        XCTAssertEqual(capture.status, 0, capture.stderr)
        let png = try Data(contentsOf: shot)
        XCTAssertGreaterThan(png.count, 20_000, "screenshot suspiciously small")
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
        XCTAssertEqual(width, 1280)
        XCTAssertEqual(height, 900)
        if let python = TestTools.python3() {
            // Non-trivial: many colours, and the red of the failing status / diff is on screen.
            let script = """
                import struct, sys, zlib
                d = open(sys.argv[1], 'rb').read(); pos = 8; idat = b''
                while pos < len(d):
                    n, = struct.unpack('>I', d[pos:pos+4]); t = d[pos+4:pos+8]
                    if t == b'IHDR': w, h, depth, ctype = struct.unpack('>IIBB', d[pos+8:pos+18])
                    if t == b'IDAT': idat += d[pos+8:pos+8+n]
                    pos += 12 + n
                bpp = {2: 3, 6: 4}[ctype]; raw = zlib.decompress(idat); stride = w * bpp
                prev = bytearray(stride); colours = set(); red = 0; i = 0
                for y in range(h):
                    f = raw[i]; line = bytearray(raw[i+1:i+1+stride]); i += 1 + stride
                    for x in range(stride):
                        a = line[x-bpp] if x >= bpp else 0; b = prev[x]; c = prev[x-bpp] if x >= bpp else 0
                        if f == 1: line[x] = (line[x] + a) & 255
                        elif f == 2: line[x] = (line[x] + b) & 255
                        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
                        elif f == 4:
                            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
                    for x in range(0, stride, bpp):
                        px = (line[x], line[x+1], line[x+2]); colours.add(px)
                        if px[0] > 180 and px[1] < 80 and px[2] < 80: red += 1
                    prev = line
                print(len(colours), red)
                """
            let stats = try TestProcess.run(python, ["-c", script, shot.path], timeout: 120)
            XCTAssertEqual(stats.status, 0, stats.stderr)
            let numbers = stats.stdout.split(separator: " ").compactMap {
                Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            XCTAssertEqual(numbers.count, 2, stats.stdout)
            if numbers.count == 2 {
                print("screenshot: \(png.count) bytes, \(numbers[0]) colours, \(numbers[1]) red pixels")
                XCTAssertGreaterThan(numbers[0], 50, "screenshot looks blank")
                XCTAssertGreaterThan(numbers[1], 500, "no red (failing frame / diff) visible in the screenshot")
            }
        }
        if let keep = ProcessInfo.processInfo.environment["LAYOUTSNAP_KEEP_SCREENSHOT"] {
            try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(at: shot, to: URL(fileURLWithPath: keep))
        }
    }

    /// Drives the page like a user would (scrubber, arrow keys, strip,
    /// view modes, collapse/expand, filters) with a script appended to a copy
    /// of index.html, and reads the verdict from the dumped DOM.
    func testInteractionsInChromium() throws {
        let chromium = try chromium()
        let dir = try makeSmallReport()
        defer { if ProcessInfo.processInfo.environment["LAYOUTSNAP_KEEP_REPORT"] == nil { removeTemporaryFolder(dir) } }
        let html = try String(contentsOf: dir.appendingPathComponent("index.html"), encoding: .utf8)
        let driver = #"""
            <script>
            (() => {
              const log = [];
              const ok = (cond, what) => { if (!cond) log.push(what); };
              const fire = (el, type) => el.dispatchEvent(new Event(type, { bubbles: true }));
              const sec = () => document.querySelector('[data-fixture="posts/long-body"]');
              const state = () => [...sec().querySelectorAll('.state')].find((s) => s.querySelector('h3').textContent === '01-expand');
              const title = () => state().querySelector('.fv-title').textContent;
              const button = (text) => [...state().querySelectorAll('button')].find((b) => b.textContent === text);
              const top = () => state().querySelector('.stack img.top');
              try {
                ok(title() === '01-expand frame 7', 'initially on frame 7, got ' + title());
                const range = state().querySelector('input.scrubber');
                range.value = '3'; fire(range, 'input');
                ok(title() === '01-expand frame 3', 'scrubber: ' + title());
                ok(state().querySelector('.cell.cur') === state().querySelectorAll('.cell')[3], 'strip marks the current frame');
                button('Next failing ▸').click();
                ok(title() === '01-expand frame 7', 'next failing: ' + title());
                const slider = button('Slider');
                slider.focus();
                slider.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
                ok(title() === '01-expand frame 8', 'ArrowRight: ' + title());
                state().querySelectorAll('.cell')[9].click();
                ok(title() === '01-expand frame 9', 'strip click: ' + title());
                range.value = '7'; fire(range, 'input');

                slider.click();
                ok(slider.getAttribute('aria-pressed') === 'true', 'slider button pressed');
                ok(!!state().querySelector('.stack.mode-slider'), 'slider view shown');
                const divider = state().querySelector('.ctl input[type=range]');
                divider.value = '20'; fire(divider, 'input');
                ok(getComputedStyle(top()).clipPath.includes('80%'), 'slider clips actual: ' + getComputedStyle(top()).clipPath);
                range.value = '8'; fire(range, 'input');
                ok(!!state().querySelector('.stack.mode-slider'), 'view mode kept while scrubbing');
                range.value = '7'; fire(range, 'input');

                button('Blend').click();
                const opacity = state().querySelector('.ctl input[type=range]');
                opacity.value = '30'; fire(opacity, 'input');
                ok(getComputedStyle(top()).opacity === '0.3', 'blend opacity: ' + getComputedStyle(top()).opacity);

                button('Blink').click();
                ok(getComputedStyle(top()).animationName === 'ls-blink', 'blink animation: ' + getComputedStyle(top()).animationName);
                ok(getComputedStyle(top()).animationDuration === '1s', 'blink period');
                button('Pause').click();
                ok(getComputedStyle(top()).animationPlayState === 'paused', 'blink pauses');

                button('Side by side').click();
                ok(state().querySelectorAll('.imgs.side figure').length === 3, 'side by side shows 3 images');

                const toggle = sec().querySelector('.fx-toggle');
                toggle.click();
                ok(toggle.getAttribute('aria-expanded') === 'false', 'collapsed');
                ok(!sec().querySelector('img') && !sec().querySelector('.fx-body'), 'collapsed fixture has no body or images in the DOM');
                toggle.click();
                ok(title() === '01-expand frame 7', 'selection kept after re-opening: ' + title());

                const listed = () => [...document.querySelectorAll('#fixtures > section.fixture')].map((s) => s.dataset.fixture);
                ok(listed().join() === 'posts/long-body,profile/avatar,media/gallery,broken/bad-json', 'failures only: ' + listed().join());
                ok(!document.querySelector('[data-fixture="posts/long-body"] .state.ok') ||
                   getComputedStyle(document.querySelector('[data-fixture="posts/long-body"] .state.ok')).display === 'none', 'passing state hidden');
                document.getElementById('failures-only').click();
                ok(listed().join() === 'posts/long-body,profile/avatar,media/gallery,broken/bad-json,feed/card,settings/toggle', 'all, failures first: ' + listed().join());
                ok(getComputedStyle(sec().querySelector('.state.ok')).display !== 'none', 'passing state shown without the filter');
                const search = document.getElementById('fixture-filter');
                search.value = 'FEED'; fire(search, 'input');
                ok(listed().join() === 'feed/card', 'search: ' + listed().join());
              } catch (e) {
                log.push('exception: ' + e + ' ' + e.stack);
              }
              document.body.setAttribute('data-test-result', log.length ? log.join(' | ') : 'ok');
            })();
            </script>
            """#
        let page = dir.appendingPathComponent("interact.html")
        try html.replacingOccurrences(of: "</body>", with: driver + "\n</body>").write(
            to: page, atomically: true, encoding: .utf8)
        let dom = try TestProcess.run(
            chromium,
            chromiumArguments(profile: dir.appendingPathComponent(".chromium-profile")) + [
                "--virtual-time-budget=2000", "--dump-dom", page.absoluteString,
            ], timeout: 120)
        XCTAssertEqual(dom.status, 0, dom.stderr)
        XCTAssertEqual(attribute("data-test-result", in: dom.stdout), "ok")
    }

    func testTenThousandFramesLoadInChromium() throws {
        let chromium = try chromium()
        let dir = try makeTemporaryFolder("report-browser-large")
        defer { removeTemporaryFolder(dir) }
        let results = Samples.large()
        XCTAssertEqual(results.summary.frames, 10_000)
        try HTMLReport.write(results, to: dir)
        let page = dir.appendingPathComponent("index.html").absoluteString
        let dom = try TestProcess.run(
            chromium,
            chromiumArguments(profile: dir.appendingPathComponent(".chromium-profile")) + [
                "--virtual-time-budget=5000", "--dump-dom", page,
            ], timeout: 180)
        XCTAssertFalse(dom.timedOut, "chromium did not finish loading the 10,000-frame report")
        XCTAssertEqual(dom.status, 0, dom.stderr)
        XCTAssertTrue(dom.stdout.contains("data-ready=\"true\""), "the report script did not finish")
        let parse = attribute("data-parse-ms", in: dom.stdout) ?? "?"
        let render = attribute("data-render-ms", in: dom.stdout) ?? "?"
        print(
            "10,000-frame report in Chromium: JSON.parse \(parse) ms, script total \(render) ms, chromium process \(String(format: "%.1f", dom.seconds)) s"
        )
        if let ms = Double(render) { XCTAssertLessThan(ms, 5_000) }
        XCTAssertLessThan(dom.seconds, 120)
        // Only the 10 failing fixtures are listed; only 3 are opened.
        XCTAssertTrue(dom.stdout.contains("Showing 10 of 100 fixtures"))
        XCTAssertEqual(count("class=\"fx-body\"", in: dom.stdout), 3)

        // One fixture, one 10,000-frame animation: opened on load, its strip is bucketed.
        let long = Samples.longAnimation()
        try HTMLReport.write(long, to: dir)
        let dom2 = try TestProcess.run(
            chromium,
            chromiumArguments(profile: dir.appendingPathComponent(".chromium-profile")) + [
                "--virtual-time-budget=5000", "--dump-dom", page,
            ], timeout: 180)
        XCTAssertFalse(dom2.timedOut)
        XCTAssertEqual(dom2.status, 0, dom2.stderr)
        XCTAssertTrue(dom2.stdout.contains("data-ready=\"true\""))
        XCTAssertTrue(dom2.stdout.contains(">03-swipe frame 5</span>"))
        XCTAssertEqual(count("<span class=\"cell ", in: dom2.stdout), 240)
        // Only the selected frame's three images were requested (this test writes no PNGs, so
        // each one turned into an "Image not found" placeholder).
        XCTAssertEqual(count("Image not found: onboarding/carousel/03-swipe/", in: dom2.stdout), 3)
        XCTAssertEqual(count("<img ", in: dom2.stdout), 0)
        let render2 = attribute("data-render-ms", in: dom2.stdout) ?? "?"
        print(
            "one 10,000-frame animation in Chromium: JSON.parse \(attribute("data-parse-ms", in: dom2.stdout) ?? "?") ms, script total \(render2) ms, chromium process \(String(format: "%.1f", dom2.seconds)) s"
        )
        if let ms = Double(render2) { XCTAssertLessThan(ms, 5_000) }
    }

    /// Chromium's own CSS parser reads each stylesheet file: every rule it holds is kept (a bad
    /// selector or at-rule drops its rule) and every declaration of a style rule is kept (a bad
    /// value or an unknown property drops its declaration, silently, in a browser).
    func testChromiumKeepsEveryRuleAndDeclarationOfTheStylesheets() throws {
        let chromium = try chromium()
        let dir = try makeTemporaryFolder("report-css")
        defer { removeTemporaryFolder(dir) }
        var sheets: [String: String] = [:]
        for name in PageAssets.fileNames where name.hasSuffix(".css") {
            sheets[name] = try String(contentsOf: PageAssets.folder().appendingPathComponent(name), encoding: .utf8)
        }
        let json = String(
            decoding: try JSONSerialization.data(withJSONObject: sheets, options: [.sortedKeys]), as: UTF8.self)
        let checker = #"""
            const problems = [];
            for (const [name, text] of Object.entries(SHEETS)) {
              const sheet = new CSSStyleSheet();
              sheet.replaceSync(text);
              // The top-level blocks as written: [prelude, body].
              const src = text.replace(/\/\*[\s\S]*?\*\//g, '');
              const blocks = [];
              let depth = 0, start = 0, open = 0;
              for (let i = 0; i < src.length; i++) {
                if (src[i] === '{') { if (depth++ === 0) open = i; }
                else if (src[i] === '}' && --depth === 0) { blocks.push([src.slice(start, open).trim(), src.slice(open + 1, i)]); start = i + 1; }
              }
              if (sheet.cssRules.length !== blocks.length) {
                problems.push(name + ': ' + blocks.length + ' rules written, ' + sheet.cssRules.length + ' kept');
                continue;
              }
              blocks.forEach(([prelude, body], k) => {
                const rule = sheet.cssRules[k];
                if (!(rule instanceof CSSStyleRule)) return;
                const longhands = Array.from(rule.style);
                for (const declaration of body.split(';')) {
                  const colon = declaration.indexOf(':');
                  if (colon < 0) continue;
                  const property = declaration.slice(0, colon).trim().toLowerCase();
                  const kept = rule.style.getPropertyValue(property) !== '' || longhands.some((l) => l.startsWith(property + '-'));
                  if (!kept) problems.push(name + ': ' + prelude + ' { ' + declaration.trim() + ' } was dropped');
                }
              });
            }
            document.body.setAttribute('data-test-result', problems.length ? problems.join(' | ') : 'ok');
            """#
        let page = dir.appendingPathComponent("css.html")
        try "<!DOCTYPE html>\n<html><body><script>\nconst SHEETS = \(json);\n\(checker)\n</script></body></html>\n"
            .write(to: page, atomically: true, encoding: .utf8)
        let dom = try TestProcess.run(
            chromium,
            chromiumArguments(profile: dir.appendingPathComponent(".chromium-profile")) + [
                "--dump-dom", page.absoluteString,
            ], timeout: 120)
        XCTAssertEqual(dom.status, 0, dom.stderr)
        XCTAssertEqual(attribute("data-test-result", in: dom.stdout), "ok")
    }

    /// Runs `driver` (the body of an async function; `ok(cond, what)` records a failure, `until(cond)`
    /// waits for a condition) in a copy of the report's page and returns the failures ("ok": none).
    func drive(_ dir: URL, _ driver: String, budget: Int = 5000) throws -> String? {
        let html = try String(contentsOf: dir.appendingPathComponent("index.html"), encoding: .utf8)
        let script = """
            <script>
            (async () => {
              const log = [];
              const ok = (cond, what) => { if (!cond) log.push(what); };
              const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
              const until = async (cond) => { for (let i = 0; i < 100 && !cond(); i++) await sleep(20); return cond(); };
              const key = (k) => document.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
              const $ = (s, root) => (root || document).querySelector(s);
              const $$ = (s, root) => [...(root || document).querySelectorAll(s)];
              try {
            \(driver)
              } catch (e) {
                log.push('exception: ' + e + ' ' + e.stack);
              }
              document.body.setAttribute('data-test-result', log.length ? log.join(' | ') : 'ok');
            })();
            </script>
            """
        let page = dir.appendingPathComponent("drive.html")
        try html.replacingOccurrences(of: "</body>", with: script + "\n</body>").write(
            to: page, atomically: true, encoding: .utf8)
        let dom = try TestProcess.run(
            try chromium(),
            chromiumArguments(profile: dir.appendingPathComponent(".chromium-profile")) + [
                "--virtual-time-budget=\(budget)", "--dump-dom", page.absoluteString,
            ], timeout: 120)
        XCTAssertEqual(dom.status, 0, dom.stderr)
        return attribute("data-test-result", in: dom.stdout)
    }

    /// The page opens on the causes; a cause filters the fixtures to its frames and back; every
    /// failing frame names its cause and its changed elements.
    func testCausesSectionAndFilterInChromium() throws {
        _ = try chromium()
        let results = Samples.review()
        let summary = try XCTUnwrap(results.causes.first?.summary)
        XCTAssertTrue(summary.hasPrefix("message:* width +4.00"), summary)
        XCTAssertEqual(results.causes.first?.frames, 5)
        let composer = try XCTUnwrap(results.causes.first { $0.summary.contains("composer") }).id
        let dir = try makeReviewReport()
        defer { removeTemporaryFolder(dir) }
        let result = try drive(
            dir,
            #"""
                const cards = $$('section#causes article.cause');
                ok(cards.length === \#(results.causes.count), 'one card per cause: ' + cards.length);
                const one = $('article.cause[data-cause="1"]');
                ok(one && $('.cause-summary', one).textContent === '\#(summary)', 'cause 1 summary');
                ok(one && /5 frames · 3 states · 2 fixtures/.test(one.textContent), 'cause 1 counts: ' + (one && $('.cause-counts', one).textContent));
                const thumbs = one ? $$('.thumb', one).map((t) => t.dataset.thumb).join() : '';
                ok(thumbs === 'chats/a/initial/000.png,chats/b/initial/000.png,chats/a/02-send/001.png' && $$('.thumb img', one).length === 6, 'three representative frames, other fixtures first, diff and actual: ' + thumbs);
                ok($('section#causes').compareDocumentPosition($('#fixtures')) & Node.DOCUMENT_POSITION_FOLLOWING, 'causes above the fixtures');
                const listed = () => $$('#fixtures > section.fixture').map((s) => s.dataset.fixture).join();
                ok(listed() === 'chats/a,chats/b,feed/c', 'failing fixtures: ' + listed());
                // Every failing frame shown names its cause and its changes.
                const fv = $('.fv[data-golden="chats/a/initial/000.png"]');
                ok(fv && /Cause 1/.test($('dl.facts', fv).textContent), 'frame names its cause');
                const chips = fv ? $$('.attribution .chip', fv).map((c) => c.textContent) : [];
                ok(chips.includes('message:m1 resized (+4.00, +0.00)'), 'resized chip: ' + chips.join(' / '));
                ok(chips.includes('message:m2 moved (+0.00, -11.00), pixels unchanged'), 'moved chip: ' + chips.join(' / '));
                const fc = $('.fv[data-golden="feed/c/initial/000.png"]');
                ok(fc && /Cause \d/.test($('dl.facts', fc).textContent) && /unexplained/.test(fc.textContent), 'unexplained frame names its cause');
                // Filter to cause 2 (the composer) and back.
                $('button[data-filter-cause="\#(composer)"]').click();
                ok(listed() === 'chats/a', 'composer cause filter: ' + listed());
                const states = $$('[data-fixture="chats/a"] .state h3').map((e) => e.textContent).join();
                ok(states === '02-send', 'only states with frames of the composer cause: ' + states);
                ok($('[data-fixture="chats/a"] .fv-title').textContent === '02-send frame 4', 'opens on the frame of the cause: ' + $('[data-fixture="chats/a"] .fv-title').textContent);
                $('button[data-filter-cause="1"]').click();
                ok(listed() === 'chats/a,chats/b', 'cause 1 filter: ' + listed());
                ok($('[data-fixture="chats/a"] .fv-title').textContent === 'initial frame 0', 'cause 1 frame: ' + $('[data-fixture="chats/a"] .fv-title').textContent);
                ok(!!$('#clear-cause'), 'a way back');
                $('#clear-cause').click();
                ok(listed() === 'chats/a,chats/b,feed/c', 'all again: ' + listed());
                ok(!$('#clear-cause'), 'filter gone');
            """#)
        XCTAssertEqual(result, "ok")
    }

    /// "Outline changed regions" draws the attribution's elements (points, at the image's pixel
    /// scale) coloured by change; a frame without one keeps the diff's regions. Constant motion
    /// tracks get no plot.
    func testAttributionOutlinesAndMotionPlotsInChromium() throws {
        _ = try chromium()
        let dir = try makeReviewReport()
        defer { removeTemporaryFolder(dir) }
        let result = try drive(
            dir,
            #"""
                const state = (fx, name) => $$('[data-fixture="' + fx + '"] .state').find((s) => $('h3', s).textContent === name);
                const initial = state('chats/a', 'initial'), send = state('chats/a', '02-send');
                ok(!$('.plots', initial), 'a one-frame state has no motion plot');
                const tracks = $$('figure.plot', send).map((p) => p.dataset.track).join();
                ok(tracks === 'message:13.y', 'only the track that moves is plotted: ' + tracks);
                const cb = $('input.outline-toggle', initial);
                ok(!!cb, 'outline toggle');
                cb.click();
                const actual = () => $$('.imgs.side .fig', initial)[1];
                await until(() => $$('.outline', initial).length >= 4);
                const outlines = $$('.outline', actual());
                ok(outlines.length === 2, 'two outlines on the actual image: ' + outlines.length);
                const resized = outlines.find((o) => o.classList.contains('c-resized'));
                ok(resized && Math.abs(parseFloat(resized.style.left) - 6 / 90 * 100) < 0.01 && Math.abs(parseFloat(resized.style.top) - 46 / 160 * 100) < 0.01 &&
                   Math.abs(parseFloat(resized.style.width) - 78 / 90 * 100) < 0.01, 'resized outline in points: ' + (resized && resized.style.cssText));
                const moved = outlines.find((o) => o.classList.contains('c-moved'));
                ok(moved && moved.classList.contains('quiet') && getComputedStyle(moved).borderTopStyle === 'dashed', 'moved, pixels unchanged: quiet and dashed');
                ok(getComputedStyle(resized).borderTopColor === 'rgb(224, 128, 0)', 'resized is orange: ' + getComputedStyle(resized).borderTopColor);
                const was = $$('.outline', $$('.imgs.side .fig', initial)[0]).find((o) => o.classList.contains('c-moved'));
                ok(was && Math.abs(parseFloat(was.style.top) - 107 / 160 * 100) < 0.01, 'moved outline on the golden where it was: ' + (was && was.style.top));
                ok($$('.region', initial).length === 0, 'no whole-diff regions when the frame has an attribution');
                ok(/moved, pixels unchanged/.test($('.outline-key', initial).textContent), 'legend');
                // A frame without attribution keeps the regions.
                const fc = state('feed/c', 'initial');
                const cb2 = $('input.outline-toggle', fc);
                ok(!!cb2, 'toggle on the unexplained frame');
                if (cb2) { cb2.click(); ok($$('.region', fc).length === 1 && $$('.outline', fc).length === 0, 'regions kept without attribution'); }
            """#)
        XCTAssertEqual(result, "ok")
    }

    /// Keys and approval buttons of a static report (no review server): decisions are counted,
    /// marked on the frames and survive a redraw from storage.
    func testStaticApprovalsInChromium() throws {
        _ = try chromium()
        let dir = try makeReviewReport()
        defer { removeTemporaryFolder(dir) }
        let result = try drive(
            dir,
            #"""
                ok(document.body.dataset.review === 'static', 'static mode');
                ok(!!$('#download-approvals') && $('#download-approvals').disabled, 'download offered, disabled until a decision');
                ok(/layoutsnap accept --approvals approvals.json --from .*\/results\.json/.test($('#accept-command').textContent), 'accept command: ' + $('#accept-command').textContent);
                key('j');
                ok(document.body.dataset.focused === 'chats/a/initial/000.png', 'j goes to the first failing frame: ' + document.body.dataset.focused);
                ok(!!$('.fv.focused[data-golden="chats/a/initial/000.png"]'), 'focused frame highlighted');
                key('a');
                ok($('.fv[data-golden="chats/a/initial/000.png"]').dataset.decision === 'approved', 'a approves');
                key('j');
                ok(document.body.dataset.focused === 'chats/a/02-send/001.png', 'j again: ' + document.body.dataset.focused);
                key('r');
                ok($('.fv[data-golden="chats/a/02-send/001.png"]').dataset.decision === 'rejected', 'r rejects');
                key('k');
                ok(document.body.dataset.focused === 'chats/a/initial/000.png', 'k goes back: ' + document.body.dataset.focused);
                ok($('#review-counter').textContent.startsWith('1 approved, 1 rejected'), 'counter: ' + $('#review-counter').textContent);
                $('button[data-approve-state="chats/a/02-send"]').click();
                ok($('#review-counter').textContent.startsWith('5 approved, 0 rejected'), 'state approved: ' + $('#review-counter').textContent);
                $('button[data-reject-cause="1"]').click();
                ok($('#review-counter').textContent.startsWith('1 approved, 5 rejected'), 'cause 1 rejected: ' + $('#review-counter').textContent);
                $('button[data-approve-cause="1"]').click();
                ok($('#review-counter').textContent.startsWith('6 approved, 0 rejected'), 'cause 1 approved: ' + $('#review-counter').textContent);
                $('button[data-approve-fixture="feed/c"]').click();
                ok($('#review-counter').textContent.startsWith('8 approved, 0 rejected · 0 of 8 undecided'), 'fixture approved (missing frame too): ' + $('#review-counter').textContent);
                const stored = Object.keys(localStorage).filter((k) => k.startsWith('layoutsnap-review:'));
                ok(stored.length === 1 && JSON.parse(localStorage.getItem(stored[0])).approved.length === 8, 'kept in localStorage');
                ok(!$('#download-approvals').disabled, 'download enabled');
                localStorage.clear();
            """#)
        XCTAssertEqual(result, "ok")
    }

    func attribute(_ name: String, in html: String) -> String? {
        guard let r = html.range(of: "\(name)=\"") else { return nil }
        return String(html[r.upperBound...].prefix { $0 != "\"" })
    }
}
