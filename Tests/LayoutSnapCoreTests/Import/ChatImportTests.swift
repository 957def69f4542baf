import Foundation
import LayoutSnapJSON
import XCTest

@testable import LayoutSnapCore

/// `layoutsnap import` of chat exports (docs/commands.md "import"): role/content message lists,
/// one conversation or several, as chat fixtures with explicit ids.
final class ChatImportTests: XCTestCase {
    /// An API request: system and tool messages and tool-call-only turns are skipped and counted,
    /// content parts read, an image part becomes a placeholder, every message gets an id.
    func testOneConversationWithSystemAndToolMessages() throws {
        let json = """
            {"model": "gpt-4o", "messages": [
              {"role": "system", "content": "You are helpful."},
              {"role": "user", "content": "Plan a run?"},
              {"role": "assistant", "content": null, "tool_calls": [{"id": "x"}]},
              {"role": "tool", "content": "{}"},
              {"role": "user", "content": [{"type": "text", "text": "My route"}, {"type": "image_url", "image_url": {}},
                                          {"type": "input_image"}, {"type": "audio"}]},
              {"role": "assistant", "content": "Start **easy**."}
            ]}
            """
        let result = try Importer.convert(Array(json.utf8), file: "a.json", format: .chat)
        XCTAssertEqual(result.outputs.map(\.suffix), [""])
        XCTAssertEqual(result.outputs[0].summary, "3 messages")
        XCTAssertEqual(
            String(decoding: result.outputs[0].bytes, as: UTF8.self),
            """
            {
              "kind": "chat",
              "messages": [
                {"id": "m1", "role": "user", "text": "Plan a run?"},
                {"id": "m2", "role": "user", "image": {"aspectRatio": 1}, "text": "My route"},
                {"id": "m3", "role": "assistant", "text": "Start **easy**."}
              ]
            }

            """)
        XCTAssertEqual(
            result.notes.description,
            "1 system message skipped, 1 assistant message without text (tool calls only) skipped, 1 tool message skipped, 1 content part that is not text or an image dropped, 1 further image in a message dropped (a bubble shows one), 1 image shown as a square placeholder"
        )
    }

    /// A bare list of messages is one conversation; a list of conversations (lists, `messages`
    /// objects, Gemini's `contents` with `parts` and the `model` role) makes one fixture each.
    func testListsOfConversations() throws {
        let one = try Importer.convert(
            Array(#"[{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}]"#.utf8),
            file: "a.json",
            format: .chat)
        XCTAssertEqual(one.outputs.map(\.summary), ["2 messages"])
        let json = """
            [
              [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello!"}],
              {"messages": [{"role": "system", "content": "only a system prompt"}]},
              {"messages": [{"role": "user", "content": "Bye"}]},
              {"contents": [{"role": "user", "parts": [{"text": "Gemini?"}]}, {"role": "model", "parts": [{"text": "Yes."}]}]}
            ]
            """
        let result = try Importer.convert(Array(json.utf8), file: "a.json", format: .chat)
        XCTAssertEqual(result.outputs.map(\.suffix), ["-1", "-2", "-3"])
        XCTAssertEqual(result.outputs.map(\.summary), ["2 messages", "1 message", "2 messages"])
        let gemini = try chat(result.outputs[2])
        XCTAssertEqual(gemini.messages.map(\.role), [.user, .assistant])
        XCTAssertEqual(gemini.messages.map(\.text), ["Gemini?", "Yes."])
        XCTAssertEqual(
            result.notes.description,
            "1 system message skipped, 1 conversation without user or assistant messages skipped")
    }

    /// JSON Lines: a conversation a line (fine-tuning files); an error names the line it is on.
    func testJSONLinesAndErrorsWithTheirLines() throws {
        let lines = """
            {"messages": [{"role": "user", "content": "one"}]}

            {"messages": [{"role": "user", "content": "three"}]}
            """
        let result = try Importer.convert(Array(lines.utf8), file: "a.jsonl", format: .chatLines)
        XCTAssertEqual(result.outputs.map(\.suffix), ["-1", "-2"])
        XCTAssertEqual(try chat(result.outputs[1]).messages.map(\.text), ["three"])

        XCTAssertEqual(
            failure(
                #"{"messages": [{"role": "user"}]}"# + "\n" + #"{"messages": [{"content": "no role"}]}"#, .chatLines),
            [#"a.jsonl:2:15: $.messages[0]: expected a message: an object with "role" and "content""#])
        XCTAssertEqual(
            failure("[\n  {\"role\": \"user\", \"content\": 3}\n]", .chat),
            ["a.json:2:31: $[0].content: expected the content as a string or a list of parts, found a number"])
        XCTAssertEqual(
            failure("[\n  {\"role\": 1, \"content\": \"x\"}\n]", .chat),
            ["a.json:2:12: $[0].role: expected a string, found a number"])
        XCTAssertEqual(
            failure("{\"messages\": [}", .chat),
            ["a.json:1:15: invalid JSON: unexpected character '}'; expected a value"])
        XCTAssertEqual(
            failure(#"{"kind": "chat"}"#, .chat),
            [
                #"a.json:1:1: $: expected a conversation: a list of {"role", "content"} messages, {"messages": [...]}, or a list of conversations"#
            ])
        XCTAssertEqual(failure("[]", .chat).first?.hasPrefix("a.json:1:1: $: an empty list"), true)
        XCTAssertEqual(
            failure(#"[{"role": "system", "content": "x"}]"#, .chat),
            ["a.json: no conversation with a user or assistant message"])
    }

    /// `--stream-last`: the last assistant message arrives after a thinking status row, in at
    /// most eight chunks that join to its text, and the row goes; the ids stay explicit.
    func testStreamingTheLastAssistantMessage() throws {
        let json = """
            [{"role": "user", "content": "What pace is steady?"},
             {"role": "assistant", "content": "About 80% of your 5k effort: you can speak in short sentences but not sing, which is the point."}]
            """
        let result = try Importer.convert(
            Array(json.utf8), file: "a.json", format: .chat, options: .init(streamLast: true))
        let fixture = try chat(result.outputs[0])
        XCTAssertEqual(fixture.messages.map(\.id), ["m1"])
        let events = fixture.steps.map(\.event)
        XCTAssertEqual(events.first, .status(.thinking))
        XCTAssertEqual(events.last, .status(.idle))
        guard case .receive(let received) = events[1] else { return XCTFail("\(events)") }
        XCTAssertEqual(received.id, "m2")
        XCTAssertEqual(received.role, .assistant)
        var text = received.text
        for case .stream(let chunk) in events { text += chunk }
        XCTAssertEqual(
            text, "About 80% of your 5k effort: you can speak in short sentences but not sing, which is the point.")
        XCTAssertEqual(events.count, 2 + ChatImport.streamChunks + 1 - 1)
        XCTAssertTrue(result.notes.isEmpty)

        let user = try Importer.convert(
            Array(#"[{"role": "user", "content": "Anyone?"}]"#.utf8), file: "a.json", format: .chat,
            options: .init(streamLast: true))
        XCTAssertTrue(try chat(user.outputs[0]).steps.isEmpty)
        XCTAssertEqual(user.notes.description, "1 conversation not ending with an assistant message (nothing streamed)")
    }

    /// A conversation past a fixture's limits keeps its newest messages (the chat opens at the
    /// bottom); a single huge message is cut.
    func testLimitsKeepTheNewestMessages() throws {
        let paragraph = String(repeating: "line\n", count: 100)
        let messages = (0..<60).map {
            #"{"role": "user", "content": "\#($0) "# + paragraph.replacingOccurrences(of: "\n", with: "\\n") + "\"}"
        }
        let result = try Importer.convert(
            Array(("[" + messages.joined(separator: ",") + "]").utf8), file: "a.json", format: .chat)
        let kept = try chat(result.outputs[0]).messages
        XCTAssertEqual(kept.count, 49)
        XCTAssertEqual(kept.first?.id, "m1")
        XCTAssertTrue(kept.first?.text.hasPrefix("11 ") == true)
        XCTAssertEqual(result.notes.description, "11 older messages past the fixture limits left out")

        let huge = #"[{"role": "assistant", "content": ""# + String(repeating: "ab ", count: 10_000) + "\"}]"
        let cut = try Importer.convert(Array(huge.utf8), file: "a.json", format: .chat)
        XCTAssertLessThanOrEqual(try chat(cut.outputs[0]).messages[0].text.count, ChatImport.maxMessageCharacters)
        XCTAssertEqual(cut.notes.description, "1 message over 20000 characters cut")
    }

    func testChunksJoinToTheText() {
        XCTAssertEqual(ChatImport.chunks("one"), ["one"])
        XCTAssertEqual(ChatImport.chunks("one two"), ["one ", "two"])
        let text = "a b c d e f g h i j k l m n o p q r s t"
        let chunks = ChatImport.chunks(text)
        XCTAssertEqual(chunks.count, ChatImport.streamChunks)
        XCTAssertEqual(chunks.joined(), text)
        // Never inside bold or italic: each prefix shows its markers closed.
        let styled = "Start with **five easy minutes** then *four blocks of four* at a steady pace"
        let pieces = ChatImport.chunks(styled)
        XCTAssertEqual(pieces.joined(), styled)
        XCTAssertGreaterThan(pieces.count, 3)
        var prefix = ""
        for piece in pieces.dropLast() {
            prefix += piece
            XCTAssertEqual(prefix.components(separatedBy: "**").count % 2, 1, prefix)
            XCTAssertEqual(prefix.replacingOccurrences(of: "**", with: "").filter { $0 == "*" }.count % 2, 0, prefix)
        }
    }

    // MARK: Helpers

    func chat(_ output: Importer.Output) throws -> ChatFixture {
        try XCTUnwrap(
            FixtureDecoder.decode(bytes: output.bytes, id: "imported", file: "imported.json", folder: .empty()).content
                as? ChatFixture)
    }

    func failure(_ text: String, _ format: ImportFormat) -> [String] {
        do {
            let result = try Importer.convert(
                Array(text.utf8), file: format == .chatLines ? "a.jsonl" : "a.json", format: format)
            return ["imported: \(result.outputs.count) fixtures"]
        } catch {
            return error.diagnostics.map(\.description)
        }
    }
}
