import MotionJSON
import Testing

/// What a reader made of a line: the value of its field "v", or the error's text.
enum Outcome: Equatable, CustomStringConvertible {
    case value(JSONValue)
    case error(String)

    var description: String {
        switch self {
        case .value(let v): return "value \(v)"
        case .error(let e): return "error \(e)"
        }
    }
}

/// `{"v":X}`: FlatJSON's field "v" (a nested value read as a tree), or its error.
func flatOutcome(_ line: [UInt8]) -> Outcome {
    do {
        var result: JSONValue?
        try line.withUnsafeBufferPointer { bytes in
            try FlatJSON.parse(bytes) { key, value in
                guard key.equals("v") else { return }
                switch value {
                case .number(let n): result = .number(n)
                case .string(let s): result = .string(s.string)
                case .bool(let b): result = .bool(b)
                case .null: result = .null
                case .nested(let text): result = try JSONValue.parse(bytes: Array(text.bytes))
                }
            }
        }
        return .value(result ?? .string("(no field v)"))
    } catch {
        return .error("\(error)")
    }
}

/// The same line as a tree: its field "v", or its error.
func treeOutcome(_ line: [UInt8]) -> Outcome {
    do {
        return .value(try JSONValue.parse(bytes: line)["v"] ?? .string("(no field v)"))
    } catch {
        return .error("\(error)")
    }
}

/// `{"v":` is 5 bytes: an error at byte `k` of X is at byte 5 + k of the line.
private func line(_ x: String) -> [UInt8] { Array("{\"v\":\(x)}".utf8) }
private func line(bytes x: [UInt8]) -> [UInt8] { Array("{\"v\":".utf8) + x + [125] }
private func at(_ k: Int, _ reason: String) -> Outcome { .error("byte \(5 + k): \(reason)") }

/// The one grammar, RFC 8259, for both readers: the in-place reader of input lines (FlatJSON)
/// and the tree (JSONValue) read every row alike, to the same value or the same error. The rows
/// are where the two readers differed before they shared one scanner (the value in front of each
/// row is what each one did then).
@Suite struct JSONGrammarTests {
    nonisolated(unsafe) static let rows: [(String, Outcome)] = [
        // Numbers: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
        ("0", .value(.number(0))),
        ("-0", .value(.number(-0.0))),
        ("-12.375", .value(.number(-12.375))),
        ("-12.375e2", .value(.number(-1237.5))),
        ("1E+2", .value(.number(100))),
        ("2.5e-3", .value(.number(0.0025))),
        ("1e-400", .value(.number(0))),  // too small rounds to zero, as decimals round
        ("12345678901234567890", .value(.number(12345678901234567890))),
        ("1.", at(2, "expected a digit after '.', found '}'")),  // before: flat 1, tree error
        (".5", at(0, "expected a value, found '.'")),  // before: flat 0.5
        ("-.5", at(1, "expected a digit after '-', found '.'")),  // before: flat -0.5
        ("01", at(0, "leading zero in a number")),  // before: both 1
        ("-01", at(0, "leading zero in a number")),  // before: both -1
        ("00.5", at(0, "leading zero in a number")),  // before: both 0.5
        ("-", at(1, "expected a digit after '-', found '}'")),
        ("1e", at(2, "expected a digit in the exponent, found '}'")),
        ("1e+", at(3, "expected a digit in the exponent, found '}'")),
        ("+5", at(0, "expected a value, found '+'")),  // before: flat 5
        ("1e400", at(0, "number out of range (larger than a double can hold)")),
        ("-1e309", at(0, "number out of range (larger than a double can hold)")),
        (String(repeating: "9", count: 400), at(0, "number out of range (larger than a double can hold)")),
        ("NaN", at(0, "expected a value, found 'N'")),
        ("Infinity", at(0, "expected a value, found 'I'")),
        ("-Infinity", at(1, "expected a digit after '-', found 'I'")),
        ("0x10", at(1, "expected ',' or '}', found 'x'")),
        ("1.5.3", at(3, "expected ',' or '}', found '.'")),
        ("1-2", at(1, "expected ',' or '}', found '-'")),  // before: flat error, its column at the number
        // Literals: true is not 1.
        ("true", .value(.bool(true))),
        ("1", .value(.number(1))),
        ("false", .value(.bool(false))),
        ("null", .value(.null)),
        ("tru", at(0, "invalid literal (expected true, false or null)")),
        ("True", at(0, "expected a value, found 'T'")),
        ("nullx", at(4, "expected ',' or '}', found 'x'")),
        // Strings: escapes, surrogate pairs, no raw control characters.
        (#""a\u0009b""#, .value(.string("a\tb"))),
        (#""\"\\\/\b\f\n\r\t""#, .value(.string("\"\\/\u{8}\u{C}\n\r\t"))),
        (#""\ud83d\ude00""#, .value(.string("😀"))),
        (#""\uD83D\uDE00""#, .value(.string("😀"))),
        ("\"é 😀\"", .value(.string("é 😀"))),
        ("\"a\tb\"", at(2, "control character U+0009 in a string (write it as an escape)")),  // before: flat read it
        ("\"a\u{1}b\"", at(2, "control character U+0001 in a string (write it as an escape)")),  // before: flat read it
        (#""\x""#, at(1, #"invalid escape '\x'"#)),  // before: flat "x"
        (#""\'""#, at(1, #"invalid escape '\''"#)),  // before: flat "'"
        (#""\u12""#, at(1, #"invalid \u escape (expected four hex digits)"#)),
        (#""\u12G4""#, at(1, #"invalid \u escape (expected four hex digits)"#)),
        (#""\ud800""#, at(1, #"unpaired surrogate in a \u escape"#)),  // before: flat U+FFFD
        (#""\udc00x""#, at(1, #"unpaired surrogate in a \u escape"#)),  // before: flat U+FFFD
        (#""\ud800\u0041""#, at(1, #"unpaired surrogate in a \u escape"#)),  // before: flat U+FFFD then "A"
        (#""\uDAAA\uAAAA""#, at(1, #"unpaired surrogate in a \u escape"#)),
        (#""abc"#, at(0, "unterminated string")),
        // Structure: no trailing commas, no comments, keys are strings.
        ("[1,2,[]]", .value(.array([.number(1), .number(2), .array([])]))),
        (#"{"a":{"b":[null]}}"#, .value(.object(["a": .object(["b": .array([.null])])]))),
        (" \t[ 1 ,\r2 ] ", .value(.array([.number(1), .number(2)]))),
        ("[1,]", at(2, "trailing comma before ']'")),  // before: flat read it
        (#"{"a":1,}"#, at(6, "trailing comma before '}'")),  // before: flat read it
        ("[1 2]", at(3, "expected ',' or ']', found '2'")),  // before: flat read it
        (#"{"a" 1}"#, at(5, "expected ':' after the key, found '1'")),  // before: flat read it
        ("{1:2}", at(1, "expected a string key, found '1'")),  // before: flat read it
        ("[1}", at(2, "expected ',' or ']', found '}'")),
        ("//c", at(0, "expected a value, found '/'")),
        ("[-]", at(2, "expected a digit after '-', found ']'")),  // before: flat read it (unparsed)
        (#"["\u00"]"#, at(2, #"invalid \u escape (expected four hex digits)"#)),  // before: flat read it
    ]

    @Test(arguments: rows.indices)
    func bothReadersReadTheRowAlike(row: Int) {
        let (x, expected) = Self.rows[row]
        #expect(treeOutcome(line(x)) == expected, "tree: \(x)")
        #expect(flatOutcome(line(x)) == expected, "flat: \(x)")
    }

    /// Duplicate keys: the tree refuses them (an expected file saying two things, a request
    /// naming its command twice); the input lines' reader takes the last, as it always did.
    @Test func duplicateKeysTheInputReaderTakesTheLastTheTreeRefuses() {
        let text = Array(#"{"v":1,"v":2}"#.utf8)
        #expect(flatOutcome(text) == .value(.number(2)))
        #expect(treeOutcome(text) == .error("byte 7: duplicate key \"v\""))
    }

    /// Strings are UTF-8 (RFC 8259 section 8.1): a byte sequence that is no character is an
    /// error at its first byte, in both readers (before: flat passed the bytes on, the tree read
    /// U+FFFD).
    @Test(arguments: [
        ([0xFF], 2), ([0xC0, 0x80], 2), ([0xC3], 2), ([0xE2, 0x82], 2), ([0xED, 0xA0, 0x80], 2),
        ([0xF4, 0x90, 0x80, 0x80], 2), ([0xF8, 0x88, 0x80, 0x80, 0x80], 2), ([0x80], 2),
        ([0x41, 0xE0, 0x80, 0x80], 3),
    ] as [([UInt8], Int)])
    func invalidUTF8InAStringIsAnError(sequence: [UInt8], offset: Int) {
        let text = line(bytes: [34, 97] + sequence + [34])
        #expect(flatOutcome(text) == at(offset, "invalid UTF-8 in a string"))
        #expect(treeOutcome(text) == at(offset, "invalid UTF-8 in a string"))
    }

    @Test func validUTF8OfEveryLengthIsRead() {
        let text = line(bytes: [34] + Array("$¢€𐍈\u{10FFFF}\u{FFFF}".utf8) + [34])
        #expect(flatOutcome(text) == .value(.string("$¢€𐍈\u{10FFFF}\u{FFFF}")))
        #expect(treeOutcome(text) == .value(.string("$¢€𐍈\u{10FFFF}\u{FFFF}")))
    }

    /// At most 512 arrays and objects open at once, in both readers, without recursion: a
    /// hostile line of any depth is an error at the 513th, not a stack overflow.
    @Test func nestingIsBoundedAt512LevelsWithAClearError() {
        // {"v": opens one: 511 more are fine.
        let fine = line(String(repeating: "[", count: 511) + String(repeating: "]", count: 511))
        if case .error(let e) = flatOutcome(fine) { Issue.record("flat: \(e)") }
        if case .error(let e) = treeOutcome(fine) { Issue.record("tree: \(e)") }
        for depth in [512, 100_000] {
            let deep = line(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
            #expect(flatOutcome(deep) == at(511, "nested deeper than 512 levels"), "\(depth)")
            #expect(treeOutcome(deep) == at(511, "nested deeper than 512 levels"), "\(depth)")
        }
        // An unclosed one is an error at the end.
        let open = line(String(repeating: "[", count: 100_000)).dropLast()
        #expect(flatOutcome(Array(open)) == at(511, "nested deeper than 512 levels"))
    }

    @Test func textAfterTheValueIsAnError() {
        #expect(flatOutcome(Array(#"{"v":1}x"#.utf8)) == .error("byte 7: unexpected 'x' after the value"))
        #expect(treeOutcome(Array(#"{"v":1}x"#.utf8)) == .error("byte 7: unexpected 'x' after the value"))
        #expect(flatOutcome(Array(#"{"v":1} "#.utf8)) == .value(.number(1)))
        #expect(treeOutcome(Array(#"{"v":1}"#.utf8) + [13]) == .value(.number(1)))
    }

    @Test func theEndOfTheTextIsNamedAsTheEnd() {
        #expect(flatOutcome(Array(#"{"v":"#.utf8)) == .error("byte 5: expected a value, found the end"))
        #expect(treeOutcome(Array(#"{"v":"#.utf8)) == .error("byte 5: expected a value, found the end"))
        #expect(flatOutcome(Array(#"{"v":1"#.utf8)) == .error("byte 6: expected ',' or '}', found the end"))
        #expect(treeOutcome([]) == .error("byte 0: expected a value, found the end"))
        #expect(treeOutcome([0]) == .error("byte 0: expected a value, found byte 0x00"))
    }

    /// The input lines' reader takes one object a line; the tree any value.
    @Test func anInputLineIsOneObject() {
        #expect(flatOutcome(Array("[1,2]".utf8)) == .error("byte 0: expected an object, found '['"))
        #expect(flatOutcome(Array("1".utf8)) == .error("byte 0: expected an object, found '1'"))
        #expect(flatOutcome([0]) == .error("byte 0: expected an object, found byte 0x00"))
        #expect(flatOutcome(Array(" \t".utf8)) == .error("byte 2: expected an object, found the end"))
        #expect(treeOutcome(Array("[1,2]".utf8)) == .value(.string("(no field v)")))
    }
}
