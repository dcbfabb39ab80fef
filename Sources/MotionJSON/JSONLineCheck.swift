#if canImport(Glibc)
import Glibc
#endif

/// A quick check that a line is JSON that `JSONValue.parse` accepts, without building its value:
/// checking an expected file this way costs a scan, not a tree per line. It reads the line with
/// the parser's own scanner (`JSONScanner`), so the grammar is the parser's; what it adds is the
/// parser's one other rule, no key twice in an object, for the keys it can compare as bytes
/// (ASCII, no escapes: equal exactly when their bytes are) in objects not too many or too deep.
/// For any other key it answers "not sure", and the caller parses the line, which gives the
/// exact answer and the error with its byte. So it never says "valid" for a line the parser
/// refuses, and a line it does not know costs only the parse it cost before.
public enum JSONLineCheck {
    /// Keys of the objects open at once that are remembered (for duplicates); more: not sure.
    static let maxKeys = 40
    /// Objects open at once whose keys are remembered; deeper: not sure.
    static let maxDepth = 32

    /// true only when `JSONValue.parse` accepts `line`; false means "parse it to know".
    public static func isSurelyValid(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        // Small enough to live on the stack (a heap block per line would cost more than the scan).
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * maxKeys + maxDepth + 1) { scratch in
            scan(line, scratch.baseAddress!)
        }
    }

    /// `scratch` holds the start and length of each remembered key, then the index of the first
    /// key of the object open at each depth.
    private static func scan(_ line: UnsafeBufferPointer<UInt8>, _ scratch: UnsafeMutablePointer<Int>) -> Bool {
        let firstKey = scratch + 2 * maxKeys
        var scanner = JSONScanner(line)
        var keyCount = 0
        do {
            while true {
                switch try scanner.next() {
                case .objectStart:
                    guard scanner.depth <= maxDepth else { return false }
                    firstKey[scanner.depth] = keyCount
                case .objectEnd:
                    keyCount = firstKey[scanner.depth + 1]
                case .key:
                    guard !scanner.escaped, scanner.ascii, keyCount < maxKeys, let b = line.baseAddress else { return false }
                    let start = scanner.start + 1, length = scanner.text.count
                    var k = firstKey[scanner.depth]
                    while k < keyCount {
                        if scratch[2 &* k &+ 1] == length, length == 0 || b[scratch[2 &* k]] == b[start],
                           memcmp(b + scratch[2 &* k], b + start, length) == 0 { return false }
                        k &+= 1
                    }
                    scratch[2 * keyCount] = start
                    scratch[2 * keyCount + 1] = length
                    keyCount += 1
                case .end:
                    return true
                default:
                    break
                }
            }
        } catch {
            return false
        }
    }
}
