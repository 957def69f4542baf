import Foundation
import LayoutSnapCore
import LayoutSnapSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Just enough HTTP/1.1 for a remote cache: GET and PUT of whole bodies on kept-alive
/// connections (a pool: one per worker, for the lookups asked ahead and for each upload thread
/// at most), every step bounded by a deadline. Bodies come with Content-Length or chunked;
/// anything else is an error, and so is a body over the limit.
final class HTTPClient: Sendable {
    struct Endpoint: Sendable, Equatable {
        var host: String
        var port: UInt16
        /// The path prefix, without a trailing slash (`` or `/cache`).
        var path: String

        /// `http://host[:port][/path]`; nil with the reason otherwise.
        static func parse(_ url: String) -> Result<Endpoint, ArgumentError> {
            guard url.hasPrefix("http://") else {
                let scheme = url.split(separator: ":").first.map(String.init) ?? url
                return .failure(
                    ArgumentError(
                        message: scheme == "https" || scheme == "grpc" || scheme == "grpcs"
                            ? "--remote-cache \(url): \(scheme) is not supported; give the server's http:// address (for TLS, a local proxy such as bazel-remote or stunnel in front of it, docs/cache.md)"
                            : "--remote-cache \(url): expected http://HOST[:PORT][/PATH]"))
            }
            let rest = url.dropFirst("http://".count)
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            let authority = rest[..<slash]
            var path = String(rest[slash...])
            while path.hasSuffix("/") { path.removeLast() }
            guard !authority.contains("@") else {
                return .failure(
                    ArgumentError(
                        message:
                            "--remote-cache \(url): credentials go in --remote-cache-header (\"Authorization: ...\"), not in the URL"
                    ))
            }
            var host = String(authority)
            var port: UInt16 = 80
            if authority.hasPrefix("[") {
                // [::1]:8080
                guard let close = authority.firstIndex(of: "]") else {
                    return .failure(ArgumentError(message: "--remote-cache \(url): an IPv6 address needs its ]"))
                }
                host = String(authority[authority.index(after: authority.startIndex)..<close])
                let after = authority[authority.index(after: close)...]
                if after.hasPrefix(":") {
                    guard let p = UInt16(after.dropFirst()), p > 0 else {
                        return .failure(ArgumentError(message: "--remote-cache \(url): the port must be 1 to 65535"))
                    }
                    port = p
                }
            } else if let colon = authority.lastIndex(of: ":") {
                host = String(authority[..<colon])
                guard let p = UInt16(authority[authority.index(after: colon)...]), p > 0 else {
                    return .failure(ArgumentError(message: "--remote-cache \(url): the port must be 1 to 65535"))
                }
                port = p
            }
            guard !host.isEmpty else {
                return .failure(ArgumentError(message: "--remote-cache \(url): expected http://HOST[:PORT][/PATH]"))
            }
            return .success(Endpoint(host: host, port: port, path: path))
        }

        var hostHeader: String {
            let name = host.contains(":") ? "[\(host)]" : host
            return port == 80 ? name : "\(name):\(port)"
        }
    }

    struct Response: Sendable {
        var status: Int
        var body: [UInt8]
    }

    struct Failure: Error, Sendable, CustomStringConvertible {
        var description: String
        /// The server could not be reached or did not answer in time (not one that answered
        /// wrongly or closed the connection).
        var noAnswer = false
    }

    let endpoint: Endpoint
    let headers: [(String, String)]
    /// Milliseconds a connection or one request may take.
    let timeout: Int32
    let maxBody: Int
    private let idle = LockedValue<[Int32]>([])

    init(endpoint: Endpoint, headers: [(String, String)], timeout: Int32, maxBody: Int) {
        self.endpoint = endpoint
        self.headers = headers
        self.timeout = timeout
        self.maxBody = maxBody
    }

    deinit {
        for fd in idle.withLock({ $0 }) { try? SystemCall.close(fd) }
    }

    /// One request. A kept-alive connection is used again only if nothing waits on it: bytes
    /// there were not asked for by this request (a late or extra answer) and would be read as its
    /// answer, and a connection the server closed reads as ready too. One the server closes
    /// meanwhile is retried once on a new one (idempotent methods only: GET and PUT are).
    func send(_ method: String, _ path: String, body: [UInt8] = []) throws(Failure) -> Response {
        let request = head(method, path, bodyCount: body.count) + body
        if let fd = kept() {
            do throws(Failure) {
                return try exchange(fd, request)
            } catch  where error.noAnswer {
                // A server that does not answer in time is not asked again.
                throw error
            } catch {}
        }
        return try exchange(try connect(), request)
    }

    private func head(_ method: String, _ path: String, bodyCount: Int) -> [UInt8] {
        var head = "\(method) \(endpoint.path)\(path) HTTP/1.1\r\nHost: \(endpoint.hostHeader)\r\n"
        head += "User-Agent: layoutsnap\r\nContent-Length: \(bodyCount)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        return Array(head.utf8)
    }

    /// A kept-alive connection with nothing waiting on it, nil when there is none.
    private func kept() -> Int32? {
        while let fd = idle.withLock({ $0.popLast() }) {
            if (try? SystemCall.wait(fd, for: Int16(POLLIN), milliseconds: 0)) == false { return fd }
            try? SystemCall.close(fd)
        }
        return nil
    }

    private func connect() throws(Failure) -> Int32 {
        do {
            return try SystemCall.connect(host: endpoint.host, port: endpoint.port, milliseconds: timeout)
        } catch {
            throw Failure(description: "cannot connect to \(endpoint.hostHeader): \(error.reason)", noAnswer: true)
        }
    }

    /// The most bytes of requests one `pipeline` writes: well within a socket's first send
    /// buffer, so that writing them never waits on a server that answers before it reads on.
    static let maxPipelinedBytes = 16 << 10
    /// The most bytes of answers one `pipeline` reads (each answer is within `maxBody`): the rest
    /// are asked for again.
    static let maxPipelinedAnswerBytes = 32 << 20

    /// GETs of `paths` written at once on one connection and their responses read in order
    /// (HTTP/1.1 pipelining, RFC 9112 9.3.2, which every server must take for safe methods):
    /// one round trip for the lot instead of one each. As many requests as fit in
    /// `maxPipelinedBytes` are sent (at least one); the responses that came, in order, and why
    /// the rest did not when the connection ended or failed first. The caller asks again for
    /// those.
    func pipeline(_ paths: ArraySlice<String>) -> (answers: [Response], failure: Failure?) {
        var request: [UInt8] = []
        var asked = 0
        for path in paths {
            let one = head("GET", path, bodyCount: 0)
            guard asked == 0 || request.count + one.count <= Self.maxPipelinedBytes else { break }
            request += one
            asked += 1
        }
        guard asked > 0 else { return ([], nil) }
        if let fd = kept() {
            let outcome = exchange(fd, request, count: asked)
            // A kept connection the server closed meanwhile: asked again on a new one (not one
            // on which it did not answer in time).
            if !outcome.answers.isEmpty || outcome.failure?.noAnswer == true { return outcome }
        }
        do {
            return exchange(try connect(), request, count: asked)
        } catch {
            return ([], error)
        }
    }

    /// `exchange` for `count` requests in `request`: the responses read, in order, until one
    /// fails or closes the connection.
    private func exchange(_ fd: Int32, _ request: [UInt8], count: Int) -> (answers: [Response], failure: Failure?) {
        var reader = Reader(fd: fd, deadline: 0, maxBody: maxBody)
        var answers: [Response] = []
        var closing = false
        var answerBytes = 0
        do throws(Failure) {
            let sent = request.withUnsafeBytes { buffer in
                Result { () throws(SystemError) in try SystemCall.sendAll(fd, buffer) }
            }
            if case .failure(let error) = sent {
                throw Failure(description: "cannot send to \(endpoint.hostHeader): \(error.reason)")
            }
            while answers.count < count && !closing && answerBytes < Self.maxPipelinedAnswerBytes {
                // Each response within the timeout of its own.
                reader.deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout) * 1_000_000
                let (response, closes) = try reader.response()
                answers.append(response)
                answerBytes += response.body.count
                closing = closes
            }
        } catch {
            try? SystemCall.close(fd)
            return (answers, error)
        }
        // Kept when every answer came and nothing follows the last.
        if answers.count == count && reader.start == reader.buffer.count && !closing {
            idle.withLock { $0.append(fd) }
            return (answers, nil)
        }
        try? SystemCall.close(fd)
        return (
            answers,
            answers.count < count
                ? Failure(
                    description: closing
                        ? "the server closed the connection after \(answers.count) of \(count) pipelined requests"
                        : "\(answers.count) of \(count) pipelined answers were past \(Self.maxPipelinedAnswerBytes >> 20) MB"
                )
                : nil
        )
    }

    /// Sends `request` on `fd` and reads the response; the connection goes back to the pool when
    /// it can be used again, and is closed otherwise.
    private func exchange(_ fd: Int32, _ request: [UInt8]) throws(Failure) -> Response {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout) * 1_000_000
        var reader = Reader(fd: fd, deadline: deadline, maxBody: maxBody)
        do throws(Failure) {
            // withUnsafeBytes only rethrows untyped errors: the typed one comes out as a Result.
            let sent = request.withUnsafeBytes { buffer in
                Result { () throws(SystemError) in try SystemCall.sendAll(fd, buffer) }
            }
            if case .failure(let error) = sent {
                throw Failure(description: "cannot send to \(endpoint.hostHeader): \(error.reason)")
            }
            let (response, closes) = try reader.response()
            if !closes && reader.start == reader.buffer.count {
                idle.withLock { $0.append(fd) }
            } else {
                try? SystemCall.close(fd)
            }
            return response
        } catch {
            try? SystemCall.close(fd)
            throw error
        }
    }

    /// Reads one response from a socket, waiting at most until the deadline.
    private struct Reader {
        let fd: Int32
        var deadline: UInt64
        let maxBody: Int
        var buffer: [UInt8] = []
        var start = 0

        init(fd: Int32, deadline: UInt64, maxBody: Int) {
            self.fd = fd
            self.deadline = deadline
            self.maxBody = maxBody
        }

        /// More bytes into the buffer; false at the connection's end.
        mutating func fill() throws(Failure) -> Bool {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { throw Failure(description: "no answer in time", noAnswer: true) }
            let left = Int32(min((deadline - now) / 1_000_000 + 1, UInt64(Int32.max)))
            do {
                guard try SystemCall.wait(fd, for: Int16(POLLIN), milliseconds: left) else {
                    throw Failure(description: "no answer in time", noAnswer: true)
                }
                // Read into memory left unzeroed, then appended: a zeroed 64 KiB chunk a read was
                // a memset of 64 KiB for each response.
                if start == buffer.count {
                    buffer.removeAll(keepingCapacity: true)
                    start = 0
                } else if start > buffer.count / 2 {
                    // Pipelined answers follow each other: what was read is let go.
                    buffer.removeFirst(start)
                    start = 0
                }
                var received: Result<Int, SystemError> = .success(0)
                withUnsafeTemporaryAllocation(byteCount: 64 * 1024, alignment: 1) { chunk in
                    received = Result { () throws(SystemError) in try SystemCall.receive(fd, into: chunk) }
                    if case .success(let n) = received, n > 0 {
                        buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
                    }
                }
                return try received.get() > 0
            } catch let error as SystemError {
                throw Failure(description: "the connection failed: \(error.reason)")
            } catch let error as Failure {
                throw error
            } catch {
                throw Failure(description: "\(error)")
            }
        }

        /// The next line (without CRLF), at most 8 KiB.
        mutating func line() throws(Failure) -> ArraySlice<UInt8> {
            while true {
                if let end = buffer[start...].firstIndex(of: 0x0A) {
                    guard end - start <= 8192 else { throw Failure(description: "a response line is too long") }
                    var line = buffer[start..<end]
                    if line.last == 0x0D { line = line.dropLast() }
                    start = end + 1
                    return line
                }
                guard buffer.count - start < 8192 else { throw Failure(description: "a response line is too long") }
                guard try fill() else { throw Failure(description: "the server closed the connection") }
            }
        }

        mutating func bytes(_ count: Int) throws(Failure) -> [UInt8] {
            while buffer.count - start < count {
                guard try fill() else { throw Failure(description: "the response ended early") }
            }
            let out = Array(buffer[start..<start + count])
            start += count
            return out
        }

        /// `bytes` without the spaces and tabs around them.
        static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
            var text = bytes
            while let first = text.first, first == 0x20 || first == 0x09 { text = text.dropFirst() }
            while let last = text.last, last == 0x20 || last == 0x09 { text = text.dropLast() }
            return text
        }

        /// Whether `bytes` is `lowercase` in any case (ASCII).
        static func named(_ bytes: ArraySlice<UInt8>, _ lowercase: StaticString) -> Bool {
            guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
            let expected = UnsafeBufferPointer(start: lowercase.utf8Start, count: bytes.count)
            for (byte, wanted) in zip(bytes, expected) {
                let lower: UInt8 = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
                if lower != wanted { return false }
            }
            return true
        }

        /// A decimal count of at most 18 digits; nil for anything else.
        static func decimal(_ bytes: ArraySlice<UInt8>) -> Int? {
            guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
            var value = 0
            for b in bytes {
                guard (0x30...0x39).contains(b) else { return nil }
                value = value * 10 + Int(b - 0x30)
            }
            return value
        }

        /// Headers are read as bytes: as strings, trimmed and lowercased through Foundation, they
        /// were most of the client's time (250,000 instructions a response).
        /// The next response, and whether the connection ends after it. Bytes after it are left in
        /// the buffer: the next response of a pipeline, or bytes nobody asked for.
        mutating func response() throws(Failure) -> (Response, closes: Bool) {
            // Interim answers (100 Continue, 103 Early Hints) come before the answer: a header
            // block each, no body. Skipped, a few at most, so that the next is the request's.
            for _ in 0..<8 {
                let (response, closes) = try next()
                guard (100..<200).contains(response.status), response.status != 101 else { return (response, closes) }
            }
            throw Failure(description: "too many interim responses")
        }

        private mutating func next() throws(Failure) -> (Response, closes: Bool) {
            let statusLine = String(decoding: try line(), as: UTF8.self)
            let parts = statusLine.split(separator: " ", maxSplits: 2)
            guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
                throw Failure(description: "not an HTTP response: \(statusLine.prefix(80))")
            }
            var length: Int?
            var chunked = false
            var close = parts[0] == "HTTP/1.0"
            var count = 0
            while true {
                let header = try line()
                if header.isEmpty { break }
                count += 1
                guard count <= 100 else { throw Failure(description: "too many response headers") }
                guard let colon = header.firstIndex(of: 0x3A) else { continue }
                let name = header[..<colon]
                let value = Self.trimmed(header[(colon + 1)...])
                if Self.named(name, "content-length") {
                    guard let n = Self.decimal(value) else { throw Failure(description: "a bad Content-Length") }
                    length = n
                } else if Self.named(name, "transfer-encoding") {
                    chunked = String(decoding: value, as: UTF8.self).lowercased().contains("chunked")
                } else if Self.named(name, "connection") {
                    close = close || Self.named(value, "close")
                }
            }
            var body: [UInt8] = []
            if chunked {
                while true {
                    let sizeLine = try line()
                    let digits = Self.trimmed(sizeLine.prefix { $0 != UInt8(ascii: ";") })
                    guard digits.count <= 15, let size = Int(String(decoding: digits, as: UTF8.self), radix: 16),
                        size >= 0
                    else { throw Failure(description: "a bad chunk size") }
                    if size == 0 {
                        while !(try line()).isEmpty {}
                        break
                    }
                    guard body.count + size <= maxBody else { throw Failure(description: "the response is too large") }
                    body += try bytes(size)
                    _ = try line()
                }
            } else if let length {
                guard length <= maxBody else { throw Failure(description: "the response is too large") }
                body = try bytes(length)
            } else if status != 204 && status != 304 && !(100..<200).contains(status) {
                // Until the connection ends.
                while try fill() {
                    guard buffer.count - start <= maxBody else {
                        throw Failure(description: "the response is too large")
                    }
                }
                body = Array(buffer[start...])
                start = buffer.count
                close = true
            }
            return (Response(status: status, body: body), close)
        }
    }
}
