import Foundation
import LayoutSnapImaging
import LayoutSnapSystem
import LayoutSnapTestSupport
import XCTest

/// The shared result cache against a real server: Debian's nginx with WebDAV, configured as
/// Bazel's documentation configures it for its HTTP cache, started by the test on 127.0.0.1.
/// Then the server going away between runs, mid-run, and one that never answers.
final class RemoteCacheTests: XCTestCase {
    /// nginx serving `root` with PUT on a free loopback port, until `stop`.
    final class Nginx {
        let folder: URL
        let port: Int
        let process: TestProcess
        var url: String { "http://127.0.0.1:\(port)/cache" }
        var store: URL { folder.appendingPathComponent("store/cache") }
        /// What it holds under `/cache/ac/` and `/cache/cas/`.
        var ac: URL { store.appendingPathComponent("ac") }
        var cas: URL { store.appendingPathComponent("cas") }

        init(in dir: TempDir) throws {
            guard let nginx = TestTools.find(["nginx", "/usr/sbin/nginx"]) else {
                throw XCTSkip("nginx is not installed (bash .ci/install installs nginx-core)")
            }
            folder = dir.path("nginx")
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("store/cache"), withIntermediateDirectories: true)
            port = try Self.freePort()
            let f = folder.path
            let user = geteuid() == 0 ? "user root;" : ""
            let config = """
                daemon off; master_process off; worker_processes 1; \(user)
                pid \(f)/nginx.pid; error_log \(f)/error.log;
                events { worker_connections 64; }
                http {
                  log_format pipes '"$request" $status $pipe';
                  access_log \(f)/access.log pipes;
                  client_body_temp_path \(f)/body; proxy_temp_path \(f)/proxy; fastcgi_temp_path \(f)/fastcgi;
                  uwsgi_temp_path \(f)/uwsgi; scgi_temp_path \(f)/scgi;
                  server {
                    listen 127.0.0.1:\(port);
                    location /cache/ {
                      root \(f)/store;
                      dav_methods PUT;
                      create_full_put_path on;
                      client_max_body_size 64m;
                    }
                  }
                }
                """
            try Data(config.utf8).write(to: folder.appendingPathComponent("nginx.conf"))
            process = try TestProcess.start(nginx, ["-p", f, "-c", f + "/nginx.conf", "-e", f + "/error.log"])
            // Up when it answers.
            for _ in 0..<200 {
                if let fd = Self.connect(port) {
                    close(fd)
                    return
                }
                usleep(10_000)
            }
            process.signal(SIGKILL)
            throw XCTSkip("nginx did not start: \(process.outputSoFar)")
        }

        func stop() {
            process.signal(SIGKILL)
            _ = process.wait(timeout: 10)
        }

        /// Requests the server has answered so far, `GET /cache/cas/` and the like, one per line
        /// of its access log.
        func requests(_ method: String, _ kind: String) -> Int {
            let log = (try? String(contentsOf: folder.appendingPathComponent("access.log"), encoding: .utf8)) ?? ""
            return log.components(separatedBy: "\"\(method) /cache/\(kind)/").count - 1
        }

        /// `GET /cache/<kind>/` requests that came pipelined: written by the client before the
        /// answer to the one before them (nginx's `$pipe`).
        func pipelined(_ kind: String) -> Int {
            let log = (try? String(contentsOf: folder.appendingPathComponent("access.log"), encoding: .utf8)) ?? ""
            return log.split(separator: "\n").filter { $0.hasPrefix("\"GET /cache/\(kind)/") && $0.hasSuffix(" p") }
                .count
        }

        /// Files the server holds under `/cache/<kind>/`.
        func count(_ kind: String) -> Int {
            (try? FileManager.default.contentsOfDirectory(atPath: store.appendingPathComponent(kind).path).count) ?? 0
        }

        static func freePort() throws -> Int {
            let (fd, port) = try SystemCall.listenOnLoopback(port: 0)
            try SystemCall.close(fd)
            return Int(port)
        }

        static func connect(_ port: Int) -> Int32? {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
            let ok = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            if ok { return fd }
            close(fd)
            return nil
        }
    }

    /// `cards` small posts; `large`: a phone's full canvas at 3x and 60 fps, a fixture taking a
    /// tenth of a second or more, so a run lasts long enough to stop its server in the middle.
    func project(cards: Int = 3, large: Bool = false) throws -> TempDir {
        let dir = try TempDir()
        for n in 0..<cards {
            try dir.write(
                "Fixtures/cards/c\(n).json",
                large
                    ? #"{"kind": "post", "title": "Card \#(n)", "summary": "A summary", "body": "Body text", "author": "Ann", "steps": [{"expand": true}]}"#
                    : smallPost(title: "Card \(n)"))
        }
        let recorded = try CLI.run(["record", "--no-progress", "--allow-ci", "--no-cache"], in: dir.url)
        XCTAssertEqual(recorded.status, 0, recorded.output)
        return dir
    }

    func verify(_ dir: TempDir, _ extra: [String]) throws -> (status: Int32, output: String, cached: Int) {
        let r = try CLI.run(
            ["verify", "--no-progress", "--cache-audit", "0", "--json", "out.json"] + extra, in: dir.url)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.path("out.json"))) as! [String: Any]
        return (r.status, r.output, (json["summary"] as! [String: Any])["cached"] as! Int)
    }

    func testTheBazelHTTPProtocolOverNginxWebDAV() throws {
        let dir = try project()
        let server = try Nginx(in: dir)
        defer { server.stop() }
        let remoteOnly = ["--no-cache", "--remote-cache", server.url]

        // Cold: rendered, uploaded as an action result per fixture carrying the entry's bytes,
        // and the keys' memos as one more (`sharedPack`). The first was read back once: nginx
        // keeps the bytes, so no blob was put.
        let cold = try verify(dir, remoteOnly)
        XCTAssertEqual(cold.status, 0, cold.output)
        XCTAssertEqual(cold.cached, 0)
        XCTAssertEqual(server.count("ac"), 4)
        XCTAssertEqual(server.count("cas"), 0)
        XCTAssertEqual(server.requests("PUT", "cas"), 0)
        // Their keys, worked out from the fixtures decoded (no memo yet), were asked for at once:
        // the second and third lookups came with the first.
        XCTAssertEqual(server.pipelined("ac"), 2)
        // The bytes carried hash to the digest the result names, as Bazel's content-addressed
        // store names a blob.
        for name in try FileManager.default.contentsOfDirectory(atPath: server.ac.path) {
            let output = try XCTUnwrap(
                Self.inlineOutput(Data(contentsOf: server.ac.appendingPathComponent(name))), name)
            let sha = try TestProcess.run(
                URL(fileURLWithPath: "/usr/bin/sha256sum"), ["-"], stdin: Data(output.contents))
            XCTAssertTrue(sha.stdout.hasPrefix(output.hash), "\(name): \(sha.stdout) (\(output.contents.count) bytes)")
        }

        // Warm from the server alone (another machine, an empty local folder): a request a
        // fixture, the action result carrying the entry's bytes, and one for the memos; the
        // fixtures' three written at once, before the first answer (pipelined).
        let (acBefore, casBefore) = (server.requests("GET", "ac"), server.requests("GET", "cas"))
        let pipedBefore = server.pipelined("ac")
        let warm = try verify(dir, remoteOnly)
        XCTAssertEqual(warm.status, 0, warm.output)
        XCTAssertTrue(warm.output.contains("(\(warm.cached) from cache)"), warm.output)
        XCTAssertGreaterThan(warm.cached, 0)
        XCTAssertEqual(server.requests("GET", "ac") - acBefore, 4)
        XCTAssertEqual(server.requests("GET", "cas") - casBefore, 0)
        XCTAssertEqual(server.pipelined("ac") - pipedBefore, 2, "the second and third lookups came with the first")

        // With a local folder in front: the remote's hits are kept locally; then the server goes
        // away and the local folder answers without a word about the network.
        let local = try verify(dir, ["--remote-cache", server.url])
        XCTAssertEqual(local.cached, warm.cached, local.output)
        server.stop()
        let offline = try verify(dir, ["--remote-cache", server.url])
        XCTAssertEqual(offline.status, 0, offline.output)
        XCTAssertEqual(offline.cached, warm.cached, offline.output)
        XCTAssertFalse(offline.output.contains("remote cache"), offline.output)

        // The server alone, and it is gone: one warning, everything rendered, the same verdict.
        let gone = try verify(dir, remoteOnly)
        XCTAssertEqual(gone.status, 0, gone.output)
        XCTAssertEqual(gone.cached, 0)
        XCTAssertEqual(gone.output.components(separatedBy: "remote cache 127.0.0.1").count - 1, 1, gone.output)
        XCTAssertTrue(gone.output.contains("cannot connect"), gone.output)
    }

    /// With the remote store alone, what a local folder would remember of the machine (the
    /// goldens' file hashes, the libraries' versions) is the user's, as the fonts' hashes are,
    /// with each golden by its whole path, in a memo of this goldens folder's own (the one
    /// memo every project shared before is removed). A golden changed after it was remembered
    /// is read again: the verdict is a run's without any cache.
    func testWithoutALocalFolderTheMachinesMemosAreTheUsers() throws {
        let dir = try project(cards: 2)
        let server = try Nginx(in: dir)
        defer { server.stop() }
        let home = dir.path("home")
        let environment = ["XDG_CACHE_HOME": home.path]
        func run(_ extra: [String]) throws -> CLI.Result {
            try CLI.run(
                ["verify", "--no-progress", "--cache-audit", "0"] + extra, in: dir.url, environment: environment)
        }
        let remoteOnly = ["--no-cache", "--remote-cache", server.url]
        let userCache = home.appendingPathComponent("layoutsnap")
        try FileManager.default.createDirectory(at: userCache, withIntermediateDirectories: true)
        let shared = userCache.appendingPathComponent("golden-hashes-xxh3")
        try Data("old memo\n".utf8).write(to: shared)
        XCTAssertEqual(try run(remoteOnly).status, 0)
        // A file is remembered once it has been still for two seconds.
        Thread.sleep(forTimeInterval: 2.1)
        let warm = try run(remoteOnly)
        XCTAssertTrue(warm.output.contains("16 passed (16 from cache)"), warm.output)
        let memos = try FileManager.default.contentsOfDirectory(atPath: userCache.path + "/golden-hashes")
        XCTAssertEqual(memos.count, 1, "\(memos)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: shared.path), "the shared memo of old is removed")
        let memo = try String(
            contentsOf: userCache.appendingPathComponent("golden-hashes/" + (memos.first ?? "")), encoding: .utf8)
        let paths = memo.split(separator: "\n").map { line in String(line.drop { $0 != ":" }.dropFirst()) }
        XCTAssertEqual(paths.count, 16, memo)
        let goldens = try SystemCall.resolvedPath(dir.path("Goldens").path)
        XCTAssertTrue(paths.allSatisfy { $0.hasPrefix(goldens + "/") && $0.hasSuffix(".png") }, memo)
        XCTAssertTrue(FileManager.default.fileExists(atPath: home.appendingPathComponent("layoutsnap/libraries").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path(".layoutsnap/cache").path), "no local folder")

        // One golden's bytes become another frame's.
        let frames = try XCTUnwrap(
            FileManager.default.enumerator(atPath: dir.path("Goldens").path)?.compactMap { $0 as? String }
                .filter { $0.hasSuffix(".png") }.sorted())
        try FileManager.default.removeItem(at: dir.path("Goldens/" + frames[0]))
        try FileManager.default.copyItem(at: dir.path("Goldens/" + frames[1]), to: dir.path("Goldens/" + frames[0]))
        let edited = try run(remoteOnly)
        let uncached = try run(["--no-cache"])
        XCTAssertEqual(edited.status, 1, edited.output)
        XCTAssertEqual(edited.status, uncached.status)
        XCTAssertEqual(
            edited.stdout.split(separator: "\n").last.map {
                $0.replacingOccurrences(of: #" \(\d+ from cache\)"#, with: "", options: .regularExpression)
            },
            uncached.stdout.split(separator: "\n").last.map(String.init), edited.output)
    }

    /// `--remote-cache-upload never` reads and never writes (untrusted pull requests).
    func testReadOnlyUploadsNothing() throws {
        let dir = try project(cards: 2)
        let server = try Nginx(in: dir)
        defer { server.stop() }
        let run = try verify(dir, ["--no-cache", "--remote-cache", server.url, "--remote-cache-upload", "never"])
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertEqual(server.count("ac") + server.count("cas"), 0)
    }

    /// The server stops while the run goes: the lookups after it are misses with one warning,
    /// the run finishes with every fixture verified.
    func testAServerThatStopsMidRun() throws {
        let dir = try project(cards: 12, large: true)
        let server = try Nginx(in: dir)
        defer { server.stop() }
        let run = try TestProcess.start(
            CLI.binary,
            [
                "verify", "--no-progress", "--jobs", "1", "--no-cache", "--remote-cache", server.url, "--json",
                "out.json",
            ],
            in: dir.url)
        // Stopped once it has taken its first upload.
        let deadline = Date().addingTimeInterval(120)
        while server.count("ac") < 1 && Date() < deadline { usleep(200) }
        server.stop()
        let out = run.wait(timeout: 300)
        XCTAssertEqual(out.status, 0, out.output)
        XCTAssertLessThan(server.count("ac"), 12, "the server stopped before the run ended")
        XCTAssertTrue(out.output.contains("every later lookup is a miss"), out.output)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.path("out.json"))) as! [String: Any]
        XCTAssertEqual((json["fixtures"] as! [Any]).count, 12)
    }

    /// A server that takes the connection and never answers: the timeout, one warning, a pass.
    func testAServerThatNeverAnswers() throws {
        let dir = try project(cards: 2)
        // Listening, with a backlog that takes connections, and never accepting one.
        let (listener, port) = try SystemCall.listenOnLoopback(port: 0)
        defer { try? SystemCall.close(listener) }
        let started = Date()
        let run = try verify(
            dir, ["--no-cache", "--remote-cache", "http://127.0.0.1:\(port)", "--remote-cache-timeout", "0.3"])
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertTrue(run.output.contains("no answer in time"), run.output)
        XCTAssertLessThan(Date().timeIntervalSince(started), 60)
    }

    /// An action result without the entry's bytes inline (a server that drops them, another
    /// writer) is followed to its blob, and so is one whose inline bytes were edited (with a
    /// warning); a blob edited as well is a miss with a warning, and the verdict is the same.
    func testActionResultsWithoutInlineBytesOrWithEditedOnes() throws {
        let dir = try project(cards: 2)
        let server = try Nginx(in: dir)
        defer { server.stop() }
        let remoteOnly = ["--no-cache", "--remote-cache", server.url]
        XCTAssertEqual(try verify(dir, remoteOnly).status, 0)
        let (ac, cas) = (server.ac, server.cas)
        let results = try FileManager.default.contentsOfDirectory(atPath: ac.path)
        XCTAssertEqual(results.count, 3, "two results and the memos")
        // Each result's bytes as the blob it names, as another writer leaves them (nginx keeps
        // the bytes inline, so this run put no blob).
        try FileManager.default.createDirectory(at: cas, withIntermediateDirectories: true)
        var blobs: [(name: String, bytes: [UInt8])] = []
        var originals: [String: Data] = [:]
        for name in results {
            let message = try Data(contentsOf: ac.appendingPathComponent(name))
            originals[name] = message
            let output = try XCTUnwrap(Self.inlineOutput(message), "\(name) carries no bytes")
            blobs.append((output.hash, output.contents))
            try Data(output.contents).write(to: cas.appendingPathComponent(output.hash))
            try Data(Self.actionResult(hash: output.hash, size: output.contents.count)).write(
                to: ac.appendingPathComponent(name))
        }
        let casBefore = server.requests("GET", "cas")
        let followed = try verify(dir, remoteOnly)
        XCTAssertEqual(followed.status, 0, followed.output)
        XCTAssertTrue(
            followed.output.contains("\(followed.cached) passed (\(followed.cached) from cache)"), followed.output)
        XCTAssertGreaterThan(followed.cached, 0)
        XCTAssertEqual(server.requests("GET", "cas") - casBefore, 3, "each hit and the memos followed to its blob")

        // One inline byte edited in each: a warning, and each is followed to its blob.
        for (name, message) in originals {
            var edited = [UInt8](message)
            // The inline bytes are the message's last field.
            edited[edited.count - 2] ^= 0x01
            try Data(edited).write(to: ac.appendingPathComponent(name))
        }
        let casBeforeTampered = server.requests("GET", "cas")
        let tampered = try verify(dir, remoteOnly)
        XCTAssertEqual(tampered.status, 0, tampered.output)
        XCTAssertEqual(tampered.cached, followed.cached, tampered.output)
        XCTAssertTrue(tampered.output.contains("do not hash to its digest"), tampered.output)
        XCTAssertEqual(server.requests("GET", "cas") - casBeforeTampered, 3)

        // And the blobs edited too: a miss with a warning, rendered, the same pass.
        for blob in blobs {
            var edited = blob.bytes
            edited[edited.count / 2] ^= 0x01
            try Data(edited).write(to: cas.appendingPathComponent(blob.name))
        }
        let poisoned = try verify(dir, remoteOnly)
        XCTAssertEqual(poisoned.status, 0, poisoned.output)
        XCTAssertEqual(poisoned.cached, 0, poisoned.output)
        XCTAssertTrue(poisoned.output.contains("does not hash to its name"), poisoned.output)
    }

    /// The keys' memos travel with the results: a machine with an empty folder finds each
    /// fixture's key in the one shared pack of this build and environment, without decoding; a
    /// run that learnt nothing puts nothing back. A pack pointing every fixture at the first
    /// one's entry (a poisoned store) finds hashes that are not the others' goldens: they are
    /// rendered, the verdict holds, and the pack is put right.
    func testTheKeysMemosAreOneSharedPack() throws {
        let dir = try project()
        let server = try Nginx(in: dir)
        defer { server.stop() }
        let remoteOnly = ["--no-cache", "--remote-cache", server.url]
        let (ac, cas) = (server.ac, server.cas)
        XCTAssertEqual(try verify(dir, remoteOnly).status, 0)
        let header = Data("layoutsnap memo pack 1\n".utf8)
        /// The pack's action result and its memos, in the pack's order.
        func pack() throws -> (name: String, memos: [String], records: [String]) {
            let names = try FileManager.default.contentsOfDirectory(atPath: ac.path).filter {
                (try? Data(contentsOf: ac.appendingPathComponent($0)))?.range(of: header) != nil
            }
            XCTAssertEqual(names.count, 1, "one shared pack")
            let message = try Data(contentsOf: ac.appendingPathComponent(try XCTUnwrap(names.first)))
            var text = Substring(
                String(decoding: message[try XCTUnwrap(message.range(of: header)).lowerBound...], as: UTF8.self))
            text = text.dropFirst(header.count)
            var memos: [String] = []
            var records: [String] = []
            while text.hasPrefix("memo ") {
                let line = text.prefix(while: { $0 != "\n" }).split(separator: " ")
                text = text.dropFirst(line.joined(separator: " ").count + 1)
                let count = Int(line[2])!
                memos.append(String(line[1]))
                records.append(String(decoding: Array(text.utf8.prefix(count)), as: UTF8.self))
                text = Substring(String(decoding: Array(text.utf8.dropFirst(count + 1)), as: UTF8.self))
            }
            XCTAssertTrue(text.hasPrefix("end\n"), String(text.prefix(40)))
            return (names[0], memos, records)
        }
        let shared = try pack()
        XCTAssertEqual(shared.memos.count, 3, "one memo a fixture")
        XCTAssertTrue(shared.records.allSatisfy { $0.hasPrefix("layoutsnap key memo 1\nkey ") })

        let puts = server.requests("PUT", "ac")
        let warm = try verify(dir, remoteOnly)
        XCTAssertEqual(warm.cached, 24, "every frame of the three: \(warm.output)")
        XCTAssertEqual(server.requests("PUT", "ac"), puts, "a run that learnt no memo puts nothing")

        // Every memo names the first one's key, as a blob the action result points to.
        var poison = "layoutsnap memo pack 1\n"
        for memo in shared.memos { poison += "memo \(memo) \(shared.records[0].utf8.count)\n\(shared.records[0])\n" }
        let bytes = Array((poison + "end\n").utf8)
        let blob = try TestProcess.run(URL(fileURLWithPath: "/usr/bin/sha256sum"), ["-"], stdin: Data(bytes))
        let hash = String(blob.stdout.prefix(64))
        try FileManager.default.createDirectory(at: cas, withIntermediateDirectories: true)
        try Data(bytes).write(to: cas.appendingPathComponent(hash))
        try Data(Self.actionResult(hash: hash, size: bytes.count)).write(to: ac.appendingPathComponent(shared.name))
        let poisoned = try verify(dir, remoteOnly)
        XCTAssertEqual(poisoned.status, 0, poisoned.output)
        XCTAssertEqual(poisoned.cached, 8, "the first fixture's frames: \(poisoned.output)")
        XCTAssertEqual(try pack().records.sorted(), shared.records.sorted(), "put right")
        XCTAssertEqual(try verify(dir, remoteOnly).cached, 24)
    }

    /// Two checkouts of one project in two folders (a laptop's and a CI job's) share every entry
    /// and every memo: a key names a file as the fixture writes it, and a memo holds paths
    /// relative to the working folder. The second finds every fixture, the one with a picture
    /// too, and learns no memo, so it puts nothing back; without the pack, it works out the same
    /// keys.
    func testTwoCheckoutsShareEntriesAndMemos() throws {
        let first = try TempDir()
        try first.write("Fixtures/cards/plain.json", smallPost(title: "Plain"))
        try first.write(
            "Fixtures/cards/pictured.json",
            #"{"kind": "post", "title": "Pictured", "summary": "A picture", "image": {"path": "images/blue.png"}}"#)
        let picture = PixelImage(width: 30, height: 20, pixels: Array(repeating: 0xFF33_66CC, count: 600))
        try FileManager.default.createDirectory(
            at: first.path("Fixtures/cards/images"), withIntermediateDirectories: true)
        try Data(picture.encodePNG()).write(to: first.path("Fixtures/cards/images/blue.png"))
        let recorded = try CLI.run(["record", "--no-progress", "--allow-ci", "--no-cache"], in: first.url)
        XCTAssertEqual(recorded.status, 0, recorded.output)
        let second = try TempDir()
        for folder in ["Fixtures", "Goldens"] {
            try FileManager.default.copyItem(at: first.path(folder), to: second.path(folder))
        }
        let server = try Nginx(in: first)
        defer { server.stop() }
        let remoteOnly = ["--no-cache", "--remote-cache", server.url]
        XCTAssertEqual(try verify(first, remoteOnly).cached, 0)
        let puts = server.requests("PUT", "ac")
        // The first checkout's files gone: nothing of the second may lean on them.
        try FileManager.default.removeItem(at: first.path("Fixtures"))
        let other = try verify(second, remoteOnly)
        XCTAssertEqual(other.status, 0, other.output)
        XCTAssertGreaterThan(other.cached, 0)
        XCTAssertTrue(other.output.contains("\(other.cached) passed (\(other.cached) from cache)"), other.output)
        XCTAssertEqual(server.requests("PUT", "ac"), puts, "every memo came from the pack")

        // Without the pack, the second checkout works each key out itself: the same keys.
        let header = Data("layoutsnap memo pack 1\n".utf8)
        for name in try FileManager.default.contentsOfDirectory(atPath: server.ac.path)
        where try Data(contentsOf: server.ac.appendingPathComponent(name)).range(of: header) != nil {
            try FileManager.default.removeItem(at: server.ac.appendingPathComponent(name))
        }
        let decoded = try verify(second, remoteOnly)
        XCTAssertEqual(decoded.cached, other.cached, decoded.output)
        XCTAssertGreaterThan(server.requests("PUT", "ac"), puts, "the memos learnt, put back")
    }

    /// `ActionResult { output_files = 2: OutputFile { path = 1; digest = 2: Digest { hash = 1;
    /// size_bytes = 2 } } }`, as a writer that does not inline the bytes sends it.
    /// The digest an action result names and the bytes it carries inline (`OutputFile` 2 of
    /// `ActionResult`: digest 2 with hash 1, contents 5), read as protocol buffers are; nil
    /// for a message without both.
    static func inlineOutput(_ message: Data) -> (hash: String, contents: [UInt8])? {
        /// The length-delimited fields of `bytes`, by number; nil when it is not a message.
        func fields(_ bytes: ArraySlice<UInt8>) -> [Int: ArraySlice<UInt8>]? {
            var at = bytes.startIndex
            func varint() -> Int? {
                var value = 0
                var shift = 0
                while at < bytes.endIndex, shift < 64 {
                    let byte = bytes[at]
                    at += 1
                    value |= Int(byte & 0x7F) << shift
                    if byte < 0x80 { return value }
                    shift += 7
                }
                return nil
            }
            var found: [Int: ArraySlice<UInt8>] = [:]
            while at < bytes.endIndex {
                guard let tag = varint() else { return nil }
                switch tag & 7 {
                case 0: guard varint() != nil else { return nil }
                case 2:
                    guard let length = varint(), length <= bytes.endIndex - at else { return nil }
                    found[tag >> 3] = bytes[at..<at + length]
                    at += length
                default: return nil
                }
            }
            return found
        }
        guard let output = fields([UInt8](message)[...])?[2], let file = fields(output),
            let digest = file[2].flatMap(fields), let hash = digest[1], let contents = file[5]
        else { return nil }
        return (String(decoding: hash, as: UTF8.self), Array(contents))
    }

    static func actionResult(hash: String, size: Int) -> [UInt8] {
        func varint(_ value: Int) -> [UInt8] {
            var v = value
            var out: [UInt8] = []
            while v >= 0x80 {
                out.append(UInt8(v & 0x7F) | 0x80)
                v >>= 7
            }
            return out + [UInt8(v)]
        }
        func field(_ number: Int, _ payload: [UInt8]) -> [UInt8] {
            varint(number << 3 | 2) + varint(payload.count) + payload
        }
        let digest = field(1, Array(hash.utf8)) + [0x10] + varint(size)
        return field(2, field(1, Array("layoutsnap-result.json".utf8)) + field(2, digest))
    }
}
