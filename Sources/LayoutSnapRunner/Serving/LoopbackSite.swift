import Foundation
import LayoutSnapSystem

/// A folder served read-only on 127.0.0.1 behind a random token: what `layoutsnap review` and
/// `layoutsnap preview --serve` share. Every request is held to the server's own Host (against
/// DNS rebinding) and Origin, and to the token: in the query of the first address (which sets a
/// cookie, so the page's images load without it), then in the cookie or a header. Nothing is
/// cached, sniffed or sent on as a referrer; nothing outside the folder is served.
public final class LoopbackSite: Sendable {
    /// The header a request may carry the token in (a POST must: a cookie alone could be a
    /// cross-site form's).
    public static let tokenHeader = "X-LayoutSnap-Token"

    public let token: String
    /// The cookie the first page load sets.
    public let cookieName: String
    /// `<meta name="...">` put first in index.html's head, with the token: how the page knows it
    /// is served.
    public let metaName: String
    /// The command whose printed address has the token (`layoutsnap review`), for the 403.
    let command: String
    /// The folder, every link in it resolved.
    let root: String
    private let http: HTTPServer

    /// `port` 0 takes a free port.
    public init(folder: String, port: UInt16, cookieName: String, metaName: String, command: String)
        throws(RunnerError)
    {
        do {
            root = try SystemCall.resolvedPath(folder.isEmpty ? "." : folder)
            token = try SystemCall.randomBytes(32).map { String(format: "%02x", $0) }.joined()
        } catch {
            throw RunnerError.environment("cannot serve \(folder): \(error)")
        }
        http = try HTTPServer(port: port)
        // Cookies do not tell ports apart: each server's is its own.
        self.cookieName = cookieName.replacingOccurrences(of: "PORT", with: "\(http.port)")
        self.metaName = metaName
        self.command = command
    }

    public var port: UInt16 { http.port }
    /// What to open: the page, with the token that authorises it.
    public var url: String { "http://127.0.0.1:\(port)/?token=\(token)" }

    /// Serves until `stop` returns true.
    public func serve(_ handle: @escaping @Sendable (HTTPConnection) -> Void, until stop: () -> Bool) {
        http.serve(handle, until: stop)
    }

    /// Headers every response has: nothing cached (the token is in the first URL), sniffed or
    /// sent on as a referrer.
    public static let common = [
        ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
    ]

    public func refuse(_ connection: HTTPConnection, _ failure: HTTPFailure) {
        connection.respond(
            failure.status, headers: Self.common + [("Content-Type", "text/plain; charset=utf-8")],
            body: Array((failure.message + "\n").utf8))
    }

    public func json(_ connection: HTTPConnection, _ value: some Encodable, headers: [(String, String)] = []) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let body = try? encoder.encode(value) else {
            return refuse(connection, HTTPFailure(.serverError, "cannot encode the answer"))
        }
        connection.respond(
            .ok, headers: Self.common + headers + [("Content-Type", "application/json")], body: [UInt8](body))
    }

    /// Reads the request's head and holds it to the Host, the Origin and the token (a GET's in
    /// the query, the cookie or the header; a POST's in the header, when `posts` allows POSTs at
    /// all). Returns the request and the headers to answer with (the cookie, when the token came
    /// in the query); a refused request has been answered already (nil).
    public func admit(_ connection: HTTPConnection, posts: Bool) -> (HTTPRequest, cookie: [(String, String)])? {
        do {
            let request = try connection.readHead()
            return (request, try admit(request, posts: posts))
        } catch {
            refuse(connection, error)
            return nil
        }
    }

    func admit(_ request: HTTPRequest, posts: Bool) throws(HTTPFailure) -> [(String, String)] {
        // Against DNS rebinding: a page of another site, resolved to 127.0.0.1, sends its own Host.
        let own = ["127.0.0.1:\(port)", "localhost:\(port)"]
        guard let host = request.headers["host"], own.contains(host.lowercased()) else {
            throw HTTPFailure(.forbidden, "the Host must be 127.0.0.1:\(port) or localhost:\(port)")
        }
        if let origin = request.headers["origin"], !own.contains(where: { "http://" + $0 == origin.lowercased() }) {
            throw HTTPFailure(.forbidden, "requests from another origin are refused")
        }
        let byQuery = matches(request.query["token"])
        let byHeader = matches(request.headers[Self.tokenHeader.lowercased()])
        switch request.method {
        case "GET":
            guard byQuery || byHeader || matches(request.cookie(cookieName)) else {
                throw HTTPFailure(.forbidden, "open the address \(command) printed: it has the token")
            }
        case "POST" where posts:
            guard byHeader else { throw HTTPFailure(.forbidden, "a POST needs the \(Self.tokenHeader) header") }
        default:
            throw HTTPFailure(.methodNotAllowed, posts ? "only GET and POST" : "only GET")
        }
        return byQuery ? [("Set-Cookie", "\(cookieName)=\(token); HttpOnly; SameSite=Strict; Path=/")] : []
    }

    /// The token compared in constant time (a timing difference must not spell it out).
    private func matches(_ given: String?) -> Bool {
        guard let given else { return false }
        let a = Array(given.utf8)
        let b = Array(token.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// A file below the folder, never anything else: no `..`, no hidden files, no folder
    /// listings, no link out of the folder. `/` is index.html, with the token in its head.
    public func file(_ rawPath: String, _ connection: HTTPConnection, headers: [(String, String)]) {
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
            return refuse(connection, HTTPFailure(.forbidden, "outside the served folder"))
        }
        guard let (fd, size) = try? SystemCall.openRegularFile(resolved) else { return refuse(connection, notFound) }
        let type = [("Content-Type", Self.contentType(resolved))]
        guard parts == ["index.html"] else {
            return connection.respond(.ok, headers: Self.common + headers + type, file: fd, size: size)
        }
        let page = FileManager.default.contents(atPath: resolved).map { String(decoding: $0, as: UTF8.self) } ?? ""
        try? SystemCall.close(fd)
        connection.respond(
            .ok, headers: Self.common + headers + type,
            body: Array(Self.withToken(page, meta: metaName, token: token).utf8))
    }

    /// index.html with `<meta name="META" content="TOKEN">` first in its head.
    static func withToken(_ page: String, meta name: String, token: String) -> String {
        let meta = "<meta name=\"\(name)\" content=\"\(token)\">"
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
}
