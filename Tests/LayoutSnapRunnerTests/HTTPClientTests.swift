import Foundation
import LayoutSnapCore
import LayoutSnapSystem
import XCTest

@testable import LayoutSnapRunner

/// The remote cache's HTTP client against a server on loopback that answers each request with
/// the bytes a test gives, as servers in the field frame a response: a length, chunks, or the
/// connection's end; headers in any case with spaces around their values.
final class HTTPClientTests: XCTestCase {
    /// What the server sends for one request.
    struct Answer {
        var bytes: [UInt8]
        /// Sent this many bytes at a time, with a pause between: the client reads a response
        /// that comes in pieces.
        var piece = Int.max
        /// Sent on the same connection without a request, this many milliseconds after the answer.
        var unasked: (milliseconds: UInt32, bytes: String)? = nil

        init(_ text: String, piece: Int = .max, unasked: (milliseconds: UInt32, bytes: String)? = nil) {
            bytes = Array(text.utf8)
            self.piece = piece
            self.unasked = unasked
        }

        init(bytes: [UInt8]) { self.bytes = bytes }

        /// A `GET /ac/` hit as the remote store writes it: an action result carrying `entry`.
        static func actionResult(carrying entry: [UInt8], closes: Bool = false) -> Answer {
            let body = ActionResult.encode(
                path: RemoteResultStore.outputPath, hash: SHA256.hex(of: entry), size: entry.count, contents: entry)
            let head = "HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\n" + (closes ? "Connection: close\r\n" : "")
            return Answer(bytes: Array((head + "\r\n").utf8) + body)
        }

        /// Reads the request and never answers it, holding the connection open until the
        /// server stops.
        static var silence: Answer {
            var answer = Answer("")
            answer.silent = true
            return answer
        }
        var silent = false
    }

    /// Answers the requests of one connection after another with `answers`, in turn, each after
    /// reading a request's head and its body (a PUT's, by its Content-Length).
    final class CannedServer: @unchecked Sendable {
        let listener: Int32
        let port: UInt16
        let answers: [Answer]
        /// How many connections the server accepted.
        let connections = LockedValue(0)
        /// The path of each request, in the order they came.
        let paths = LockedValue([String]())
        /// Each request's method and path (`PUT /ac/…`), in the order they came.
        let requests = LockedValue([String]())
        /// How many requests had come whole before the answer to the one before them was sent
        /// (pipelined).
        let pipelined = LockedValue(0)
        private let done = DispatchSemaphore(value: 0)
        private let released = DispatchSemaphore(value: 0)

        convenience init(_ answers: [String]) throws {
            try self.init(answers: answers.map { Answer($0) })
        }

        init(answers: [Answer]) throws {
            (listener, port) = try SystemCall.listenOnLoopback(port: 0)
            self.answers = answers
            Thread.detachNewThread { [self] in
                var next = 0
                while next < self.answers.count, let fd = try? SystemCall.acceptConnection(listener) {
                    self.connections.withLock { $0 += 1 }
                    var pending: [UInt8] = []
                    var answered = false
                    while next < self.answers.count {
                        // One request's head, then its answer; a closing answer ends the connection.
                        var received = false
                        while pending.firstRange(of: Array("\r\n\r\n".utf8)) == nil {
                            var chunk = [UInt8](repeating: 0, count: 4096)
                            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                            guard n > 0 else { break }
                            pending += chunk[0..<n]
                            received = true
                        }
                        guard let end = pending.firstRange(of: Array("\r\n\r\n".utf8)) else { break }
                        let requestLine = String(decoding: pending.prefix { $0 != 0x0D }, as: UTF8.self)
                        let words = requestLine.split(separator: " ")
                        self.paths.withLock { $0.append(String(words[1])) }
                        self.requests.withLock { $0.append("\(words[0]) \(words[1])") }
                        if answered && !received { self.pipelined.withLock { $0 += 1 } }
                        answered = true
                        // A body (a PUT's) is read and set aside.
                        let head = String(decoding: pending[..<end.lowerBound], as: UTF8.self).lowercased()
                        let length =
                            head.components(separatedBy: "\r\n").compactMap { line -> Int? in
                                guard line.hasPrefix("content-length:") else { return nil }
                                return Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
                            }.first ?? 0
                        while pending.count < end.upperBound + length {
                            var chunk = [UInt8](repeating: 0, count: 4096)
                            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                            guard n > 0 else { break }
                            pending += chunk[0..<n]
                        }
                        pending.removeSubrange(..<min(pending.count, end.upperBound + length))
                        let canned = self.answers[next]
                        let answer = canned.bytes
                        next += 1
                        if canned.silent {
                            self.released.wait()
                            break
                        }
                        var sent = 0
                        while sent < answer.count {
                            let piece = answer[sent..<min(answer.count, sent + canned.piece)]
                            _ = piece.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                            sent += piece.count
                            if sent < answer.count { usleep(300) }
                        }
                        if let (milliseconds, text) = canned.unasked {
                            usleep(milliseconds * 1000)
                            _ = Array(text.utf8).withUnsafeBytes {
                                send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                            }
                        }
                        if String(decoding: answer, as: UTF8.self).lowercased().contains("connection: close")
                            || !String(decoding: answer, as: UTF8.self).lowercased().contains("content-length")
                                && !String(decoding: answer, as: UTF8.self).lowercased().contains("chunked")
                        {
                            break
                        }
                    }
                    close(fd)
                }
                self.done.signal()
            }
        }

        var client: HTTPClient {
            HTTPClient(
                endpoint: HTTPClient.Endpoint(host: "127.0.0.1", port: port, path: ""), headers: [],
                timeout: 2000, maxBody: 1 << 20)
        }

        func stop() {
            released.signal()
            _ = done.wait(timeout: .now() + 5)
            close(listener)
        }
    }

    func testResponsesFramedEveryWayReadAlike() throws {
        let server = try CannedServer([
            "HTTP/1.1 200 OK\r\ncOnTeNt-LeNgTh:   5 \r\nX-Other: a:b\r\n\r\nhello",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding:\tChunked\r\n\r\n3;ext=1\r\nhel\r\n2\r\nlo\r\n0\r\nTrailer: x\r\n\r\n",
            "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: Close\r\n\r\n",
            "HTTP/1.0 200 OK\r\n\r\nhello",
        ])
        defer { server.stop() }
        let client = server.client
        for (n, expected) in [(200, "hello"), (200, "hello"), (404, ""), (200, "hello")].enumerated() {
            let response = try client.send("GET", "/ac/\(n)")
            XCTAssertEqual(response.status, expected.0, "answer \(n)")
            XCTAssertEqual(String(decoding: response.body, as: UTF8.self), expected.1, "answer \(n)")
        }
    }

    /// A response in pieces of a few bytes, headers and chunks split anywhere, reads as one.
    func testResponsesInPiecesReadAlike() throws {
        let answers = [
            "HTTP/1.1 200 OK\r\ncontent-length: 11\r\n\r\nhello world",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 11\r\nConnection: close\r\n\r\nhello world",
        ]
        for piece in [1, 3, 7] {
            let server = try CannedServer(answers: answers.map { Answer($0, piece: piece) })
            defer { server.stop() }
            let client = server.client
            for n in answers.indices {
                let response = try client.send("GET", "/cas/\(n)")
                XCTAssertEqual(response.status, 200, "answer \(n) in pieces of \(piece)")
                XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "hello world", "answer \(n), \(piece)")
            }
            // The first two kept the connection; the third closed it.
            XCTAssertEqual(server.connections.withLock { $0 }, 1, "pieces of \(piece)")
        }
    }

    /// Bytes after an answer were not asked for: they are never read as the next request's
    /// answer. A connection with bytes left after the response is not kept, and a kept one on
    /// which bytes arrive later is not used again.
    func testBytesNobodyAskedForAreNeverAnAnswer() throws {
        let stale = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nSTALE"
        let late = try CannedServer(answers: [
            Answer("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfirst", unasked: (milliseconds: 50, bytes: stale)),
            Answer("HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nsecond"),
        ])
        defer { late.stop() }
        let client = late.client
        XCTAssertEqual(String(decoding: try client.send("GET", "/ac/1").body, as: UTF8.self), "first")
        usleep(300_000)
        XCTAssertEqual(String(decoding: try client.send("GET", "/ac/2").body, as: UTF8.self), "second")
        XCTAssertEqual(late.connections.withLock { $0 }, 2)

        let extra = try CannedServer([
            "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfirst" + stale,
            "HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nsecond",
        ])
        defer { extra.stop() }
        let again = extra.client
        XCTAssertEqual(String(decoding: try again.send("GET", "/ac/1").body, as: UTF8.self), "first")
        XCTAssertEqual(String(decoding: try again.send("GET", "/ac/2").body, as: UTF8.self), "second")
        XCTAssertEqual(extra.connections.withLock { $0 }, 2)
    }

    func testBadFramingIsAFailureNamedSo() throws {
        let cases: [(String, String)] = [
            ("HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\n", "a bad Content-Length"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 5x\r\n\r\n", "a bad Content-Length"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "a bad chunk size"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 2000000\r\n\r\n", "the response is too large"),
            (
                "HTTP/1.1 200 OK\r\nX: " + String(repeating: "a", count: 9000) + "\r\n\r\n",
                "a response line is too long"
            ),
            ("SSH-2.0-OpenSSH\r\n\r\n", "not an HTTP response"),
        ]
        for (answer, expected) in cases {
            let server = try CannedServer([answer])
            defer { server.stop() }
            do {
                let response = try server.client.send("GET", "/ac/x")
                XCTFail("\(expected): answered \(response.status)")
            } catch {
                XCTAssertTrue(error.description.contains(expected), "\(expected): \(error.description)")
            }
        }
    }

    /// Requests written at once on one connection (pipelined) are answered in order, framed each
    /// way, and the connection is kept for the next request.
    func testPipelinedRequestsAreAnsweredInOrder() throws {
        let server = try CannedServer([
            "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\none",
            "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nthree\r\n0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nfour",
        ])
        defer { server.stop() }
        let client = server.client
        let (answers, failure) = client.pipeline(["/ac/1", "/ac/2", "/ac/3"])
        XCTAssertNil(failure)
        XCTAssertEqual(answers.map(\.status), [200, 404, 200])
        XCTAssertEqual(answers.map { String(decoding: $0.body, as: UTF8.self) }, ["one", "", "three"])
        XCTAssertEqual(String(decoding: try client.send("GET", "/ac/4").body, as: UTF8.self), "four")
        XCTAssertEqual(server.connections.withLock { $0 }, 1)
        XCTAssertEqual(server.paths.withLock { $0 }, ["/ac/1", "/ac/2", "/ac/3", "/ac/4"])
        // The second and third came with the first, before its answer.
        XCTAssertEqual(server.pipelined.withLock { $0 }, 2)
    }

    /// A server that closes the connection after some of a pipeline's answers: those come, the
    /// failure says how many, and the rest are asked again on a new connection. Requests with
    /// long headers go fewer at a time, within what one write may hold.
    func testAPipelineCutShortAndOneOfLongRequests() throws {
        let server = try CannedServer([
            "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\none",
            "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nConnection: close\r\n\r\ntwo",
            "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nthree",
        ])
        defer { server.stop() }
        let client = server.client
        let (first, failure) = client.pipeline(["/ac/1", "/ac/2", "/ac/3"])
        XCTAssertEqual(first.map { String(decoding: $0.body, as: UTF8.self) }, ["one", "two"])
        XCTAssertTrue(
            failure?.description.contains("after 2 of 3 pipelined requests") == true, "\(String(describing: failure))")
        XCTAssertEqual(failure?.noAnswer, false)
        let (rest, none) = client.pipeline(["/ac/3"])
        XCTAssertNil(none)
        XCTAssertEqual(rest.map { String(decoding: $0.body, as: UTF8.self) }, ["three"])
        XCTAssertEqual(server.connections.withLock { $0 }, 2)

        let long = try CannedServer((1...4).map { "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n\($0)" })
        defer { long.stop() }
        let header = String(repeating: "a", count: 5000)
        let withHeader = HTTPClient(
            endpoint: HTTPClient.Endpoint(host: "127.0.0.1", port: long.port, path: ""), headers: [("X-Long", header)],
            timeout: 2000, maxBody: 1 << 20)
        let (three, noFailure) = withHeader.pipeline((1...10).map { "/ac/\($0)" }[...])
        XCTAssertNil(noFailure)
        XCTAssertEqual(three.count, HTTPClient.maxPipelinedBytes / 5100, "requests of some 5 kB each")
        let (fourth, _) = withHeader.pipeline(["/ac/4"])
        XCTAssertEqual(fourth.map { String(decoding: $0.body, as: UTF8.self) }, ["4"])
    }

    /// The remote store asks for the action results of a run's keys ahead, pipelined; each
    /// lookup takes its own answer, those a server cut short included (asked again), and a
    /// lookup of a key not asked ahead asks for itself.
    func testLookupsAskedAheadTakeTheirOwnAnswers() throws {
        let entries = (0..<4).map { Array("entry \($0)".utf8) }
        let keys = (0..<4).map { ResultKey(hex: SHA256.hex(of: Array("key \($0)".utf8))) }
        func actionResult(_ i: Int, closes: Bool = false) -> Answer {
            Answer.actionResult(carrying: entries[i], closes: closes)
        }
        let server = try CannedServer(answers: [
            actionResult(0), actionResult(1, closes: true), actionResult(2), actionResult(3),
        ])
        defer { server.stop() }
        let store = try RemoteResultStore(url: "http://127.0.0.1:\(server.port)", timeoutMilliseconds: 2000)
        store.prefetch(Array(keys[0..<3]) + [keys[1]])
        for i in [2, 0, 1] { XCTAssertEqual(store.get(keys[i]), entries[i], "key \(i)") }
        XCTAssertEqual(server.paths.withLock { $0 }, keys[0..<3].map { "/ac/\($0.hex)" }, "each key asked once")
        XCTAssertEqual(server.pipelined.withLock { $0 }, 1, "the second came with the first")
        XCTAssertEqual(store.get(keys[3]), entries[3])
        XCTAssertEqual(server.paths.withLock { $0 }.last, "/ac/\(keys[3].hex)")
        XCTAssertEqual(server.connections.withLock { $0 }, 2)
        XCTAssertEqual(store.problems, [])

        // A server that closes a pipelined connection before any answer: each lookup asks for
        // itself, and nothing is wrong with the run.
        let closing = try CannedServer(answers: [Answer(""), actionResult(0), actionResult(1)])
        defer { closing.stop() }
        let again = try RemoteResultStore(url: "http://127.0.0.1:\(closing.port)", timeoutMilliseconds: 2000)
        again.prefetch(Array(keys[0..<2]))
        XCTAssertEqual(again.get(keys[0]), entries[0])
        XCTAssertEqual(again.get(keys[1]), entries[1])
        XCTAssertEqual(closing.connections.withLock { $0 }, 2)
        XCTAssertEqual(again.problems, [])
    }

    /// A run without a local folder (or whose folder holds none of the generation's packs) has
    /// the shared pack of remembered keys asked for as soon as its cache opens, before its first
    /// lookup, and reads its memos from that answer; a folder that holds a pack asks nothing.
    func testTheSharedPackIsAskedAheadWhenNoLocalPackHoldsTheMemos() throws {
        let memo = ResultKey(hex: String(repeating: "a", count: 64))
        let record = KeyMemo(key: ResultKey(hex: String(repeating: "b", count: 64)), inputs: []).encoded()
        let pack = MemoPacks.encoded([(memo.hex, record)])
        let server = try CannedServer(answers: [.actionResult(carrying: pack)])
        defer { server.stop() }
        let remote = try RemoteResultStore(url: "http://127.0.0.1:\(server.port)", timeoutMilliseconds: 2000)
        let generation = "5555555555555555"
        let key = MemoPacks.Shared.key(generation: String(repeating: "5", count: 64))
        let shared = MemoPacks.Shared(store: remote, key: key)

        let folder = NSTemporaryDirectory() + "memos-ahead-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(MemoPacks.encoded([(memo.hex, record)])).write(
            to: URL(fileURLWithPath: folder + "/\(generation)-1-1-1"))
        MemoPacks(folder: folder, generation: generation, shared: shared).askAheadForShared()
        usleep(200_000)
        XCTAssertEqual(server.paths.withLock { $0 }, [], "a folder with the generation's pack asks nothing")

        let packs = MemoPacks(folder: nil, generation: generation, shared: shared)
        packs.askAheadForShared()
        let deadline = Date().addingTimeInterval(5)
        while server.paths.withLock({ $0 }).isEmpty && Date() < deadline { usleep(1000) }
        XCTAssertEqual(server.paths.withLock { $0 }, ["/ac/\(key.hex)"], "asked before any lookup")
        XCTAssertEqual(packs.record(memo), record)
        XCTAssertEqual(server.paths.withLock { $0 }.count, 1, "the answer asked ahead was the one read")
    }

    /// Interim answers (103 Early Hints, 100 Continue) before a request's answer are skipped,
    /// in a pipeline too: the answer read is the request's own.
    func testInterimAnswersAreSkipped() throws {
        let server = try CannedServer([
            "HTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\none",
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\ntwo",
            "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nthree",
        ])
        defer { server.stop() }
        let client = server.client
        XCTAssertEqual(String(decoding: try client.send("GET", "/ac/1").body, as: UTF8.self), "one")
        let (answers, failure) = client.pipeline(["/ac/2", "/ac/3"])
        XCTAssertNil(failure)
        XCTAssertEqual(answers.map { String(decoding: $0.body, as: UTF8.self) }, ["two", "three"])
    }

    /// A server that answers the first of the lookups asked ahead and then goes silent: the
    /// store is down after one timeout, with one warning, and no lookup waits longer.
    func testAServerThatStopsAnsweringAPipelineIsDownAfterOneTimeout() throws {
        let entries = (0..<3).map { Array("entry \($0)".utf8) }
        let keys = (0..<3).map { ResultKey(hex: SHA256.hex(of: Array("key \($0)".utf8))) }
        let server = try CannedServer(answers: [.actionResult(carrying: entries[0]), .silence])
        defer { server.stop() }
        let store = try RemoteResultStore(url: "http://127.0.0.1:\(server.port)", timeoutMilliseconds: 1000)
        let started = Date()
        store.prefetch(keys)
        XCTAssertEqual(store.get(keys[0]), entries[0])
        XCTAssertNil(store.get(keys[1]))
        XCTAssertNil(store.get(keys[2]))
        // Asking the rest again on a new connection would wait a second timeout.
        XCTAssertLessThan(Date().timeIntervalSince(started), 1.8, "one timeout, not one a lookup")
        XCTAssertEqual(store.problems.count, 1, "\(store.problems)")
        XCTAssertTrue(store.problems.first?.contains("no answer in time") == true, "\(store.problems)")
        XCTAssertEqual(server.connections.withLock { $0 }, 1)
    }

    /// An entry's bytes go inline in its action result. The run's first upload is read back
    /// once: a server that gives it back without them (one that drops inline bytes), with
    /// other bytes, or answers with an error gets that entry's blob and every later one's,
    /// which its readers follow the results to; a server that keeps them gets no blob. An entry
    /// too large to go inline always gets its blob, first. (Uploads waiting for the reading
    /// back: RemoteCacheTests, whose nginx gets four at once and no blob.)
    func testBlobsAreUploadedOnlyToAServerThatDropsInlineBytes() throws {
        var entries = (0..<2).map { Array("entry \($0)".utf8) }
        let hashes = entries.map { SHA256.hex(of: $0) }
        let keys = (0..<2).map { ResultKey(hex: SHA256.hex(of: Array("key \($0)".utf8))) }
        let created = Answer("HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n")
        let stripped = ActionResult.encode(
            path: RemoteResultStore.outputPath, hash: hashes[0], size: entries[0].count)
        /// The requests a server answering `answers` gets for the two uploads.
        func requests(answering answers: [Answer]) throws -> [String] {
            let server = try CannedServer(answers: answers)
            defer { server.stop() }
            let store = try RemoteResultStore(url: "http://127.0.0.1:\(server.port)", timeoutMilliseconds: 2000)
            // One after the other: uploads go several at a time, and this server answers one
            // connection at a time.
            for i in 0..<2 {
                store.put(keys[i], entries[i])
                store.finish()
            }
            XCTAssertEqual(store.problems, [])
            XCTAssertEqual(store.uploads, 2)
            return server.requests.withLock { $0 }
        }
        let dropping = Answer(
            bytes: Array("HTTP/1.1 200 OK\r\nContent-Length: \(stripped.count)\r\n\r\n".utf8) + stripped)
        let failing = Answer("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n")
        let blobs = [
            "PUT /ac/\(keys[0].hex)", "GET /ac/\(keys[0].hex)", "PUT /cas/\(hashes[0])",
            "PUT /cas/\(hashes[1])", "PUT /ac/\(keys[1].hex)",
        ]
        for readBack in [dropping, failing, .actionResult(carrying: entries[1])] {
            XCTAssertEqual(try requests(answering: [created, readBack, created, created, created]), blobs)
        }
        XCTAssertEqual(
            try requests(answering: [created, .actionResult(carrying: entries[0]), created]),
            ["PUT /ac/\(keys[0].hex)", "GET /ac/\(keys[0].hex)", "PUT /ac/\(keys[1].hex)"])

        entries[0] = Array(repeating: 0x61, count: RemoteResultStore.maxInlineBytes + 1)
        XCTAssertEqual(
            try requests(answering: [created, created, created, .actionResult(carrying: entries[1])]),
            [
                "PUT /cas/\(SHA256.hex(of: entries[0]))", "PUT /ac/\(keys[0].hex)", "PUT /ac/\(keys[1].hex)",
                "GET /ac/\(keys[1].hex)",
            ])
    }

    /// Uploads that come one after another, as a cold run's do (a fixture's rendering apart),
    /// go on one thread that waits for the next, not on a thread each (a cold run of the bundled
    /// suite started 71); the thread ends once none comes. Uploads that come at once, with no
    /// thread idle, get a thread each up to the bound.
    func testUploadsOneAfterAnotherShareAThread() throws {
        let keys = (0..<6).map { ResultKey(hex: SHA256.hex(of: Array("key \($0)".utf8))) }
        /// Adds `keys` one at a time, each once the one before is taken and its thread idle;
        /// returns how many threads were started.
        func oneAfterAnother(_ queue: UploadQueue, _ ended: DispatchSemaphore) -> (started: Int, taken: [String]) {
            let taken = LockedValue<[String]>([])
            var started = 0
            for (i, key) in keys.enumerated() {
                if queue.add(key, [1], threadsAtMost: 4) {
                    started += 1
                    Thread.detachNewThread {
                        while let (next, _) = queue.next() { taken.withLock { $0.append(next.hex) } }
                        ended.signal()
                    }
                }
                let deadline = Date(timeIntervalSinceNow: 5)
                while taken.withLock({ $0.count }) <= i || queue.idleThreads == 0, Date() < deadline {
                    usleep(1000)
                }
            }
            return (started, taken.withLock { $0 })
        }
        // Idle for a minute at most: a loaded machine's pauses do not end the thread early.
        let patient = UploadQueue(idleMilliseconds: 60_000)
        let (started, taken) = oneAfterAnother(patient, DispatchSemaphore(value: 0))
        XCTAssertEqual(started, 1)
        XCTAssertEqual(taken, keys.map(\.hex))

        let brief = UploadQueue(idleMilliseconds: 50)
        let ended = DispatchSemaphore(value: 0)
        _ = brief.add(keys[0], [1], threadsAtMost: 4)
        Thread.detachNewThread {
            while brief.next() != nil {}
            ended.signal()
        }
        XCTAssertEqual(ended.wait(timeout: .now() + .seconds(10)), .success, "the idle thread ends")
        XCTAssertEqual(brief.idleThreads, 0)

        var burst = 0
        for key in keys where brief.add(key, [1], threadsAtMost: 4) { burst += 1 }
        XCTAssertEqual(burst, 4)
    }

    /// An answer asked ahead and dropped (the memo pack read anew at the run's end) is not the
    /// next lookup's: it asks the server again.
    func testAnAnswerDroppedIsAskedForAgain() throws {
        let entries = [Array("old".utf8), Array("new".utf8)]
        let key = ResultKey(hex: SHA256.hex(of: Array("key".utf8)))
        let server = try CannedServer(
            answers: entries.map { .actionResult(carrying: $0) })
        defer { server.stop() }
        let store = try RemoteResultStore(url: "http://127.0.0.1:\(server.port)", timeoutMilliseconds: 2000)
        store.prefetch([key])
        store.dropAhead(key)
        XCTAssertEqual(store.get(key), entries[1])
        XCTAssertEqual(server.paths.withLock { $0 }.count, 2)
    }
}
