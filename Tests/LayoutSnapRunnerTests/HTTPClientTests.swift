import Foundation
import LayoutSnapSystem
import XCTest

@testable import LayoutSnapRunner

/// The remote cache's HTTP client against a server on loopback that answers each request with
/// the bytes a test gives, as servers in the field frame a response: a length, chunks, or the
/// connection's end; headers in any case with spaces around their values.
final class HTTPClientTests: XCTestCase {
    /// Answers the requests of one connection after another with `answers`, in turn, each after
    /// reading a request's head (and no more: the requests here have no body).
    final class CannedServer: @unchecked Sendable {
        let listener: Int32
        let port: UInt16
        let answers: [[UInt8]]
        private let done = DispatchSemaphore(value: 0)

        init(_ answers: [String]) throws {
            (listener, port) = try SystemCall.listenOnLoopback(port: 0)
            self.answers = answers.map { Array($0.utf8) }
            Thread.detachNewThread { [self] in
                var next = 0
                while next < self.answers.count, let fd = try? SystemCall.acceptConnection(listener) {
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
                        let answer = self.answers[next]
                        next += 1
                        _ = answer.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
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
