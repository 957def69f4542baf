import Foundation
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
    }

    /// Answers the requests of one connection after another with `answers`, in turn, each after
    /// reading a request's head (and no more: the requests here have no body).
    final class CannedServer: @unchecked Sendable {
        let listener: Int32
        let port: UInt16
        let answers: [Answer]
        /// How many connections the server accepted.
        let connections = LockedValue(0)
        private let done = DispatchSemaphore(value: 0)

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
                    while next < self.answers.count {
                        // One request's head, then its answer; a closing answer ends the connection.
                        while pending.firstRange(of: Array("\r\n\r\n".utf8)) == nil {
                            var chunk = [UInt8](repeating: 0, count: 4096)
                            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                            guard n > 0 else { break }
                            pending += chunk[0..<n]
                        }
                        guard let end = pending.firstRange(of: Array("\r\n\r\n".utf8)) else { break }
                        pending.removeSubrange(..<end.upperBound)
                        let canned = self.answers[next]
                        let answer = canned.bytes
                        next += 1
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
}
