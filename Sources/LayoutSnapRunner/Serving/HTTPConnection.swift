import Foundation
import LayoutSnapSystem

/// One HTTP/1.1 request's head: what `review` needs of it, bounded in size.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The request target as sent (`/diff/a.png?x=1`).
    public var target: String
    /// Header values by lowercased name (repeated headers joined with ", ", cookies with "; ").
    public var headers: [String: String]

    /// The target's path, still percent-encoded.
    public var path: String { String(target.prefix { $0 != "?" }) }

    /// The query's parameters, decoded.
    public var query: [String: String] {
        guard let mark = target.firstIndex(of: "?") else { return [:] }
        var result: [String: String] = [:]
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard let name = parts.first.flatMap({ String($0).removingPercentEncoding }) else { continue }
            result[name] =
                parts.count > 1 ? String(parts[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding : ""
        }
        return result
    }

    /// A cookie's value.
    public func cookie(_ name: String) -> String? {
        for pair in (headers["cookie"] ?? "").split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }
}

/// A response's status line.
public struct HTTPStatus: Sendable, Equatable {
    public var code: Int
    public var reason: String

    public static let ok = HTTPStatus(code: 200, reason: "OK")
    public static let badRequest = HTTPStatus(code: 400, reason: "Bad Request")
    public static let forbidden = HTTPStatus(code: 403, reason: "Forbidden")
    public static let notFound = HTTPStatus(code: 404, reason: "Not Found")
    public static let methodNotAllowed = HTTPStatus(code: 405, reason: "Method Not Allowed")
    public static let requestTimeout = HTTPStatus(code: 408, reason: "Request Timeout")
    public static let lengthRequired = HTTPStatus(code: 411, reason: "Length Required")
    public static let payloadTooLarge = HTTPStatus(code: 413, reason: "Payload Too Large")
    public static let headersTooLarge = HTTPStatus(code: 431, reason: "Request Header Fields Too Large")
    public static let serverError = HTTPStatus(code: 500, reason: "Internal Server Error")
    public static let unavailable = HTTPStatus(code: 503, reason: "Service Unavailable")
}

/// A request that cannot be answered as asked: the status to answer with, and why.
public struct HTTPFailure: Error, Sendable {
    public var status: HTTPStatus
    public var message: String

    public init(_ status: HTTPStatus, _ message: String) {
        self.status = status
        self.message = message
    }
}

/// One accepted connection: reads one request within a deadline (a client that sends slowly or
/// stops halfway is cut off, never waited for), writes one response, and closes (`Connection:
/// close`: no keep-alive to bound). Owned by the one thread that serves it.
public final class HTTPConnection {
    /// The longest request head read (request line and headers).
    public static let maxHeadBytes = 16 << 10
    public static let maxHeaders = 100

    public let fd: Int32
    private let deadline: DispatchTime
    /// Bytes read past the head: the start of the body.
    private var buffered: [UInt8] = []
    /// The body was left unread: the peer may still be sending it.
    private var unreadBody = false
    private var closed = false

    public init(fd: Int32, readTimeout: Double) {
        self.fd = fd
        deadline = .now() + readTimeout
    }

    deinit { close() }

    /// Milliseconds left before the deadline (0 once past it).
    private var millisecondsLeft: Int32 {
        let now = DispatchTime.now().uptimeNanoseconds
        let end = deadline.uptimeNanoseconds
        return end > now ? Int32(min((end - now) / 1_000_000 + 1, UInt64(Int32.max))) : 0
    }

    /// Reads what arrives next, at most `limit` bytes; nil at the end of the stream.
    private func receive(limit: Int) throws(HTTPFailure) -> [UInt8]? {
        guard (try? SystemCall.wait(fd, for: Int16(POLLIN), milliseconds: millisecondsLeft)) == true else {
            throw HTTPFailure(.requestTimeout, "the request did not arrive in time")
        }
        var chunk = [UInt8](repeating: 0, count: max(1, min(limit, 64 << 10)))
        let n: Int
        do {
            n = try chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemError) in try SystemCall.receive(fd, into: buffer) }
            }.get()
        } catch {
            throw HTTPFailure(.badRequest, "the connection failed: \(error.reason)")
        }
        return n == 0 ? nil : Array(chunk[0..<n])
    }

    /// Reads and parses the request head.
    public func readHead() throws(HTTPFailure) -> HTTPRequest {
        var bytes: [UInt8] = []
        let separator: [UInt8] = [13, 10, 13, 10]
        var end: Int?
        while end == nil {
            guard let chunk = try receive(limit: Self.maxHeadBytes + 4 - bytes.count) else {
                throw HTTPFailure(.badRequest, "the connection closed before the request's end")
            }
            let searchFrom = max(0, bytes.count - 3)
            bytes += chunk
            end = Self.find(separator, in: bytes, from: searchFrom)
            if end == nil && bytes.count > Self.maxHeadBytes {
                throw HTTPFailure(.headersTooLarge, "the request's head is longer than \(Self.maxHeadBytes) bytes")
            }
        }
        let headEnd = end!
        buffered = Array(bytes[(headEnd + 4)...])
        guard let text = String(validating: bytes[0..<headEnd], as: UTF8.self) else {
            throw HTTPFailure(.badRequest, "the request's head is not UTF-8")
        }
        var lines = text.components(separatedBy: "\r\n")
        let words = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard words.count == 3, words[2].hasPrefix("HTTP/1."), !words[0].isEmpty, words[1].hasPrefix("/") else {
            throw HTTPFailure(.badRequest, "not an HTTP/1.1 request line with a path")
        }
        guard lines.count <= Self.maxHeaders else {
            throw HTTPFailure(.headersTooLarge, "more than \(Self.maxHeaders) headers")
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex, !line.first!.isWhitespace else {
                throw HTTPFailure(.badRequest, "a header line without a name: \(line.prefix(80))")
            }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if let earlier = headers[name] {
                headers[name] = earlier + (name == "cookie" ? "; " : ", ") + value
            } else {
                headers[name] = value
            }
        }
        let request = HTTPRequest(method: String(words[0]), target: String(words[1]), headers: headers)
        unreadBody =
            request.headers["content-length"].map { $0 != "0" } ?? false || request.headers["transfer-encoding"] != nil
        return request
    }

    /// Reads the body `Content-Length` announces, refusing more than `limit` bytes before reading any.
    public func readBody(of request: HTTPRequest, limit: Int) throws(HTTPFailure) -> [UInt8] {
        if request.headers["transfer-encoding"] != nil {
            throw HTTPFailure(.lengthRequired, "send the body with a Content-Length, not chunked")
        }
        guard let text = request.headers["content-length"] else {
            throw HTTPFailure(.lengthRequired, "a body needs a Content-Length")
        }
        guard let length = Int(text), length >= 0 else {
            throw HTTPFailure(.badRequest, "Content-Length is not a number: \(text)")
        }
        guard length <= limit else {
            throw HTTPFailure(.payloadTooLarge, "the body is \(length) bytes; at most \(limit) are read")
        }
        var body = Array(buffered.prefix(length))
        while body.count < length {
            guard let chunk = try receive(limit: length - body.count) else {
                throw HTTPFailure(.badRequest, "the connection closed before the body's end")
            }
            body += chunk
        }
        unreadBody = false
        return body
    }

    /// Sends a whole response and closes.
    public func respond(_ status: HTTPStatus, headers: [(String, String)] = [], body: [UInt8]) {
        _ = send(head(status, headers: headers + [("Content-Length", "\(body.count)")]) + body)
        close()
    }

    /// Sends a response whose body is `size` bytes read from `file` (closed after), and closes.
    public func respond(_ status: HTTPStatus, headers: [(String, String)], file: Int32, size: Int) {
        defer { try? SystemCall.close(file) }
        guard send(head(status, headers: headers + [("Content-Length", "\(size)")])) else { return close() }
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var sent = 0
        while sent < size {
            guard
                let n = try? chunk.withUnsafeMutableBytes({ buffer in
                    Result { () throws(SystemError) in try Posix.read(file, into: buffer) }
                }).get(), n > 0,
                send(Array(chunk[0..<min(n, size - sent)]))
            else { break }
            sent += n
        }
        close()
    }

    /// Starts a response that stays open (server-sent events): the head only.
    public func startStream(_ status: HTTPStatus, headers: [(String, String)]) -> Bool {
        send(head(status, headers: headers))
    }

    /// Sends bytes; false once the peer is gone.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        guard !closed else { return false }
        return
            (try? bytes.withUnsafeBytes { buffer in
                Result { () throws(SystemError) in try SystemCall.sendAll(fd, buffer) }
            }.get()) != nil
    }

    private func head(_ status: HTTPStatus, headers: [(String, String)]) -> [UInt8] {
        var text = "HTTP/1.1 \(status.code) \(status.reason)\r\n"
        for (name, value) in headers + [("Connection", "close")] { text += "\(name): \(value)\r\n" }
        return Array((text + "\r\n").utf8)
    }

    /// Closes the connection. A body left unread is drained for a moment first: closing a socket
    /// with unread data resets it, and the client would lose the answer (a 413) it was sent.
    public func close() {
        guard !closed else { return }
        closed = true
        if unreadBody {
            SystemCall.shutdownWriting(fd)
            let until = DispatchTime.now() + 1
            var drained = 0
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            while drained < 8 << 20, DispatchTime.now() < until,
                (try? SystemCall.wait(fd, for: Int16(POLLIN), milliseconds: 200)) == true,
                let n = try? chunk.withUnsafeMutableBytes({ buffer in
                    Result { () throws(SystemError) in try SystemCall.receive(fd, into: buffer) }
                }).get(), n > 0
            {
                drained += n
            }
        }
        try? SystemCall.close(fd)
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var i = start
        while i + needle.count <= haystack.count {
            if haystack[i] == needle[0], Array(haystack[i..<(i + needle.count)]) == needle { return i }
            i += 1
        }
        return nil
    }
}

/// Accepts connections on 127.0.0.1 and serves each on a thread of its own, at most
/// `maxConnections` at once (one more is answered 503 at once), until `stop` says so.
public final class HTTPServer: Sendable {
    public let port: UInt16
    private let listener: Int32
    public let maxConnections: Int
    public let readTimeout: Double
    private let active = LockedValue(0)

    public init(port: UInt16, maxConnections: Int = 32, readTimeout: Double = 10) throws(RunnerError) {
        do {
            (listener, self.port) = try SystemCall.listenOnLoopback(port: port)
        } catch {
            throw RunnerError.usage("cannot listen on 127.0.0.1:\(port): \(error.reason)")
        }
        self.maxConnections = maxConnections
        self.readTimeout = readTimeout
    }

    deinit { try? SystemCall.close(listener) }

    /// Serves until `stop` returns true (looked at a few times a second).
    public func serve(_ handle: @escaping @Sendable (HTTPConnection) -> Void, until stop: () -> Bool) {
        while !stop() {
            guard (try? SystemCall.wait(listener, for: Int16(POLLIN), milliseconds: 200)) == true,
                let fd = try? SystemCall.acceptConnection(listener)
            else { continue }
            let admitted = active.withLock { count in
                guard count < maxConnections else { return false }
                count += 1
                return true
            }
            guard admitted else {
                HTTPConnection(fd: fd, readTimeout: readTimeout).respond(
                    .unavailable, body: Array("too many connections\n".utf8))
                continue
            }
            let active = active
            let readTimeout = readTimeout
            Thread.detachNewThread {
                // Made on its own thread, which alone uses it.
                let connection = HTTPConnection(fd: fd, readTimeout: readTimeout)
                handle(connection)
                connection.close()
                active.withLock { $0 -= 1 }
            }
        }
    }
}
