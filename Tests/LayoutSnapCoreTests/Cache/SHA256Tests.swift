import LayoutSnapCore
import XCTest

final class SHA256Tests: XCTestCase {
    /// FIPS 180-4's examples (NIST's "SHA256.pdf"), and the empty message.
    func testKnownDigests() {
        XCTAssertEqual(
            SHA256.hex(of: Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hex(of: []), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(
            SHA256.hex(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(
            SHA256.hex(of: [UInt8](repeating: 0x61, count: 1_000_000)),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Fed in pieces of any size, the digest is the one of the whole: every split of a message
    /// that crosses the padding's edge cases (55, 56, 63, 64 bytes).
    func testPiecesGiveTheDigestOfTheWhole() {
        for length in [0, 1, 55, 56, 57, 63, 64, 65, 127, 128, 200] {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let whole = SHA256.hex(of: message)
            for split in stride(from: 0, through: length, by: max(1, length / 7)) {
                var h = SHA256()
                h.update(Array(message[..<split]))
                h.update(Array(message[split...]))
                XCTAssertEqual(h.hex(), whole, "length \(length) split at \(split)")
            }
        }
    }
}
