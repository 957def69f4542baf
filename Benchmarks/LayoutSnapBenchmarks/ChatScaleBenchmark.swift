import Foundation
import LayoutSnapRunner
import LayoutSnapCore
import LayoutSnapRender

/// What a long chat costs (the target: a chat of 5,000 messages must render a frame in about the time
/// a chat of 10 does). The fixture is built in memory: an iPhone 15 at scale 2, N messages of
/// varied length, and the keyboard sliding in and out while following, every frame of it rendered.
public struct ChatScaleBenchmark {
    public struct Figures: Sendable {
        public var messages = 0
        public var frames = 0
        /// Laying out every message once (Pango), cold.
        public var firstLayoutMs = 0.0
        /// Per frame afterwards: the states' layout amortised plus rendering.
        public var perFrameMs = 0.0
    }

    public let repeats: Int

    public init(repeats: Int) { self.repeats = max(1, repeats) }

    static func fixture(messages count: Int, steps: [ChatStep]) -> Fixture {
        let texts = [
            "Can you plan a run for tomorrow?",
            "Sure: five easy minutes, then four intervals of four minutes at a steady pace.",
            "ok", "What pace is steady? I never know whether I am going too fast at the start.",
        ]
        let messages = (0..<count).map { i in
            ChatMessage(id: "m\(i)", role: i % 2 == 0 ? .user : .assistant, text: texts[i % texts.count] + " (\(i))")
        }
        let device = Device.named("iphone-15")!
        return Fixture(
            id: "bench/chat-\(count)", file: "bench", device: device,
            canvas: Canvas(width: device.width, height: device.height, scale: 2), appearance: .light, fps: 60,
            tolerance: nil, content: ChatFixture(messages: messages, steps: steps))
    }

    public func run(messages count: Int) throws(RunnerError) -> Figures {
        var f = Figures()
        f.messages = count
        f.firstLayoutMs = .infinity
        f.perFrameMs = .infinity
        do {
            let fonts = try FontSystem.shared()
            for _ in 0..<repeats {
                let engine = try TextEngine(fonts: fonts)
                let start = DispatchTime.now()
                _ = try LayoutEngine.layout(Self.fixture(messages: count, steps: []), measurer: engine)
                let measured = DispatchTime.now()
                // The keyboard up and down three times (about 230 frames at 60 fps, as one slide
                // of the old overdamped spring was), so the states' layout is amortised over as
                // many frames as it was.
                let slides = (0..<6).map { ChatStep(event: .keyboard(show: $0 % 2 == 0)) }
                let fixture = Self.fixture(messages: count, steps: slides)
                let layout = try LayoutEngine.layout(fixture, measurer: engine)
                let renderer = try FrameRenderer(canvas: fixture.canvas, engine: engine)
                var frames = 0
                for state in layout.states {
                    for frame in state.frames {
                        _ = try renderer.render(frame)
                        frames += 1
                    }
                }
                let end = DispatchTime.now()
                f.frames = frames
                f.firstLayoutMs = min(
                    f.firstLayoutMs, Double(measured.uptimeNanoseconds - start.uptimeNanoseconds) / 1e6)
                f.perFrameMs = min(
                    f.perFrameMs, Double(end.uptimeNanoseconds - measured.uptimeNanoseconds) / 1e6 / Double(frames))
            }
        } catch {
            throw RunnerError.environment("the chat benchmark failed: \(error)")
        }
        return f
    }
}
