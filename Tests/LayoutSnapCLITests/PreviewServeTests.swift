import Foundation
import LayoutSnapImaging
import LayoutSnapTestSupport
import XCTest

/// `preview --serve`: the preview folder on 127.0.0.1 behind a token, and `GET /zoom`, a region
/// of a frame rendered on demand at up to 8 times the device's scale.
final class PreviewServeTests: ServerTestCase {
    struct Served {
        var port: UInt16
        var token: String
        var out: URL

        func get(_ target: String, token given: String? = nil, host: String? = nil) -> RawHTTP.Response {
            RawHTTP.request(
                port: port, target, host: host, headers: given.map { [("X-LayoutSnap-Token", $0)] } ?? [])
        }
        /// `/zoom?...` with the token.
        func zoom(_ query: String) -> RawHTTP.Response { get("/zoom?" + query, token: token) }
        func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)?token=\(token)" }

        /// Runs `script` on the page as served (`Browser.drive`), opened at `hash`. The script also
        /// has `wait(test, then)`, which calls `then` once `test()` holds (or after 5 s).
        func drive(_ hash: String, _ script: String, profile: URL) throws -> String? {
            let waiting =
                "const wait = (test, then, n = 100) => (test() || n === 0 ? then() : setTimeout(() => wait(test, then, n - 1), 50));\n"
            return try Browser.drive(
                try Browser.chromium(), served: get("/?token=\(token)").text, into: out, url: url, hash: hash,
                script: waiting + script, profile: profile, budget: 20000)
        }
    }

    /// Starts `layoutsnap preview FIXTURE --serve` and reads the address it prints.
    func serve(_ fixture: String, _ extra: [String], in dir: TempDir) throws -> Served {
        let out = dir.path("preview")
        let (port, token) = try startServer(
            ["preview", fixture, "--out", out.path, "--serve", "--port", "0"] + extra, prefix: "Preview", seconds: 120)
        let output = server?.outputSoFar ?? ""
        XCTAssertTrue(output.contains("Open \(out.path)/index.html") && output.contains("(Ctrl-C stops)"), output)
        return Served(port: port, token: token, out: out)
    }

    func png(_ response: RawHTTP.Response, file: StaticString = #filePath, line: UInt = #line) throws -> PixelImage {
        XCTAssertEqual(response.status, 200, response.head + response.text, file: file, line: line)
        XCTAssertEqual(response.header("Content-Type"), "image/png", file: file, line: line)
        return try PNGDecoder.decode([UInt8](response.body))
    }

    /// A post card on an iPhone 15 Pro (393 x 852 pt at 3x): pre-rendering it at 8x would make
    /// frames of 193 M pixels, but the region in view comes at 8x from the server: 24 device
    /// pixels to the point, the size asked for widened to whole pixels. The server holds every
    /// request to the token and the Host, and names the parameter it cannot read.
    func testServedZoomRendersARegionOfAFullSizeIPhoneAtEightTimes() throws {
        let dir = try TempDir()
        let s = try serve("Fixtures/posts/interrupted-collapse.json", ["--device", "iphone-15-pro"], in: dir)
        let region = "state=02-collapse&frame=3&zoom=8&x=19.5&y=20&w=100&h=50"

        // Without the token, or from another Host: nothing.
        XCTAssertEqual(s.get("/zoom?" + region).status, 403)
        XCTAssertEqual(s.get("/").status, 403)
        XCTAssertEqual(s.get("/zoom?" + region, token: String(repeating: "0", count: 64)).status, 403)
        XCTAssertEqual(s.get("/zoom?" + region, token: s.token, host: "evil.example:\(s.port)").status, 403)
        let post = RawHTTP.request(
            port: s.port, "/zoom?" + region, method: "POST", headers: [("X-LayoutSnap-Token", s.token)])
        XCTAssertEqual(post.status, 405, post.text)

        // 24 px to the point: x 19.5 to 119.5 pt is pixels 468 to 2868, y 20 to 70 pt 480 to 1680.
        let answer = s.zoom(region)
        let image = try png(answer)
        XCTAssertEqual([image.width, image.height], [2400, 1200])
        XCTAssertEqual(answer.header("X-LayoutSnap-Region"), "468,480,2400,1200")
        XCTAssertEqual(answer.header("Cache-Control"), "no-store")
        XCTAssertGreaterThan(Set(image.pixels).count, 50, "the title's text, drawn at 8x")
        // A region past the canvas's edge is cut to it; a fraction of a pixel widens to a pixel.
        let edge = s.zoom("state=initial&frame=0&zoom=8&x=390.01&y=851&w=50&h=50")
        XCTAssertEqual(try png(edge).width, 72, "393 - 390.01 pt at 24 px, widened")
        XCTAssertEqual(edge.header("X-LayoutSnap-Region"), "9360,20424,72,24")

        // Each bad parameter is a 400 that names it; nothing crashes the server.
        let bad: [(String, String)] = [
            ("state=nope&frame=0&zoom=8&x=0&y=0&w=10&h=10", "state: posts/interrupted-collapse has no state \"nope\""),
            ("state=initial&frame=1&zoom=8&x=0&y=0&w=10&h=10", "frame: initial has frames 0 to 0, found 1"),
            ("state=initial&frame=-1&zoom=8&x=0&y=0&w=10&h=10", "frame must be a whole number"),
            ("state=initial&frame=0&zoom=9&x=0&y=0&w=10&h=10", "zoom must be a whole number from 1 to 8, found \"9\""),
            ("state=initial&frame=0&zoom=2.5&x=0&y=0&w=10&h=10", "zoom must be a whole number"),
            ("state=initial&frame=0&zoom=8&x=abc&y=0&w=10&h=10", "x must be a number of points, found \"abc\""),
            ("state=initial&frame=0&zoom=8&x=0&y=nan&w=10&h=10", "y must be a number of points"),
            ("state=initial&frame=0&zoom=8&x=0&y=0&w=0&h=10", "w must be a positive number of points"),
            ("state=initial&frame=0&zoom=8&x=0&y=0&w=10&h=-inf", "h must be a positive number of points"),
            ("state=initial&frame=0&zoom=8&x=0&y=0&w=10", "h is missing"),
            ("state=initial&frame=0&zoom=8&x=500&y=0&w=10&h=10", "the region is outside the 393 x 852 pt canvas"),
            (
                "state=initial&frame=0&zoom=8&x=0&y=0&w=393&h=852",
                "h: the region's 20448 rows at zoom 8 (scale 24) are drawn across the canvas's 9432 px, more than 16300000 pixels: ask for at most 1728 rows (72 pt)"
            ),
        ]
        for (query, message) in bad {
            let r = s.zoom(query)
            XCTAssertEqual(r.status, 400, query + ": " + r.text)
            XCTAssertTrue(r.text.contains(message), "\(query): \(r.text)")
        }
        XCTAssertEqual(try png(s.zoom(region)).width, 2400, "the server still answers")

        // The page, served with the token in its head; the file on disk has none.
        let page = s.get("/?token=\(s.token)")
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.text.contains("<meta name=\"layoutsnap-preview-server\" content=\"\(s.token)\">"))
        let cookie = page.header("Set-Cookie") ?? ""
        XCTAssertTrue(
            cookie.hasPrefix("layoutsnap-preview-\(s.port)=\(s.token);") && cookie.contains("HttpOnly"), cookie)
        XCTAssertFalse(
            try String(contentsOf: s.out.appendingPathComponent("index.html"), encoding: .utf8).contains(s.token))
        let frame = s.get("/states/02-collapse/frames/003.png", token: nil)
        XCTAssertEqual(frame.status, 403, "the frames too need the token")

        // In Chromium: 2x to 8x; at 8x the region in view comes from the server, one image pixel
        // to a device pixel, over the same points of the frame; stepping asks for the next
        // frame's; Fit lets it go.
        let script = #"""
              const b = document.body.dataset, stage = document.querySelector('.stage');
              const region = document.getElementById('region'), frame = document.getElementById('frame');
              ok(document.querySelectorAll('button[data-zoom]').length === 8, 'Fit and 2x to 8x: ' + document.querySelectorAll('button[data-zoom]').length);
              ok(!document.querySelector('.zooms .hint'), 'no hint to pass --zoom');
              document.querySelector('button[data-zoom="8"]').click();
              ok(document.querySelector('.layer').style.width === '9432px', '393 pt at 24 px: ' + document.querySelector('.layer').style.width);
              ok(frame.getAttribute('src') === 'states/02-collapse/frames/003.png', 'the frame, enlarged under the region');
              stage.scrollLeft = 19 * 24; stage.scrollTop = 18 * 24;
              wait(() => b.region && !region.hidden, () => {
                const [st, k, z, box] = (b.region || '').split(' ');
                ok(st === '02-collapse' && k === '3' && z === '8', 'the region of the frame shown: ' + b.region);
                ok(!region.hidden, 'the region is shown over the frame');
                ok(document.querySelector('.region-note').textContent.includes('re-rendered at 8x'), 'the page says so: ' + document.querySelector('.region-note').textContent);
                const [x, y, w, h] = (box || '').split(',').map(Number);
                ok(x === 456 && y === 432, 'the region starts at the scroll: ' + box);
                ok(w >= stage.clientWidth - 1 && w <= stage.clientWidth + 1 && h >= stage.clientHeight - 1 && h <= stage.clientHeight + 1, 'as large as the view: ' + box + ' for ' + stage.clientWidth + ' x ' + stage.clientHeight);
                ok(region.naturalWidth === w && region.naturalHeight === h, 'the PNG is that large: ' + region.naturalWidth + ' x ' + region.naturalHeight);
                ok(region.style.left === x + 'px' && region.style.top === y + 'px' && region.style.width === w + 'px', 'placed on its pixels: ' + region.style.cssText);
                ok(!b.regionError, 'no error: ' + b.regionError);
                key('ArrowRight');
                ok(region.hidden, 'the next frame hides the last one\'s region');
                wait(() => b.region && b.region.startsWith('02-collapse 4 8 '), () => {
                  ok(!region.hidden && b.region.startsWith('02-collapse 4 8 456,432,'), 'the next frame\'s region: ' + b.region);
                  document.querySelector('button[data-zoom="1"]').click();
                  ok(region.hidden && !b.region, 'Fit: no region');
                  done();
                });
              });
            """#
        XCTAssertEqual(try s.drive("#view=timeline&t=0.15", script, profile: dir.path("profile")), "ok")
    }

    /// `--port` goes with `--serve` and is a port; a port in use is said before anything is
    /// rendered.
    func testServeOptionsAreChecked() throws {
        let dir = try TempDir()
        let alone = try CLI.run(["preview", "Fixtures/posts/long-body.json", "--port", "80"])
        XCTAssertEqual(alone.status, 2, alone.output)
        XCTAssertTrue(alone.stderr.contains("--port goes with --serve"), alone.stderr)
        let big = try CLI.run(["preview", "Fixtures/posts/long-body.json", "--serve", "--port", "70000"])
        XCTAssertEqual(big.status, 2, big.output)
        XCTAssertTrue(big.stderr.contains("--port must be from 0 to 65535"), big.stderr)
        let s = try serve("Fixtures/posts/long-body.json", [], in: dir)
        let out = dir.path("second")
        let taken = try CLI.run([
            "preview", "Fixtures/posts/long-body.json", "--out", out.path, "--serve", "--port", "\(s.port)",
        ])
        XCTAssertEqual(taken.status, 2, taken.output)
        XCTAssertTrue(taken.stderr.contains("cannot listen on 127.0.0.1:\(s.port)"), taken.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path + "/index.html"), "nothing rendered")
    }

    /// With --watch, the regions are drawn from the last good build: an edited summary shows in
    /// the next region asked for (at 1x, exactly the frame the build wrote), and a broken edit
    /// leaves the last good one.
    func testServedRegionsFollowAWatchedFixture() throws {
        let dir = try TempDir()
        let fixture = try dir.write("card.json", PreviewTests.expandingCard)
        let s = try serve(fixture.path, ["--watch"], in: dir)
        let query = "state=01-expand&frame=6&zoom=1&x=0&y=0&w=200&h=160"
        func frame() throws -> [UInt32] {
            try PNGDecoder.decode(
                [UInt8](Data(contentsOf: s.out.appendingPathComponent("states/01-expand/frames/006.png")))
            ).pixels
        }
        let before = try png(s.zoom(query)).pixels
        XCTAssertEqual(before, try frame())
        try dir.write(
            "card.json", PreviewTests.expandingCard.replacingOccurrences(of: "A summary", with: "An edited summary"))
        var after = before
        let end = Date().addingTimeInterval(30)
        while after == before, Date() < end {
            Thread.sleep(forTimeInterval: 0.2)
            after = try png(s.zoom(query)).pixels
        }
        XCTAssertNotEqual(after, before, "the edit shows: \(server?.outputSoFar ?? "")")
        XCTAssertEqual(after, try frame(), "the region is the new build's frame")
        try dir.write("card.json", "{ broken")
        Thread.sleep(forTimeInterval: 1.5)
        XCTAssertEqual(try png(s.zoom(query)).pixels, after, "a broken edit keeps the last good build")
    }

    /// A comparison served: B's regions are drawn as A's (`side=b`), from B's own layout, and side
    /// by side the page shows B's region of B's paired frame; the goldens, being pictures, have
    /// none.
    func testServedComparisonDrawsBsRegionsToo() throws {
        let dir = try TempDir()
        let fixture = try dir.write("card.json", PreviewTests.expandingCard)
        let s = try serve(fixture.path, ["--compare-appearance", "dark", "--zoom", "2"], in: dir)
        let data = try PreviewTests.Preview(dir: dir, out: s.out, layout: [:]).pageData()
        XCTAssertEqual((data["compare"] as? [String: Any])?["rendered"] as? Bool, true)
        let b = try png(s.zoom("side=b&state=01-expand&frame=3&zoom=2&x=0&y=0&w=200&h=160"))
        let bWhole = try PNGDecoder.decode(
            [UInt8](Data(contentsOf: s.out.appendingPathComponent("compare/states/01-expand/zoom/003.png"))))
        XCTAssertEqual(b.pixels, bWhole.pixels, "B's region is B's frame (dark), not A's")
        XCTAssertNotEqual(b.pixels, try png(s.zoom("state=01-expand&frame=3&zoom=2&x=0&y=0&w=200&h=160")).pixels)
        let side = s.zoom("side=c&state=01-expand&frame=3&zoom=2&x=0&y=0&w=20&h=20")
        XCTAssertEqual(side.status, 400)
        XCTAssertTrue(side.text.contains("side must be a or b, found \"c\""), side.text)

        let script = #"""
              const b = document.body.dataset, stageB = document.querySelectorAll('.stage')[1];
              document.querySelector('button[data-zoom="8"]').click();
              const stage = document.querySelector('.stage');
              stage.scrollLeft = 0; stage.scrollTop = 0;
              // The top-left pixel: the light page of A, the dark one of B.
              const pixel = (im) => {
                const c = document.createElement('canvas'); c.width = 1; c.height = 1;
                const g = c.getContext('2d'); g.drawImage(im, 0, 0);
                return Array.from(g.getImageData(0, 0, 1, 1).data).join(',');
              };
              wait(() => b.region && b.regionB, () => {
                ok(b.region.endsWith(' 0,0,' + b.region.split(',')[2] + ',' + b.region.split(',')[3]) && b.regionB.includes(' 0,0,'), 'both from the top-left corner: ' + b.region + ' / ' + b.regionB);
                ok(pixel(document.getElementById('region-b')) !== pixel(document.getElementById('region')), 'B\'s region is B\'s picture, not A\'s: ' + pixel(document.getElementById('region-b')));
                ok((b.regionB || '').startsWith('01-expand ' + b.bFrame + ' 8 '), 'B\'s region of B\'s paired frame: ' + b.regionB + ' (B frame ' + b.bFrame + ')');
                const img = document.getElementById('region-b');
                ok(!img.hidden && img.closest('.stage') === stageB, 'shown on B\'s stage');
                document.querySelector('button[data-compare-mode=onion]').click();
                ok(img.hidden && !b.regionB, 'over A, B shows enlarged');
                done();
              });
            """#
        XCTAssertEqual(try s.drive("#state=01-expand&frame=3", script, profile: dir.path("profile")), "ok")

        // The goldens are pictures: no B to draw.
        let record = try CLI.run(
            ["record", "--no-progress", "--allow-ci", "--goldens", "G", fixture.path], in: dir.url)
        XCTAssertEqual(record.status, 0, record.output)
        let g = try serve(fixture.path, ["--compare-goldens", dir.path("G").path], in: try TempDir())
        let none = g.zoom("side=b&state=01-expand&frame=3&zoom=2&x=0&y=0&w=20&h=20")
        XCTAssertEqual(none.status, 400)
        XCTAssertTrue(none.text.contains("side: there is no B drawn again"), none.text)
    }

    /// On a canvas small enough to render whole at 8x (a 390 x 350 pt card at scale 1), every
    /// served region has exactly the pixels of the same region of the whole frame `--zoom 8`
    /// rendered: at fractional points, across the card's shadow, its picture and its text, and
    /// cut at the canvas's edge. At a zoom not rendered up front, a region equals the same part
    /// of the whole frame the server renders at that zoom.
    func testAServedRegionHasTheWholeFramesPixels() throws {
        let dir = try TempDir()
        let s = try serve("Fixtures/posts/interrupted-collapse.json", ["--zoom", "8"], in: dir)
        func crop(_ image: PixelImage, _ x: Int, _ y: Int, _ w: Int, _ h: Int) -> [UInt32] {
            (y..<(y + h)).flatMap { row in image.pixels[(row * image.width + x)..<(row * image.width + x + w)] }
        }
        for (state, frame) in [("02-collapse", 3), ("01-expand", 2)] {
            let whole = try PNGDecoder.decode(
                [UInt8](
                    Data(
                        contentsOf: s.out.appendingPathComponent(
                            "states/\(state)/zoom/\(String(format: "%03d", frame)).png"))))
            XCTAssertEqual([whole.width, whole.height], [3120, 2800])
            let regions: [(Double, Double, Double, Double)] = [
                (0, 0, 390, 350), (10.3, 20.7, 100, 80), (170.54, 61.98, 199.84, 148.06), (2, 30, 9, 100),
                (5.06, 250.3, 40, 60), (200.2, 1.1, 33.3, 22.2), (380.2, 340.9, 50, 50),
            ]
            for (x, y, w, h) in regions {
                let answer = s.zoom("state=\(state)&frame=\(frame)&zoom=8&x=\(x)&y=\(y)&w=\(w)&h=\(h)")
                let image = try png(answer)
                let box = (answer.header("X-LayoutSnap-Region") ?? "").split(separator: ",").compactMap { Int($0) }
                XCTAssertEqual(box.count, 4, answer.head)
                guard box.count == 4 else { continue }
                XCTAssertEqual(box[0], Int((x * 8).rounded(.down)))
                XCTAssertEqual(box[1], Int((y * 8).rounded(.down)))
                XCTAssertEqual([image.width, image.height], [box[2], box[3]])
                let expected = crop(whole, box[0], box[1], box[2], box[3])
                let differing = zip(image.pixels, expected).filter { $0 != $1 }.count
                XCTAssertEqual(differing, 0, "\(state) frame \(frame), region \(x), \(y), \(w) x \(h): pixels differ")
            }
        }
        // At 5x, rendered only on demand: the whole frame (1950 x 1750 px) and a part of it.
        let whole = try png(s.zoom("state=02-collapse&frame=3&zoom=5&x=0&y=0&w=390&h=350"))
        XCTAssertEqual([whole.width, whole.height], [1950, 1750])
        let part = s.zoom("state=02-collapse&frame=3&zoom=5&x=7.7&y=33.3&w=120.2&h=56.15")
        let image = try png(part)
        XCTAssertEqual(part.header("X-LayoutSnap-Region"), "38,166,602,282")
        XCTAssertEqual(image.pixels, crop(whole, 38, 166, 602, 282), "a region at 5x is the whole frame's")
    }

    /// A chat's pictures, its placeholders' gradients and its bubbles, at 4x: each region's
    /// pixels are the whole frame's.
    func testAServedRegionOfAChatsPicturesHasTheWholeFramesPixels() throws {
        let dir = try TempDir()
        let s = try serve("Fixtures/chats/images.json", ["--zoom", "4"], in: dir)
        let whole = try PNGDecoder.decode(
            [UInt8](Data(contentsOf: s.out.appendingPathComponent("states/initial/zoom/000.png"))))
        XCTAssertEqual([whole.width, whole.height], [1572, 2560])
        let regions: [(Double, Double, Double, Double)] = [
            (104.55, 90.7, 150.1, 200.3), (100, 80, 30, 30), (300.3, 400.1, 92.9, 60), (12.2, 16.3, 120.7, 70.6),
            (0, 0, 393, 640),
        ]
        for (x, y, w, h) in regions {
            let answer = s.zoom("state=initial&frame=0&zoom=4&x=\(x)&y=\(y)&w=\(w)&h=\(h)")
            let image = try png(answer)
            let box = (answer.header("X-LayoutSnap-Region") ?? "").split(separator: ",").compactMap { Int($0) }
            guard box.count == 4 else { return XCTFail(answer.head) }
            let expected = (box[1]..<(box[1] + box[3])).flatMap { row in
                whole.pixels[(row * whole.width + box[0])..<(row * whole.width + box[0] + box[2])]
            }
            XCTAssertEqual(
                zip(image.pixels, expected).filter { $0 != $1 }.count, 0,
                "region \(x), \(y), \(w) x \(h): pixels differ")
        }
    }
}
