import XCTest

@testable import LayoutSnapCore

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

    /// The SHA extensions give the portable compression's digest for every length around the
    /// block edges and for many blocks at once, fed whole or in pieces. (This machine has them;
    /// where it does not, the test is skipped: there is nothing to compare.)
    func testTheSHAExtensionsGiveThePortableDigest() throws {
        try XCTSkipUnless(SHA256.cpuHasExtensions, "this CPU has no SHA extensions")
        var generator = SystemRandomNumberGenerator()
        for length in Array(0...300) + [1000, 4096, 65_537, 1 << 20] {
            let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var portable = SHA256(hardware: false)
            portable.update(message)
            var fast = SHA256()
            fast.update(message)
            let expected = portable.hex()
            XCTAssertEqual(fast.hex(), expected, "length \(length)")
            let split = length / 3
            var pieces = SHA256()
            pieces.update(Array(message[..<split]))
            pieces.update(Array(message[split...]))
            XCTAssertEqual(pieces.hex(), expected, "length \(length) split at \(split)")
        }
    }
}
