public enum ChatRole: String, Sendable, Hashable, CaseIterable {
    case user, assistant
}

/// What the assistant is doing: a status row shows below the messages unless idle.
public enum ChatStatus: String, Sendable, Hashable, CaseIterable {
    case idle, thinking, streaming
}

public struct ChatMessage: Sendable, Hashable {
    public var id: String
    public var role: ChatRole
    /// Inline `**bold**` and `*italic*` as everywhere else.
    public var text: String
    /// A picture above the text: a PNG file's pixels, or a placeholder of an aspect ratio.
    public var image: PostImage?
    /// The picture's width / height.
    public var imageAspectRatio: Double? { image?.aspectRatio }

    public init(id: String, role: ChatRole, text: String, imageAspectRatio: Double? = nil, image: PostImage? = nil) {
        self.id = id
        self.role = role
        self.text = text
        self.image = image ?? imageAspectRatio.map { PostImage(path: nil, aspectRatio: $0) }
    }
}

public enum ChatEvent: Sendable, Hashable {
    /// The view appears again (back from another tab): at the absolute bottom.
    case open
    case receive(ChatMessage)
    /// The user sends the text (the draft is cleared); always scrolls to the bottom.
    case send(String)
    /// Text streamed into the last message.
    case stream(String)
    case status(ChatStatus)
    case scrollBy(Double)
    case scrollToBottom
    case keyboard(show: Bool)
    case online(Bool)

    public var name: String {
        switch self {
        case .open: "open"
        case .receive: "receive"
        case .send: "send"
        case .stream: "stream"
        case .status: "status"
        case .scrollBy: "scroll"
        case .scrollToBottom: "scrollToBottom"
        case .keyboard(let show): show ? "keyboard-show" : "keyboard-hide"
        case .online(let on): on ? "online" : "offline"
        }
    }
}

public struct ChatStep: Sendable, Hashable {
    public var event: ChatEvent
    public var at: Double?

    public init(event: ChatEvent, at: Double? = nil) {
        self.event = event
        self.at = at
    }
}

/// The `chat` kind (docs/fixtures/chat.md): a bottom-anchored message list between an optional
/// offline banner and an input bar, above the keyboard.
public struct ChatFixture: Sendable, Hashable {
    public var messages: [ChatMessage]
    public var status: ChatStatus
    public var online: Bool
    /// The input bar's draft text.
    public var input: String
    public var keyboard: Bool
    public var steps: [ChatStep]

    public init(
        messages: [ChatMessage] = [], status: ChatStatus = .idle, online: Bool = true, input: String = "",
        keyboard: Bool = false, steps: [ChatStep] = []
    ) {
        self.messages = messages
        self.status = status
        self.online = online
        self.input = input
        self.keyboard = keyboard
        self.steps = steps
    }
}
