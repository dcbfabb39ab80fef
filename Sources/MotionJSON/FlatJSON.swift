/// The reader of one JSON object per line (`{"t":0.0,"id":1,"phase":"down",...}`), on the one
/// grammar (`JSONScanner`): numbers, strings, booleans and null as values; nested objects and
/// arrays are checked by the same scanner and handed out as `.nested` with their bytes,
/// unparsed (the reader ignores extra fields). Anything else is a `JSONSyntaxError`. A key
/// given twice is handed out twice (the event reader keeps the last).
/// It reads the line's bytes in place: keys and strings are handed out as bytes (valid during
/// the callback) and plain decimals are converted exactly without strtod, so a line costs no heap
/// allocation and no String.
public struct FlatJSON {
    /// Bytes of a key or string value (escapes already decoded).
    public struct Text: Equatable {
        public let bytes: UnsafeBufferPointer<UInt8>

        @inlinable public init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        @inlinable @inline(__always) public func equals(_ text: StaticString) -> Bool {
            guard bytes.count == text.utf8CodeUnitCount else { return false }
            for k in 0..<bytes.count where bytes[k] != text.utf8Start[k] { return false }
            return true
        }

        public var string: String { String(decoding: bytes, as: UTF8.self) }

        @inlinable public static func == (a: Text, b: Text) -> Bool { a.bytes.elementsEqual(b.bytes) }
    }

    public enum Value: Equatable {
        case number(Double)
        case string(Text)
        case bool(Bool)
        case null
        /// A nested object or array: its bytes, brackets included, for a caller that reads it.
        case nested(Text)
    }

    /// What a caller finds wrong with a well-formed line (a field of the wrong type).
    public struct Failure: Error {
        public let message: String

        public init(message: String) {
            self.message = message
        }
    }

    /// Calls `field` for each key/value pair of the object in `bytes`. Throws a
    /// `JSONSyntaxError` for a text that is not one JSON object, or what `field` throws.
    @inlinable public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, field: (Text, Value) throws -> Void) throws {
        var scanner = JSONScanner(bytes)
        // Strings that had escapes (rare), decoded and kept alive until the parse ends.
        var decoded: [[UInt8]] = []
        try scanner.expectObject()
        _ = try scanner.next()
        while true {
            let token = try scanner.next()
            guard token == .key else { break }  // .objectEnd: the scanner allows nothing else here
            let key = text(&scanner, &decoded)
            let value: Value
            switch try scanner.next() {
            case .string: value = .string(text(&scanner, &decoded))
            case .number: value = .number(scanner.number)
            case .literalTrue: value = .bool(true)
            case .literalFalse: value = .bool(false)
            case .objectStart, .arrayStart:
                let start = scanner.start
                try scanner.skipContainer()
                value = .nested(Text(bytes: UnsafeBufferPointer(rebasing: bytes[start..<scanner.offset])))
            default: value = .null  // after a key: a value, so null
            }
            try field(key, value)
        }
        _ = try scanner.next()  // .end, or the error of what follows the object
    }

    /// The string or key the scanner just read: its bytes in place, or decoded into `decoded`.
    /// (The scanner is passed inout: by value it would be copied at each call.)
    @inlinable @inline(__always) static func text(_ scanner: inout JSONScanner, _ decoded: inout [[UInt8]]) -> Text {
        guard scanner.escaped else { return Text(bytes: scanner.text) }
        var out: [UInt8] = []
        scanner.decode(into: &out)
        decoded.append(out)
        return decoded[decoded.count - 1].withUnsafeBufferPointer { Text(bytes: $0) }
    }
}
