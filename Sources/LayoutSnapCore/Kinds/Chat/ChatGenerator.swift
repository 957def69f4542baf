/// `chat` fixtures (docs/fixtures/chat.md): from one message to thousands (rarely: laying out 5,000 messages
/// takes about a second), images with aspect ratios from 1:4 to 4:1, every status, offline,
/// drafts of one to several lines, the keyboard up at the start, and steps that open, receive
/// (while following and while scrolled up), send, stream, change the status, drag, scroll back
/// to the bottom, slide the keyboard and go on and offline.

import LayoutSnapJSON

enum ChatGenerator {
    static func make(_ r: inout SeededRandom) -> JSONOutput {
        var common = CommonFields.random(&r)
        let script = GeneratorSupport.script(&r)
        var m = Members()

        // Explicit ids ("m3", "r1") or the default positions ("3"): never both kinds of name for
        // one message, so ids never collide.
        let explicitIDs = r.chance(0.5)
        let count = r.int(weighted: [
            (0...0, 0.02), (1...1, 0.08), (2...10, 0.33), (11...60, 0.3), (61...300, 0.19),
            (301...1000, 0.06), (1001...3000, 0.02),
        ])
        var role = r.chance(0.5) ? "user" : "assistant"
        var messages: [JSONOutput] = []
        messages.reserveCapacity(count)
        for k in 1...max(count, 1) where count > 0 {
            if r.chance(0.85) { role = role == "user" ? "assistant" : "user" }
            var msg = Members()
            if explicitIDs { msg.add("id", .string("m\(k)")) }
            msg.add("role", .string(role))
            msg.append(body(script, long: count <= 60, &r))
            messages.append(msg.json)
        }
        m.add("messages", .array(messages))
        m.set(
            "status",
            r.weighted([(nil, 0.6), ("idle", 0.1), ("thinking", 0.15), ("streaming", 0.15)] as [(JSONOutput?, Double)]))
        var online = true
        if r.chance(0.25) {
            online = r.chance(0.4)
            m.add("online", .bool(online))
        }
        if r.chance(0.25) {
            // A draft of a word to several lines (the bar grows to five, then scrolls).
            let length = r.int(weighted: [(0...0, 0.3), (10...80, 0.4), (80...400, 0.3)])
            m.add("input", .string(TextSource.text(script, length: length, markup: false, lineBreaks: 0.1, &r)))
        }
        var keyboard = false
        if r.chance(0.4) {
            keyboard = r.chance(0.65)
            m.add("keyboard", .bool(keyboard))
        }

        var steps: [JSONOutput] = []
        var messageCount = count
        var received = 0
        var keyboardSteps = 0
        var scrolls = 0
        for _ in 0..<r.int(weighted: [(0...0, 0.08), (1...4, 0.47), (5...9, 0.45)]) {
            var s = Members()
            let event = r.weighted([
                (0, 0.05), (1, 0.2), (2, 0.12), (3, messageCount > 0 ? 0.12 : 0), (4, 0.1), (5, 0.18),
                (6, 0.08), (7, keyboardSteps < 2 ? 0.08 : 0), (8, 0.07),
            ])
            switch event {
            case 0:
                s.add("open", true)
            case 1:
                received += 1
                messageCount += 1
                var msg = Members()
                if explicitIDs { msg.add("id", .string("r\(received)")) }
                msg.set(
                    "role", r.weighted([(nil, 0.5), ("assistant", 0.25), ("user", 0.25)] as [(JSONOutput?, Double)]))
                msg.append(body(script, long: true, &r))
                s.add("receive", msg.json)
            case 2:
                messageCount += 1
                scrolls += 1
                let length = r.int(weighted: [(0...0, 0.3), (10...200, 0.7)])
                s.add("send", .string(TextSource.text(script, length: length, lineBreaks: 0.1, &r)))
            case 3:
                let length = r.int(weighted: [(0...0, 0.5), (10...120, 0.5)])
                s.add("stream", .string(" " + TextSource.text(script, length: length, &r)))
            case 4:
                s.add("status", .string(r.pick(ChatStatus.allCases).rawValue))
            case 5:
                // Mostly up (unseen messages pile up below), sometimes back down to the bottom.
                let dy = r.chance(0.7) ? -r.int(20...2000) : r.int(10...3000)
                s.add("scrollBy", .number(Double(dy)))
            case 6:
                s.add("scrollToBottom", true)
                scrolls += 1
            case 7:
                keyboard = r.chance(0.85) ? !keyboard : keyboard
                keyboardSteps += 1
                s.add("keyboard", .string(keyboard ? "show" : "hide"))
            default:
                online.toggle()
                s.add("online", .bool(online))
            }
            s.set("at", GeneratorSupport.at(&r, chance: 0.2, within: 0.02...0.6))
            steps.append(s.json)
        }

        let seconds =
            GeneratorSupport.keyboardSeconds * Double(keyboardSteps) + GeneratorSupport.scrollSeconds * Double(scrolls)
        common.fps = GeneratorSupport.fps(
            animatedSeconds: seconds, steps: steps.count,
            preferred: keyboardSteps > 0 ? r.pick([[15], [12], [10]]) : r.pick([[30], [24], [20]]))
        if r.chance(0.6) { common.height = Double(r.int(420...900)) }
        var out = common.members(kind: .chat)
        out.append(m)
        if !steps.isEmpty { out.add("steps", .array(steps)) }
        return out.json
    }

    /// A message's `text` and `image`: mostly a sentence or two; long ones only in short chats
    /// (each message is laid out once, so thousands of long ones would be slow, not wrong).
    static func body(_ script: Script, long: Bool, _ r: inout SeededRandom) -> Members {
        var m = Members()
        let image = r.chance(0.08)
        if !image || r.chance(0.6) {
            let length =
                long
                ? r.int(weighted: [
                    (0...0, 0.15), (10...80, 0.5), (80...400, 0.25), (400...1500, 0.08), (1500...3000, 0.02),
                ])
                : r.int(weighted: [(0...0, 0.2), (10...120, 0.8)])
            if !r.chance(0.005) {
                m.add("text", .string(TextSource.text(script, length: length, lineBreaks: 0.15, &r)))
            }
        }
        if image {
            let any = r.logDouble(0.25...4)
            let ratio = r.weighted([(0.25, 0.1), (4, 0.1), (any, 0.8)])
            m.add("image", ["aspectRatio": .number(ratio)])
        }
        return m
    }
}
