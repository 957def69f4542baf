import Foundation
import LayoutSnapCore
import LayoutSnapReport
import LayoutSnapSystem

/// `layoutsnap review` (docs/review.md "Review"): the report folder served read-only on
/// 127.0.0.1, the review API beside it, every request held to the token, its Host and its
/// Origin. Approvals go through `GoldenAcceptance`, the transaction `accept` uses.
public final class ReviewServer: Sendable {
    /// The cookie the first page load sets, so the page's images load without the query.
    public static let cookieName = "layoutsnap-review"
    /// The header a POST must carry (a cookie alone could be a cross-site form's).
    public static let tokenHeader = "X-LayoutSnap-Token"
    /// The most a POST body may be.
    public static let maxBodyBytes = 1 << 20

    public let session: ReviewSession
    public let token: String
    public let watching: Bool
    private let http: HTTPServer
    /// The report folder, every link in it resolved: nothing outside it is served.
    private let root: String
    private let stopping = LockedValue(false)

    /// `port` 0 takes a free port.
    public init(acceptance: GoldenAcceptance, port: UInt16, watching: Bool) throws(RunnerError) {
        let results = try acceptance.load()
        let report = (acceptance.resultsPath as NSString).deletingLastPathComponent
        do {
            root = try SystemCall.resolvedPath(report.isEmpty ? "." : report)
            token = try SystemCall.randomBytes(32).map { String(format: "%02x", $0) }.joined()
        } catch {
            throw RunnerError.environment("cannot start the review of \(report): \(error)")
        }
        session = ReviewSession(acceptance: acceptance, results: results)
        self.watching = watching
        http = try HTTPServer(port: port)
    }

    public var port: UInt16 { http.port }
    /// What to open: the page, with the token that authorises it.
    public var url: String { "http://127.0.0.1:\(port)/?token=\(token)" }

    /// Serves until `stop` is called.
    public func serve() {
        http.serve({ [self] in handle($0) }, until: { stopping.withLock { $0 } })
    }

    public func stop() { stopping.withLock { $0 = true } }
    public var isStopping: Bool { stopping.withLock { $0 } }

    /// Headers every response has: nothing cached (the token is in the first URL), sniffed or
    /// sent on as a referrer.
    private static let common = [
        ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
    ]

    private func refuse(_ connection: HTTPConnection, _ failure: HTTPFailure) {
        connection.respond(
            failure.status, headers: Self.common + [("Content-Type", "text/plain; charset=utf-8")],
            body: Array((failure.message + "\n").utf8))
    }

    private func json(_ connection: HTTPConnection, _ value: some Encodable, headers: [(String, String)] = []) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let body = try? encoder.encode(value) else {
            return refuse(connection, HTTPFailure(.serverError, "cannot encode the answer"))
        }
        connection.respond(
            .ok, headers: Self.common + headers + [("Content-Type", "application/json")], body: [UInt8](body))
    }

    func handle(_ connection: HTTPConnection) {
        let request: HTTPRequest
        do {
            request = try connection.readHead()
        } catch {
            return refuse(connection, error)
        }
        // Against DNS rebinding: a page of another site, resolved to 127.0.0.1, sends its own Host.
        let own = ["127.0.0.1:\(port)", "localhost:\(port)"]
        guard let host = request.headers["host"], own.contains(host.lowercased()) else {
            return refuse(
                connection, HTTPFailure(.forbidden, "the Host must be 127.0.0.1:\(port) or localhost:\(port)"))
        }
        if let origin = request.headers["origin"], !own.contains(where: { "http://" + $0 == origin.lowercased() }) {
            return refuse(connection, HTTPFailure(.forbidden, "requests from another origin are refused"))
        }
        let byQuery = matches(request.query["token"])
        let byHeader = matches(request.headers[Self.tokenHeader.lowercased()])
        switch request.method {
        case "GET":
            guard byQuery || byHeader || matches(request.cookie(Self.cookieName)) else {
                return refuse(
                    connection, HTTPFailure(.forbidden, "open the address layoutsnap review printed: it has the token"))
            }
        case "POST":
            guard byHeader else {
                return refuse(connection, HTTPFailure(.forbidden, "a POST needs the \(Self.tokenHeader) header"))
            }
        default:
            return refuse(connection, HTTPFailure(.methodNotAllowed, "only GET and POST"))
        }
        let cookie = byQuery ? [("Set-Cookie", "\(Self.cookieName)=\(token); HttpOnly; SameSite=Strict; Path=/")] : []
        switch (request.method, request.path) {
        case ("GET", "/api/review"):
            let now = session.snapshot
            json(
                connection,
                ReviewAnswer(
                    generation: now.generation, approved: now.approved.sorted(), rejected: now.rejected.sorted(),
                    watch: watching, writable: !session.acceptance.refusedUnderCI), headers: cookie)
        case ("POST", "/api/decisions"):
            do {
                let decision = try ReviewSession.Decision.decode(
                    try connection.readBody(of: request, limit: Self.maxBodyBytes))
                let refused = session.decide(decision)
                let now = session.snapshot
                json(
                    connection,
                    DecisionAnswer(
                        approved: now.approved.sorted(), rejected: now.rejected.sorted(),
                        refused: refused.map { .init(golden: $0.golden, reason: $0.reason) }))
            } catch {
                refuse(connection, error)
            }
        case ("GET", "/api/events"):
            events(connection, headers: cookie)
        case ("GET", _):
            file(request.path, connection, headers: cookie)
        default:
            refuse(connection, HTTPFailure(.notFound, "no such endpoint"))
        }
    }

    /// The token compared in constant time (a timing difference must not spell it out).
    private func matches(_ given: String?) -> Bool {
        guard let given else { return false }
        let a = Array(given.utf8)
        let b = Array(token.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// A file below the report folder, never anything else: no `..`, no hidden files, no folder
    /// listings, no link out of the folder. `/` is index.html, with the token in its head.
    private func file(_ rawPath: String, _ connection: HTTPConnection, headers: [(String, String)]) {
        var parts: [String] = []
        for piece in rawPath.split(separator: "/") {
            guard let part = String(piece).removingPercentEncoding, !part.contains("\0") else {
                return refuse(connection, HTTPFailure(.badRequest, "a path that does not decode"))
            }
            guard part != ".." else { return refuse(connection, HTTPFailure(.forbidden, "no .. in paths")) }
            guard !part.hasPrefix("."), !part.contains("/") else {
                return refuse(connection, HTTPFailure(.notFound, "not found"))
            }
            parts.append(part)
        }
        if parts.isEmpty { parts = ["index.html"] }
        let notFound = HTTPFailure(.notFound, "not found")
        guard let resolved = try? SystemCall.resolvedPath(root + "/" + parts.joined(separator: "/")) else {
            return refuse(connection, notFound)
        }
        guard resolved.hasPrefix(root + "/") else {
            return refuse(connection, HTTPFailure(.forbidden, "outside the report folder"))
        }
        guard let (fd, size) = try? SystemCall.openRegularFile(resolved) else { return refuse(connection, notFound) }
        let type = [("Content-Type", Self.contentType(resolved))]
        guard parts == ["index.html"] else {
            return connection.respond(.ok, headers: Self.common + headers + type, file: fd, size: size)
        }
        let page = FileManager.default.contents(atPath: resolved).map { String(decoding: $0, as: UTF8.self) } ?? ""
        try? SystemCall.close(fd)
        connection.respond(
            .ok, headers: Self.common + headers + type, body: Array(Self.withToken(page, token: token).utf8))
    }

    /// index.html with `<meta name="layoutsnap-review" content="TOKEN">` first in its head: how
    /// the page knows it is served, and what it sends its POSTs with.
    static func withToken(_ page: String, token: String) -> String {
        let meta = "<meta name=\"layoutsnap-review\" content=\"\(token)\">"
        guard let head = page.range(of: "<head>", options: .caseInsensitive) else { return meta + page }
        return page.replacingCharacters(in: head, with: page[head] + meta)
    }

    static func contentType(_ path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "html": "text/html; charset=utf-8"
        case "json": "application/json"
        case "png": "image/png"
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "xml": "application/xml"
        case "txt", "md": "text/plain; charset=utf-8"
        default: "application/octet-stream"
        }
    }

    /// Server-sent events: `event: results` whenever the generation changes, a comment every
    /// 15 s (so a client that left is noticed), until the server stops.
    private func events(_ connection: HTTPConnection, headers: [(String, String)]) {
        guard connection.startStream(.ok, headers: Self.common + headers + [("Content-Type", "text/event-stream")]),
            connection.send(Array("retry: 2000\n\n".utf8))
        else { return }
        var seen = session.snapshot.generation
        var quiet = 0
        while !isStopping {
            Thread.sleep(forTimeInterval: 0.2)
            let generation = session.snapshot.generation
            if generation != seen {
                seen = generation
                quiet = 0
                guard connection.send(Array("event: results\ndata: {\"generation\":\(generation)}\n\n".utf8)) else {
                    return
                }
            } else {
                quiet += 1
                if quiet >= 75 {
                    quiet = 0
                    guard connection.send(Array(": waiting\n\n".utf8)) else { return }
                }
            }
        }
    }
}

/// `GET /api/review`.
struct ReviewAnswer: Encodable {
    var generation: Int
    var approved: [String]
    var rejected: [String]
    var watch: Bool
    /// False under CI without --allow-ci: approvals are refused, the page can say so up front.
    var writable: Bool
}

/// `POST /api/decisions`: the session's decisions after this one, and what it refused.
struct DecisionAnswer: Encodable {
    struct Refused: Encodable {
        var golden: String
        var reason: String
    }

    var approved: [String]
    var rejected: [String]
    var refused: [Refused]
}
