import Foundation
import LayoutSnapTestSupport
import XCTest

/// Headless Chromium, as docs/report.md and docs/commands.md tell users to open reports and previews. CI installs it
/// (.ci/install), so there a missing browser is a failure; elsewhere the test is skipped.
enum Browser {
    static func chromium() throws -> URL {
        if let url = TestTools.chromium() { return url }
        if TestTools.required { XCTFail(TestTools.chromiumMissing) }
        throw XCTSkip(TestTools.chromiumMissing)
    }

    /// Runs Chromium headless with `arguments` (a page and --dump-dom or --screenshot) and
    /// returns what it printed. Virtual time makes timers (the scrubber's playback) run the same
    /// on a busy machine.
    /// `budget`: milliseconds of the page's virtual time before the DOM is dumped; a page that
    /// waits on decoding large images needs more when the machine is busy.
    static func run(_ chromium: URL, _ arguments: [String], profile: URL, budget: Int = 3000) throws
        -> TestProcess.Output
    {
        try TestProcess.run(
            chromium,
            TestTools.headlessChromium(profile: profile)
                + ["--window-size=1280,1000", "--virtual-time-budget=\(budget)"] + arguments)
    }

    /// The value of `name="..."` in dumped HTML.
    static func attribute(_ name: String, in html: String) -> String? {
        guard let start = html.range(of: "\(name)=\"") else { return nil }
        let rest = html[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end]).replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(
            of: "&quot;", with: "\"")
    }

    /// A page (report or preview) that finished its script and drew `track` as a motion plot:
    /// the golden's path, the new one and a cursor line.
    static func assertMotionPlot(_ dom: String, track: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(dom.contains("data-ready=\"true\""), "the page script did not finish", file: file, line: line)
        XCTAssertTrue(dom.contains("data-track=\"\(track)\""), "no plot of \(track)", file: file, line: line)
        XCTAssertTrue(
            dom.contains("<path class=\"expected\" d=\"M"), "the golden track is not drawn", file: file, line: line)
        XCTAssertTrue(
            dom.contains("<path class=\"actual\" d=\"M"), "the new track is not drawn", file: file, line: line)
        XCTAssertTrue(dom.contains("<line class=\"cursor\""), "no cursor line", file: file, line: line)
    }

    /// Runs `script` in a copy of `page` (a preview's index.html, beside it) after the page's own
    /// script, opened at `hash`: the script has `ok(cond, what)`, `fire(el, type)`, `key(k)` and
    /// `done()`, which it calls when finished. Returns "ok", or what failed.
    static func drive(
        _ chromium: URL, page: URL, hash: String = "", script: String, profile: URL, budget: Int = 3000
    ) throws -> String? {
        let html = try String(contentsOf: page, encoding: .utf8)
        let copy = page.deletingLastPathComponent().appendingPathComponent("drive.html")
        try withDriver(html, script).write(to: copy, atomically: true, encoding: .utf8)
        return try result(chromium, copy.absoluteString + hash, profile: profile, budget: budget)
    }

    /// `drive` on a page a server serves: `html`, the page as served (with what the server put in
    /// it), is written with the script as drive.html into `folder`, the folder served, and opened
    /// at `url(path)` (the server's address of that path, with its token).
    static func drive(
        _ chromium: URL, served html: String, into folder: URL, url: (String) -> String, hash: String = "",
        script: String, profile: URL, budget: Int = 3000
    ) throws -> String? {
        try withDriver(html, script).write(
            to: folder.appendingPathComponent("drive.html"), atomically: true, encoding: .utf8)
        return try result(chromium, url("/drive.html") + hash, profile: profile, budget: budget)
    }

    private static func result(_ chromium: URL, _ address: String, profile: URL, budget: Int) throws -> String? {
        let dom = try run(chromium, ["--dump-dom", address], profile: profile, budget: budget)
        XCTAssertEqual(dom.status, 0, dom.stderr)
        return attribute("data-test-result", in: dom.stdout)
    }

    /// The page with the test's script after its own.
    private static func withDriver(_ html: String, _ script: String) -> String {
        let driver = """
            <script>
            (() => {
              const log = [];
              const ok = (cond, what) => { if (!cond) log.push(what); };
              const fire = (el, type) => el.dispatchEvent(new Event(type, { bubbles: true }));
              const key = (k) => document.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
              const done = () => document.body.setAttribute('data-test-result', log.length ? log.join(' | ') : 'ok');
            \(script)
            })();
            </script>
            """
        return html.replacingOccurrences(of: "</body>", with: driver + "\n</body>")
    }

    /// Python for the tests that drive Chromium over the DevTools pipe: `open_browser(chromium,
    /// profile)` starts it headless (returning the process) and `call(method, params, session)`
    /// sends one command and returns its result. The test's script follows it.
    static let devToolsPipe = #"""
        import json, os, subprocess

        def open_browser(chromium, profile):
            global out, inp, buffer, next_id
            to_browser_r, to_browser_w = os.pipe()
            from_browser_r, from_browser_w = os.pipe()

            def child_fds():
                # The browser reads commands on fd 3 and writes replies on fd 4.
                a, b = os.dup(to_browser_r), os.dup(from_browser_w)
                os.dup2(a, 3); os.dup2(b, 4)

            os.makedirs(profile, exist_ok=True)
            proc = subprocess.Popen([chromium, '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
                                     '--no-first-run', '--user-data-dir=' + profile, '--remote-debugging-pipe', 'about:blank'],
                                    preexec_fn=child_fds, close_fds=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            os.close(to_browser_r); os.close(from_browser_w)
            out = os.fdopen(to_browser_w, 'wb', buffering=0)
            inp = os.fdopen(from_browser_r, 'rb', buffering=0)
            buffer = b''
            next_id = 0
            return proc

        def call(method, params=None, session=None):
            global next_id, buffer
            next_id += 1
            message = {'id': next_id, 'method': method, 'params': params or {}}
            if session: message['sessionId'] = session
            out.write(json.dumps(message).encode() + b'\0')
            while True:
                while b'\0' not in buffer:
                    chunk = inp.read(65536)
                    if not chunk: raise SystemExit('chromium closed the pipe')
                    buffer += chunk
                raw, buffer = buffer.split(b'\0', 1)
                reply = json.loads(raw)
                if reply.get('id') == next_id:
                    if 'error' in reply: raise SystemExit('%s: %s' % (method, reply['error']))
                    return reply['result']

        """#
}
