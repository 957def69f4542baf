import Foundation
import LayoutSnapTestSupport
import XCTest

/// A verify report with failing frames: two small cards recorded, then both titles changed.
final class ReviewedReport {
    let dir: TempDir

    init() throws {
        dir = try TempDir()
        for name in ["a", "b"] { try dir.write("Fixtures/cards/\(name).json", smallPost(title: "Card \(name)")) }
        let record = try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url)
        XCTAssertEqual(record.status, 0, record.output)
        for name in ["a", "b"] { try dir.write("Fixtures/cards/\(name).json", smallPost(title: "Changed \(name)")) }
        let verify = try CLI.run(["verify", "--no-progress"], in: dir.url)
        XCTAssertEqual(verify.status, 1, verify.output)
    }

    var report: URL { dir.path(".layoutsnap/report") }

    /// results.json's frames that did not pass, by fixture id: golden key and goldenHash.
    func failing(_ fixture: String) throws -> [(golden: String, hash: String?)] {
        let json =
            try JSONSerialization.jsonObject(with: Data(contentsOf: report.appendingPathComponent("results.json")))
            as! [String: Any]
        var frames: [(String, String?)] = []
        for entry in json["fixtures"] as! [[String: Any]] where entry["id"] as? String == fixture {
            for state in entry["states"] as! [[String: Any]] {
                for frame in state["frames"] as! [[String: Any]] where frame["status"] as? String != "passed" {
                    frames.append((frame["golden"] as! String, frame["goldenHash"] as? String))
                }
            }
        }
        return frames
    }

    /// Every file below Goldens/ with its bytes.
    func goldens() throws -> [String: Data] {
        let root = dir.path("Goldens")
        var files: [String: Data] = [:]
        for case let item as String in FileManager.default.enumerator(atPath: root.path)! {
            let url = root.appendingPathComponent(item)
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir), !isDir.boolValue {
                files[item] = try Data(contentsOf: url)
            }
        }
        return files
    }
}

/// Raw HTTP/1.1 over a socket: exactly the bytes a browser, or a hostile page, could send.
enum RawHTTP {
    struct Response {
        var status: Int
        var head: String
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        func header(_ name: String) -> String? {
            head.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
                .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
        }
    }

    static func connect(port: UInt16) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        XCTAssertEqual(result, 0, "connect to 127.0.0.1:\(port)")
        return fd
    }

    static func write(_ fd: Int32, _ bytes: [UInt8]) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + done, bytes.count - done, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            done += n
        }
    }

    /// Reads until the server closes, or `until` is found in what arrived, or the time is up.
    static func read(_ fd: Int32, until marker: String? = nil, timeout: Double = 20) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 100) > 0 else { continue }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            data.append(contentsOf: buffer[0..<n])
            if let marker, String(decoding: data, as: UTF8.self).contains(marker) { break }
        }
        return data
    }

    static func parse(_ data: Data) -> Response {
        let text = String(decoding: data, as: UTF8.self)
        guard let split = data.range(of: Data("\r\n\r\n".utf8)) else {
            return Response(status: 0, head: text, body: Data())
        }
        let head = String(decoding: data[..<split.lowerBound], as: UTF8.self)
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        return Response(status: status, head: head, body: data[split.upperBound...])
    }

    /// One request; `host` nil sends the server's own.
    static func request(
        port: UInt16, _ target: String, method: String = "GET", host: String? = nil,
        headers: [(String, String)] = [], body: [UInt8] = []
    ) -> Response {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        let fd = connect(port: port)
        defer { close(fd) }
        write(fd, Array((head + "\r\n").utf8) + body)
        return parse(read(fd))
    }
}

/// A test that starts a server (`review`, `preview --serve`), stopped after each test.
class ServerTestCase: XCTestCase {
    var server: TestProcess?

    override func tearDown() {
        server?.signal(SIGKILL)
        server?.wait(timeout: 10)
        server = nil
        super.tearDown()
    }

    /// Starts the built binary with `arguments` as the test's server and returns the port and
    /// token of the address it prints on a line `PREFIX: http://127.0.0.1:PORT/?token=TOKEN`.
    func startServer(_ arguments: [String], in folder: URL? = nil, prefix: String, seconds: Double = 30) throws
        -> (port: UInt16, token: String)
    {
        server?.signal(SIGKILL)
        let process = try TestProcess.start(CLI.binary, arguments, in: folder)
        server = process
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            let output = process.outputSoFar
            if let line = output.components(separatedBy: "\n").first(where: {
                $0.hasPrefix("\(prefix): http://127.0.0.1:")
            }),
                let url = URLComponents(string: String(line.dropFirst(prefix.count + 2).prefix { $0 != " " })),
                let port = url.port, let token = url.queryItems?.first(where: { $0.name == "token" })?.value,
                output.hasSuffix("\n") || output.contains(token + "\n")
            {
                return (UInt16(port), token)
            }
            XCTAssertTrue(process.isRunning, "\(arguments[0]) stopped: \(output)")
            Thread.sleep(forTimeInterval: 0.05)
        }
        XCTFail("\(arguments[0]) printed no address in \(Int(seconds)) s: \(process.outputSoFar)")
        throw XCTSkip("no server")
    }
}

final class ReviewTests: ServerTestCase {
    /// Starts `layoutsnap review` and returns its port and token, read from the line it prints.
    func startReview(_ report: ReviewedReport, _ extra: [String] = []) throws -> (port: UInt16, token: String) {
        try startServer(["review", "--allow-ci"] + extra, in: report.dir.url, prefix: "Review")
    }

    func approve(_ port: UInt16, _ token: String, _ frames: [String]) throws -> [String: Any] {
        let body = try JSONSerialization.data(withJSONObject: ["decision": "approve", "frames": frames])
        let r = RawHTTP.request(
            port: port, "/api/decisions", method: "POST", headers: [("X-LayoutSnap-Token", token)], body: [UInt8](body))
        XCTAssertEqual(r.status, 200, r.head + r.text)
        return (try JSONSerialization.jsonObject(with: r.body) as? [String: Any]) ?? [:]
    }

    /// Everything a request without the right to it gets is a refusal, and none of them writes.
    func testRefusedRequestsServeNothingAndWriteNothing() throws {
        let report = try ReviewedReport()
        let before = try report.goldens()
        // A link out of the report, a hidden file, both never served.
        try FileManager.default.createSymbolicLink(
            atPath: report.report.appendingPathComponent("passwd.png").path, withDestinationPath: "/etc/passwd")
        try Data("secret".utf8).write(to: report.report.appendingPathComponent(".secret"))
        let (port, token) = try startReview(report)
        let auth = [("X-LayoutSnap-Token", token)]
        let frame = try XCTUnwrap(report.failing("cards/a").first).golden
        let approval = [UInt8](try JSONSerialization.data(withJSONObject: ["decision": "approve", "frames": [frame]]))

        XCTAssertEqual(RawHTTP.request(port: port, "/").status, 403, "no token")
        XCTAssertEqual(
            RawHTTP.request(port: port, "/?token=" + String(repeating: "0", count: 64)).status, 403, "a wrong token")
        XCTAssertEqual(
            RawHTTP.request(port: port, "/api/review", headers: [("X-LayoutSnap-Token", "nope")]).status, 403)
        XCTAssertEqual(
            RawHTTP.request(port: port, "/api/review", host: "evil.example:\(port)", headers: auth).status, 403,
            "a foreign Host")
        XCTAssertEqual(
            RawHTTP.request(
                port: port, "/api/decisions", method: "POST", headers: auth + [("Origin", "http://evil.example")],
                body: approval
            ).status,
            403, "a foreign Origin")
        XCTAssertEqual(
            RawHTTP.request(
                port: port, "/api/decisions", method: "POST", headers: [("Cookie", "layoutsnap-review=\(token)")],
                body: approval
            ).status,
            403, "a POST with the cookie alone")
        for target in [
            "/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/actual/..%2f..%2f..%2fetc/passwd", "//etc/passwd",
            "/passwd.png",
            "/.secret", "/actual/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        ] {
            let r = RawHTTP.request(port: port, target, headers: auth)
            XCTAssertTrue([403, 404].contains(r.status), "\(target): \(r.head)")
            XCTAssertFalse(r.text.contains("root:") || r.text.contains("secret"), "\(target) served: \(r.text)")
        }
        let absolute = RawHTTP.request(port: port, "http://127.0.0.1:\(port)/etc/passwd", headers: auth)
        XCTAssertTrue([400, 403, 404].contains(absolute.status), absolute.head)
        XCTAssertFalse(absolute.text.contains("root:"))
        let folder = RawHTTP.request(port: port, "/actual/", headers: auth)
        XCTAssertEqual(folder.status, 404, folder.head)
        XCTAssertFalse(folder.text.contains("cards"), "no listing: \(folder.text)")

        // A body over 1 MiB is refused before it is read; one that is not a decision too.
        let big = RawHTTP.request(
            port: port, "/api/decisions", method: "POST", headers: auth,
            body: [UInt8](repeating: 0x20, count: (1 << 20) + 1))
        XCTAssertEqual(big.status, 413, big.head)
        XCTAssertEqual(
            RawHTTP.request(port: port, "/api/decisions", method: "POST", headers: auth, body: Array("{not json".utf8))
                .status, 400)
        XCTAssertEqual(
            RawHTTP.request(
                port: port, "/api/decisions", method: "POST", headers: auth,
                body: Array(#"{"decision": "maybe", "frames": []}"#.utf8)
            ).status, 400)
        // A key results.json does not list as failing is refused by name.
        for key in ["cards/nope/initial/000.png", "../escape.png"] {
            let answer = try approve(port, token, [key])
            let refused = try XCTUnwrap(answer["refused"] as? [[String: String]])
            XCTAssertEqual(refused.first?["golden"], key, "\(answer)")
            XCTAssertEqual(answer["approved"] as? [String], [])
        }

        // A client that sends half a request holds nothing up.
        let slow = RawHTTP.connect(port: port)
        defer { close(slow) }
        RawHTTP.write(slow, Array("GET /api/review HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n".utf8))
        let started = Date()
        XCTAssertEqual(RawHTTP.request(port: port, "/api/review", headers: auth).status, 200)
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)

        XCTAssertEqual(try report.goldens(), before, "a refused request wrote into the goldens")

        // The page itself: the token in its head, the cookie set for the images.
        let page = RawHTTP.request(port: port, "/?token=\(token)")
        XCTAssertEqual(page.status, 200, page.head)
        XCTAssertTrue(page.text.contains("<meta name=\"layoutsnap-review\" content=\"\(token)\">"))
        let cookie = try XCTUnwrap(page.header("Set-Cookie"))
        XCTAssertTrue(
            cookie.contains("layoutsnap-review=\(token)") && cookie.contains("HttpOnly")
                && cookie.contains("SameSite=Strict"), cookie)
        let results = RawHTTP.request(port: port, "/results.json", headers: [("Cookie", "layoutsnap-review=\(token)")])
        XCTAssertEqual(results.status, 200)
        XCTAssertEqual(results.header("Content-Type"), "application/json")
        let onDisk = try String(contentsOf: report.report.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertFalse(onDisk.contains(token), "the file on disk is not changed: the token is only in what is served")
    }

    /// Approving every failing frame of one fixture writes its goldens and layout.json through
    /// the accept transaction, and verify then passes that fixture; the other is untouched.
    func testApprovingAFixtureWritesItsGoldensAndVerifyPasses() throws {
        let report = try ReviewedReport()
        let before = try report.goldens()
        let (port, token) = try startReview(report)
        let frames = try report.failing("cards/a").map(\.golden)
        XCTAssertFalse(frames.isEmpty)
        // layout.json is replaced (a new file: a new inode) once every frame is approved, not before.
        let layout = report.dir.path("Goldens/cards/a/layout.json").path
        func inode() throws -> Int {
            try FileManager.default.attributesOfItem(atPath: layout)[.systemFileNumber] as! Int
        }
        let recorded = try inode()
        let first = try approve(port, token, Array(frames.prefix(1)))
        XCTAssertEqual(first["approved"] as? [String], Array(frames.prefix(1)))
        XCTAssertEqual(try inode(), recorded, "layout.json waits for every frame")
        let answer = try approve(port, token, Array(frames.dropFirst()))
        XCTAssertEqual((answer["approved"] as? [String])?.sorted(), frames.sorted(), "\(answer)")
        XCTAssertEqual((answer["refused"] as? [Any])?.count, 0, "\(answer)")

        let after = try report.goldens()
        for key in frames { XCTAssertNotEqual(after[key], before[key], key) }
        XCTAssertNotEqual(try inode(), recorded, "layout.json written with the last frame")
        for (key, bytes) in before where key.hasPrefix("cards/b/") { XCTAssertEqual(after[key], bytes, key) }
        let manifest = String(decoding: after["manifest.json"] ?? Data(), as: UTF8.self)
        XCTAssertNotEqual(after["manifest.json"], before["manifest.json"])
        XCTAssertFalse(manifest.contains("\"previous\""), manifest)

        let review = RawHTTP.request(port: port, "/api/review", headers: [("X-LayoutSnap-Token", token)])
        let state = try XCTUnwrap(try JSONSerialization.jsonObject(with: review.body) as? [String: Any])
        XCTAssertEqual((state["approved"] as? [String])?.count, frames.count)
        XCTAssertEqual(
            try approve(port, token, [frames[0]])["refused"] as? [[String: String]], [], "approving again is no error")

        let verify = try CLI.run(
            ["verify", "--no-progress", "Fixtures/cards/a.json", "--report", "again"], in: report.dir.url)
        XCTAssertEqual(verify.status, 0, verify.output)
    }

    /// The whole loop in a real browser: the page that `layoutsnap review` serves approves cause 1
    /// with one click, the goldens on disk take the new frames, and verify then passes.
    func testABrowserApprovesACauseAndVerifyThenPasses() throws {
        guard let chromium = TestTools.chromium() else {
            if TestTools.required { XCTFail(TestTools.chromiumMissing) }
            throw XCTSkip(TestTools.chromiumMissing)
        }
        guard let (python, driver) = TestTools.selenium() else {
            if TestTools.required { XCTFail(TestTools.seleniumMissing) }
            throw XCTSkip(TestTools.seleniumMissing)
        }
        let report = try ReviewedReport()
        let before = try report.goldens()
        let results =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: report.report.appendingPathComponent("results.json"))) as! [String: Any]
        let causes = try XCTUnwrap(results["causes"] as? [[String: Any]])
        XCTAssertEqual(causes.count, 1, "both titles changed the same way: \(causes)")
        let frames = try XCTUnwrap(causes.first?["frames"] as? Int)
        let (port, token) = try startReview(report)
        let script = TestPaths.packageRoot.appendingPathComponent("Tests/ReviewBrowser/real_review.py")
        let run = try TestProcess.run(
            python,
            [
                script.path, "http://127.0.0.1:\(port)/?token=\(token)", String(frames),
                "--chromium", chromium.path, "--chromedriver", driver.path,
            ], timeout: 180)
        XCTAssertEqual(run.status, 0, run.output)
        let after = try report.goldens()
        for (key, _) in try report.failing("cards/a") + report.failing("cards/b") {
            XCTAssertNotEqual(after[key], before[key], key)
        }
        let verify = try CLI.run(["verify", "--no-progress", "--report", "again"], in: report.dir.url)
        XCTAssertEqual(verify.status, 0, verify.output)
    }

    /// A golden that changed on disk after verify read it is not overwritten by an approval.
    func testApprovalRefusedWhenTheGoldenChangedOnDisk() throws {
        let report = try ReviewedReport()
        let (port, token) = try startReview(report)
        let key = try XCTUnwrap(report.failing("cards/b").first).golden
        let golden = report.dir.path("Goldens/" + key)
        var bytes = [UInt8](try Data(contentsOf: golden))
        bytes.insert(contentsOf: PNGChunks.chunk("tEXt", Array("Comment\u{0}edited".utf8)), at: 33)
        try Data(bytes).write(to: golden)
        let before = try report.goldens()

        let answer = try approve(port, token, [key])
        let refused = try XCTUnwrap(answer["refused"] as? [[String: String]])
        XCTAssertEqual(refused.first?["golden"], key)
        XCTAssertTrue(refused.first?["reason"]?.contains("Goldens/\(key) changed since verify") ?? false, "\(refused)")
        XCTAssertEqual(try report.goldens(), before)
    }

    /// --watch: an edited fixture is verified again, results.json rewritten, the page told, and
    /// the decisions about it dropped.
    func testWatchVerifiesAnEditedFixtureAgain() throws {
        let report = try ReviewedReport()
        let (port, token) = try startReview(report, ["--watch"])
        XCTAssertEqual(try approve(port, token, [])["approved"] as? [String], [])
        let key = try XCTUnwrap(report.failing("cards/b").first).golden
        let rejected = try JSONSerialization.data(withJSONObject: ["decision": "reject", "frames": [key]])
        XCTAssertEqual(
            RawHTTP.request(
                port: port, "/api/decisions", method: "POST", headers: [("X-LayoutSnap-Token", token)],
                body: [UInt8](rejected)
            ).status, 200)

        let events = RawHTTP.connect(port: port)
        defer { close(events) }
        RawHTTP.write(
            events,
            Array("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-LayoutSnap-Token: \(token)\r\n\r\n".utf8))
        XCTAssertTrue(
            String(decoding: RawHTTP.read(events, until: "retry:", timeout: 10), as: UTF8.self).contains(
                "text/event-stream"))
        // Back to what was recorded: cards/b passes again.
        try report.dir.write("Fixtures/cards/b.json", smallPost(title: "Card b"))
        let stream = String(decoding: RawHTTP.read(events, until: "\"generation\":1}", timeout: 60), as: UTF8.self)
        XCTAssertTrue(
            stream.contains("event: results\ndata: {\"generation\":1}"), "\(stream)\n\(server?.outputSoFar ?? "")")

        XCTAssertEqual(try report.failing("cards/b").count, 0, "results.json has cards/b passing")
        XCTAssertFalse(try report.failing("cards/a").isEmpty, "cards/a is as it was")
        let review = RawHTTP.request(port: port, "/api/review", headers: [("X-LayoutSnap-Token", token)])
        let state = try XCTUnwrap(try JSONSerialization.jsonObject(with: review.body) as? [String: Any])
        XCTAssertEqual(state["generation"] as? Int, 1)
        XCTAssertEqual(state["rejected"] as? [String], [], "the decision about cards/b is dropped")
        XCTAssertEqual(state["watch"] as? Bool, true)
    }
}

/// `accept --approvals`: what a static report's approvals.json asks, with the same checks.
final class AcceptApprovalsTests: XCTestCase {
    func approvals(_ frames: [(golden: String, hash: String?)]) throws -> Data {
        let list: [[String: Any]] = frames.map { ["golden": $0.golden, "goldenHash": $0.hash as Any? ?? NSNull()] }
        return try JSONSerialization.data(withJSONObject: [
            "tool": "layoutsnap", "kind": "approvals", "version": 1, "approvals": list, "rejected": [],
        ])
    }

    func testApprovalsAreAcceptedAndVerifyPasses() throws {
        let report = try ReviewedReport()
        try approvals(try report.failing("cards/a")).write(to: report.dir.path("approvals.json"))
        let r = try CLI.run(["accept", "--approvals", "approvals.json", "--allow-ci"], in: report.dir.url)
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertTrue(r.stdout.contains("\(try report.failing("cards/a").count) frames accepted"), r.output)
        XCTAssertTrue(r.stdout.contains("1 layout.json updated"), r.output)
        XCTAssertEqual(
            try CLI.run(["verify", "--no-progress", "Fixtures/cards/a.json", "--report", "again"], in: report.dir.url)
                .status, 0)
        XCTAssertEqual(
            try CLI.run(["verify", "--no-progress", "Fixtures/cards/b.json", "--report", "again"], in: report.dir.url)
                .status, 1)
    }

    func testApprovalOfAnotherHashIsRefused() throws {
        let report = try ReviewedReport()
        let before = try report.goldens()
        let frame = try XCTUnwrap(report.failing("cards/a").first)
        try approvals([(frame.golden, "0123456789abcdef")]).write(to: report.dir.path("approvals.json"))
        let r = try CLI.run(["accept", "--approvals", "approvals.json", "--allow-ci"], in: report.dir.url)
        XCTAssertEqual(r.status, 2, r.output)
        XCTAssertTrue(r.stderr.contains("\(frame.golden): approved with golden hash 0123456789abcdef"), r.output)
        // The right hash, but the golden changed on disk since verify.
        let golden = report.dir.path("Goldens/" + frame.golden)
        try FileManager.default.removeItem(at: golden)
        try approvals([frame]).write(to: report.dir.path("approvals.json"))
        let removed = try CLI.run(["accept", "--approvals", "approvals.json", "--allow-ci"], in: report.dir.url)
        XCTAssertEqual(removed.status, 2, removed.output)
        XCTAssertTrue(removed.stderr.contains("Goldens/\(frame.golden) was removed since verify"), removed.output)
        var expected = before
        expected.removeValue(forKey: frame.golden)
        XCTAssertEqual(try report.goldens(), expected)
    }

    func testMalformedApprovalsNameFileAndPath() throws {
        let report = try ReviewedReport()
        try report.dir.write(
            "approvals.json",
            #"{"tool": "layoutsnap", "kind": "approvals", "version": 1, "approvals": [{"golden": 5}]}"#)
        let r = try CLI.run(["accept", "--approvals", "approvals.json", "--allow-ci"], in: report.dir.url)
        XCTAssertEqual(r.status, 2, r.output)
        XCTAssertTrue(r.stderr.contains("approvals.json:1:"), r.output)
        XCTAssertTrue(r.stderr.contains("$.approvals[0].golden: expected a string"), r.output)
        try report.dir.write("approvals.json", "{")
        let broken = try CLI.run(["accept", "--approvals", "approvals.json", "--allow-ci"], in: report.dir.url)
        XCTAssertEqual(broken.status, 2, broken.output)
        XCTAssertTrue(broken.stderr.contains("approvals.json:1:2: invalid JSON"), broken.output)
    }
}
