import Foundation
import Testing
@testable import WebParser

/// The check that a page's result is JSON text before anyone gets it.
@Suite struct JSONTextCheckTests {
    @Test(arguments: [
        "0", "-0", "1.5e-3", "-12E+4", "true", "false", "null", #""""#, #""a\"b\\c\/\b\f\n\r\t\u00e9""#,
        "[]", "{}", " [ 1 , { \"a\" : [ ] , \"b\" : { } } ] ", #"{"a":{"b":{"c":[null,true]}}}"#, "[[],[{}],{}]",
        #""\ud83d""#, #"["\udc00x","\ud83d\ude00"]"#, "\"café ☕ 😀\"", "\t\r\n1\n"
    ])
    func acceptsJSON(_ text: String) {
        #expect(JSONTextCheck.isJSON(Data(text.utf8)))
    }

    @Test(arguments: [
        "", " ", "[", "]", "{", "[1,]", "[,1]", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{a:1}", "{1:1}", "[1 2]",
        "01", "-", "1.", ".5", "1e", "+1", "NaN", "Infinity", "tru", "nul", "truex", "\"open", "\"a\\x\"", "\"\\u12\"",
        "\"\\u12g4\"", "\"tab\there\"", "\"line\nbreak\"", "1 2", "[1]]", "[}", "{]", "'a'", "[1] x"
    ])
    func refusesWhatIsNotJSON(_ text: String) {
        #expect(!JSONTextCheck.isJSON(Data(text.utf8)))
    }

    @Test func refusesInvalidUTF8() {
        #expect(!JSONTextCheck.isJSON(Data([0x22, 0xC3, 0x28, 0x22])))
        #expect(!JSONTextCheck.isJSON(Data([0x22, 0xED, 0xA0, 0xBD, 0x22])), "a raw (not escaped) surrogate is not UTF-8")
    }

    @Test func arraysAreCountedAtTheirTopLevel() {
        #expect(JSONTextCheck.arrayLength(of: Data("[]".utf8)) == 0)
        #expect(JSONTextCheck.arrayLength(of: Data(#"[[1,2],{"a":[3]}, "x" ,[]]"#.utf8)) == 4)
        #expect(JSONTextCheck.arrayLength(of: Data(#"{"a":[1,2]}"#.utf8)) == nil)
        #expect(JSONTextCheck.arrayLength(of: Data("[1,".utf8)) == nil)
        #expect(
            JSONTextCheck.arrayItems(of: Data(#"[ [1,2] , {"a":"],"} ,"x",3 ]"#.utf8))?.map { String(decoding: $0, as: UTF8.self) }
                == ["[1,2]", #"{"a":"],"}"#, #""x""#, "3"], "each element as written, whitespace around it left out")
        #expect(JSONTextCheck.arrayItems(of: Data("[ ]".utf8)) == [])
    }

    @Test func anyDepthIsChecked() {
        let depth = 200_000
        let nested = String(repeating: "[{\"a\":", count: depth) + "1" + String(repeating: "}]", count: depth)
        #expect(JSONTextCheck.isJSON(Data(nested.utf8)))
        #expect(!JSONTextCheck.isJSON(Data(nested.dropLast().utf8)))
    }
}
