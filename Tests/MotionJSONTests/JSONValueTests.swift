import MotionJSON
import Testing

/// The tree reader and its writer: what the control protocol and the desktops' replies rely on
/// now that JSONValue replaced JSONSerialization there.
@Suite struct JSONValueTests {
    @Test func aSwayNodeReadsAsJSONSerializationReadIt() throws {
        let reply = Array(#"{"focused":true,"type":"con","app_id":"foot","name":"~ — fish","pid":4242,"window_properties":null,"nodes":[]}"#.utf8)
        let node = try JSONValue.parse(bytes: reply)
        #expect(node.isObject)
        #expect(node["focused"]?.boolValue == true)
        #expect(node["app_id"]?.stringValue == "foot")
        #expect(node["name"]?.stringValue == "~ — fish")
        #expect(node["pid"]?.integerValue == 4242)
        #expect(node["window_properties"] == .null)
        #expect(node["window_properties"]?["class"] == nil)
        #expect(node["nodes"]?.arrayValue == [])
        #expect(node["missing"] == nil)
    }

    @Test func integerValueIsANumbersIntegerPartOrNil() throws {
        #expect(JSONValue.number(12.75).integerValue == 12)
        #expect(JSONValue.number(-3).integerValue == -3)
        #expect(JSONValue.number(1e300).integerValue == nil)
        #expect(JSONValue.string("12").integerValue == nil)
        #expect(JSONValue.bool(true).integerValue == nil)
    }

    @Test func textPutsIdAndOkFirstThenSortedKeysAndPrintsNumbersAsOutputLinesDo() throws {
        let answer = JSONValue.object(["z": .number(0.1 + 0.2), "ok": .bool(true), "a": .array([.number(3), .null, .string("a\"b\n")]),
                                       "id": .number(7)])
        #expect(answer.jsonText == #"{"id":7,"ok":true,"a":[3,null,"a\"b\n"],"z":0.30000000000000004}"#)
        #expect(try JSONValue.parse(answer.jsonText) == answer)
        #expect(JSONValue.number(.infinity).jsonText == "null")
        #expect(JSONText.number(1e21) == "1e+21")
        #expect(JSONText.string("\u{1}") == #""\u0001""#)
    }

    @Test func bytesThatAreNotOneValueAreAnErrorWithItsByte() {
        for (text, expected) in [(#"{"a":1}x"#, "byte 7: unexpected 'x' after the value"), (#"{"a":1,"a":2}"#, #"byte 7: duplicate key "a""#),
                                 (#"{"a":[1,]}"#, "byte 7: trailing comma before ']'")] {
            #expect(throws: JSONSyntaxError.self, "\(text)") { try JSONValue.parse(bytes: Array(text.utf8)) }
            do {
                _ = try JSONValue.parse(bytes: Array(text.utf8))
            } catch {
                #expect(error.description == expected, "\(text)")
            }
        }
    }
}
