import Foundation
import LayoutSnapImaging
import LayoutSnapTestSupport
import XCTest

/// `preview --zoom N`: the frames rendered again at N times the scale, and the page's zoom.
extension PreviewTests {
    /// A zoomed frame is the same picture at 4x its pixels, drawn again: each 4 x 4 block averages
    /// to about the frame's pixel, but the blocks are not one colour each, as an enlarged frame's
    /// would be (text and curved edges carry their own detail).
    func testZoomRendersEveryFrameAgainAtTheZoomedScale() throws {
        let p = try preview("Fixtures/posts/interrupted-collapse.json", ["--zoom", "4"])
        let frame = try p.png("states/02-collapse/frames/003.png")
        let zoomed = try p.png("states/02-collapse/zoom/003.png")
        XCTAssertEqual(zoomed.width, frame.width * 4)
        XCTAssertEqual(zoomed.height, frame.height * 4)
        var difference = 0
        var detailed = 0
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                var sums = [0, 0, 0]
                var colours = Set<UInt32>()
                for dy in 0..<4 {
                    for dx in 0..<4 {
                        let word = zoomed.pixels[(y * 4 + dy) * zoomed.width + x * 4 + dx]
                        colours.insert(word)
                        for (c, shift) in [16, 8, 0].enumerated() { sums[c] += Int((word >> UInt32(shift)) & 0xFF) }
                    }
                }
                if colours.count > 1 { detailed += 1 }
                let word = frame.pixels[y * frame.width + x]
                for (c, shift) in [16, 8, 0].enumerated() {
                    difference += abs(sums[c] / 16 - Int((word >> UInt32(shift)) & 0xFF))
                }
            }
        }
        let pixels = frame.width * frame.height
        XCTAssertLessThan(Double(difference) / Double(3 * pixels), 4, "the zoomed frame is another picture")
        XCTAssertGreaterThan(detailed, pixels / 100, "the zoomed frame looks enlarged, not drawn again")
        let states = try p.pageData()["states"] as! [[String: Any]]
        let frames = states[2]["frames"] as! [[String: Any]]
        XCTAssertEqual(frames[3]["zoomed"] as? String, "states/02-collapse/zoom/003.png")

        // The page's 4x shows that frame one image pixel to a screen pixel, and pans by scrolling.
        let chromium = try Browser.chromium()
        let script = #"""
              const img = document.getElementById('frame'), stage = document.querySelector('.stage');
              ok(document.querySelectorAll('button[data-zoom]').length === 4, 'Fit, 2x, 3x, 4x');
              document.querySelector('button[data-zoom="4"]').click();
              ok(img.getAttribute('src') === 'states/02-collapse/zoom/003.png', 'the zoomed frame: ' + img.getAttribute('src'));
              ok(document.querySelector('.layer').style.width === '1560px', '390 pt at 4x: ' + document.querySelector('.layer').style.width);
              ok(stage.scrollWidth > stage.clientWidth && stage.scrollHeight > stage.clientHeight, 'a zoomed frame pans');
              ok(location.hash.includes('zoom=4'), 'the zoom is kept in the address: ' + location.hash);
              key('ArrowRight');
              ok(img.getAttribute('src') === 'states/02-collapse/zoom/004.png', 'stepping stays zoomed: ' + img.getAttribute('src'));
              // The load event, not decode(): a pending fetch holds Chromium's virtual time, an
              // off-thread decode does not, so under load the page was dumped before decode() ended.
              const loaded = () => {
                ok(img.naturalWidth === 1560 && img.getBoundingClientRect().width === 1560, 'one image pixel to a screen pixel: ' + img.naturalWidth);
                document.querySelector('button[data-zoom="1"]').click();
                ok(img.getAttribute('src') === 'states/02-collapse/frames/004.png' && stage.scrollWidth === stage.clientWidth, 'Fit again');
                done();
              };
              if (img.complete && img.naturalWidth) loaded();
              else {
                img.addEventListener('load', loaded, { once: true });
                img.addEventListener('error', () => { ok(false, 'the zoomed frame did not load'); done(); }, { once: true });
              }
            """#
        XCTAssertEqual(
            try Browser.drive(
                chromium, page: p.out.appendingPathComponent("index.html"), hash: "#view=timeline&t=0.15",
                script: script, profile: p.dir.path("profile"), budget: 20000), "ok")

        // A zoom whose frames would be too large says which zoom fits.
        let r = try CLI.run([
            "preview", "Fixtures/chats/keyboard.json", "--scale", "3", "--zoom", "8", "--out", p.dir.path("big").path,
        ])
        XCTAssertEqual(r.status, 2, r.output)
        XCTAssertTrue(r.stderr.contains("--zoom 8 of a 1125 x 1440 px canvas"), r.stderr)
        XCTAssertTrue(r.stderr.contains("use --zoom 3 or less"), r.stderr)
        let nine = try CLI.run(["preview", "Fixtures/posts/long-body.json", "--zoom", "9"])
        XCTAssertEqual(nine.status, 2, nine.output)
        XCTAssertTrue(nine.stderr.contains("--zoom must be from 2 to 8"), nine.stderr)
    }
}

extension PreviewTests {
    /// The pixel loupe reads the frame's own pixels (through pixels/NNN.js, as a page opened from
    /// disk cannot read its images): the colour it names is the PNG's.
    func testPixelLoupeNamesTheFramesColour() throws {
        let chromium = try Browser.chromium()
        let p = try preview("Fixtures/posts/interrupted-collapse.json")
        let frame = try p.png("states/02-collapse/frames/003.png")
        // Inside the landscape image at 150 ms: colours of the picture, not the card's white. The
        // pointer lands on whole CSS pixels, so the loupe may read a neighbour: each one's colour.
        var colours: [String] = []
        for y in 98...102 {
            for x in 198...202 {
                let word = frame.pixels[y * frame.width + x]
                colours.append(
                    "'\(x),\(y)': '"
                        + String(format: "#%02x%02x%02x", (word >> 16) & 0xFF, (word >> 8) & 0xFF, word & 0xFF)
                        + "'")
            }
        }
        let script = #"""
              const box = document.querySelector('input[data-tool=loupe]');
              box.checked = true; fire(box, 'change');
              const r = document.querySelector('.layer').getBoundingClientRect();
              document.querySelector('.stage').dispatchEvent(new MouseEvent('mousemove', { bubbles: true,
                clientX: r.left + 200.5 / 390 * r.width, clientY: r.top + 100.5 / 350 * r.height }));
              const check = (n) => {
                if (document.body.dataset.loupe || n === 0) {
                  const [where, colour] = (document.body.dataset.loupe || ' ').split(' ');
                  ok(COLOURS[where] && COLOURS[where] === colour, 'the loupe reads ' + document.body.dataset.loupe);
                  ok(colour !== '#ffffff', 'a colour of the picture');
                  ok(!document.querySelector('.loupe').hidden, 'the loupe is shown');
                  ok(document.querySelector('.loupe-text').textContent.includes(colour), 'and names the colour');
                  done();
                } else setTimeout(() => check(n - 1), 50);
              };
              check(60);
            """#
        XCTAssertEqual(
            try Browser.drive(
                chromium, page: p.out.appendingPathComponent("index.html"), hash: "#view=timeline&t=0.15",
                script: script.replacingOccurrences(of: "COLOURS", with: "{" + colours.joined(separator: ", ") + "}"),
                profile: p.dir.path("profile")), "ok")
    }
}
