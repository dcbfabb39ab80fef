import Foundation
import Testing
@testable import MotionPluginHost
@testable import MotionRun
import MotionGestures
import MotionLua
import MotionStreams
import MotionTestSupport

/// The LuaLS definitions can never drift from the bindings: every name the runtime binds is
/// annotated and every annotation is bound, read from a live runtime.
@Suite struct LuaDefinitionsTests {
    /// Names fixed by the contract whose bindings are being built elsewhere: annotated ahead,
    /// tolerated while unbound. Remove a name here once it is bound.
    static let pending: Set<String> = []
    /// Recognizer options being built elsewhere, tolerated while a factory does not know them yet.
    static let pendingOptions: Set<String> = []

    /// Pending, directly or as a stream method that properties inherit.
    static func isPending(_ name: String) -> Bool {
        pending.contains(name) || (name.hasPrefix("Property:") && pending.contains("Stream:" + name.dropFirst(9)))
    }

    @Test func everyBindingIsAnnotatedAndEveryAnnotationBound() throws {
        let definitions = Definitions(LuaDefinitions.text)
        let bound = try runtimeNames()
        let annotated = definitions.names
        let unannotated = bound.subtracting(annotated).sorted()
        let unbound = annotated.subtracting(bound).filter { !Self.isPending($0) }.sorted()
        #expect(unannotated == [], "bound but not in \(LuaDefinitions.relativePath)")
        #expect(unbound == [], "annotated but not bound (add to `pending` only if the contract names it)")
        #expect(bound.count > 60)
        #expect(bound.contains("Stream:startWith") && bound.contains("motion.tap") && bound.contains("Gesture:location"))
    }

    @Test func everyAnnotatedFieldReadsOnALiveObject() throws {
        let definitions = Definitions(LuaDefinitions.text)
        for (className, probe) in [("motion.Recognizer", "motion.tap{}"), ("motion.Element", "motion.screen"),
                                   ("motion.Gesture", "gestureValue")] {
            // `g.app` is nil while the focus is unknown, as it is here (PerAppTests reads it).
            let fields = definitions.fields(of: className).subtracting(className == "motion.Gesture" ? ["app"] : [])
            #expect(!fields.isEmpty, "\(className)")
            let missing = try luaList("""
                local gestureValue
                motion.gesture(motion.pan{}):subscribe(function(g) gestureValue = g end)
                local object = \(probe)
                local missing = {}
                for _, field in ipairs({\(fields.map { "\"\($0)\"" }.joined(separator: ", "))}) do
                  if object[field] == nil then missing[#missing + 1] = field end
                end
                return missing
                """)
            #expect(missing == [], "\(className)")
        }
    }

    /// Issue 22: the definitions said `PointerEvent.device` was a string (a table) and nothing
    /// noticed. Every annotated field of a live object (recognizer, element, gesture values of
    /// each kind, a swipe's, a pointer event from a device) must have a value of its annotated type.
    @Test func everyAnnotatedFieldHasItsAnnotatedType() throws {
        let definitions = Definitions(LuaDefinitions.text)
        let classes = ["motion.Recognizer", "motion.Element", "motion.Gesture", "motion.SwipeGesture",
                       "motion.PointerEvent", "motion.PointerDevice"]
        func list(_ className: String) -> String {
            "{" + definitions.fields(of: className, inherited: true).sorted().map { "\"\($0)\"" }.joined(separator: ", ") + "}"
        }
        let folder = makeTemporaryFolder("definitions")
        let script = writeFile("""
            local function describe(v)
              local t = type(v)
              if t == "number" then return math.type(v) end
              if t == "string" then return "string:" .. v end
              if t == "table" and type(v.x) == "number" and type(v.y) == "number" then return "point" end
              if t == "userdata" and v.width ~= nil then return "element" end
              return t
            end
            local function probe(className, object, fields)
              local out = {}
              for _, f in ipairs(fields) do out[#out + 1] = className .. " " .. f .. " " .. describe(object[f]) end
              motion.emit("types", out)
            end
            local pan = motion.pan{}
            probe("motion.Recognizer", pan, \(list("motion.Recognizer")))
            probe("motion.Element", motion.screen, \(list("motion.Element")))
            motion.gesture(pan):subscribe(function(g)
              if g.state == "ended" then probe("motion.Gesture", g, \(list("motion.Gesture"))) end
            end)
            motion.swipe{fingers = 1}:on("recognized", function(g) probe("motion.SwipeGesture", g, \(list("motion.SwipeGesture"))) end)
            motion.pointers():subscribe(function(p)
              if p.phase == "down" then
                probe("motion.PointerEvent", p, \(list("motion.PointerEvent")))
                probe("motion.PointerDevice", p.device, \(list("motion.PointerDevice")))
              end
            end)
            """, "types.lua", in: folder)
        let output = ListOutput()
        let runtime = try LuaRuntime(scriptPath: script, output: output)
        defer { runtime.close() }
        try runtime.load()
        let pad = PointerDevice(name: "pad", kind: "touchpad")
        try runtime.handle(Frame(t: 0, events: [PointerEvent(t: 0, id: 1, phase: .down, x: 0, y: 0, device: pad)]))
        try runtime.handle(Frame(t: 0.1, events: [PointerEvent(t: 0.1, id: 1, phase: .move, x: 40, y: 0, device: pad)]))
        try runtime.handle(Frame(t: 0.2, events: [PointerEvent(t: 0.2, id: 1, phase: .up, x: 40, y: 0, device: pad)]))
        var seen: Set<String> = []
        for case .array(let items) in output.values {
            for case .string(let line) in items {
                let parts = line.split(separator: " ").map(String.init)
                seen.insert(parts[0])
                let annotated = definitions.fieldType(of: parts[0], parts[1])
                #expect(definitions.accepts(annotated, parts[2]), "\(parts[0]).\(parts[1]) is annotated \(annotated) but is \(parts[2])")
            }
        }
        #expect(seen == Set(classes))
    }

    @Test func everyFieldTheBindingsServeIsAnnotated() throws {
        // Fields are served by `__index` switches, which cannot be enumerated from Lua: read
        // their `case "name":` labels from the binding sources.
        let definitions = Definitions(LuaDefinitions.text)
        let bindings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/MotionLua/bindings")
        for (file, className) in [("RecognizerMethods.swift", "motion.Recognizer"), ("ElementMethods.swift", "motion.Element"),
                                  ("GestureMethods.swift", "motion.Gesture")] {
            let source = try String(contentsOf: bindings.appendingPathComponent(file), encoding: .utf8)
            let index = source.components(separatedBy: "static let index")[1].components(separatedBy: "default:")[0]
            let served = Set(allCaptures(#"case "([A-Za-z]+)":"#, in: index))
            #expect(served.count >= 5, "\(file)")
            #expect(served.subtracting(definitions.fields(of: className)).sorted() == [], "\(className)")
        }
    }

    @Test func everyOptionTableMatchesWhatItsFunctionAccepts() throws {
        let definitions = Definitions(LuaDefinitions.text)
        let cases: [(call: String, className: String)] = [
            ("motion.element({__probe = 1})", "motion.ElementOptions"),
            ("motion.translation({__probe = 1})", "motion.TranslationOptions"),
            ("motion.pan({__probe = 1})", "motion.TranslationOptions"),
            ("motion.rotation({__probe = 1})", "motion.RotationOptions"),
            ("motion.scale({__probe = 1})", "motion.ScaleOptions"),
            ("motion.tap({__probe = 1})", "motion.TapOptions"),
            ("motion.swipe({__probe = 1})", "motion.SwipeOptions"),
            ("motion.hold({__probe = 1})", "motion.HoldOptions"),
            ("motion.spring({__probe = 1})", "motion.SpringOptions"),
            ("motion.tween({__probe = 1})", "motion.TweenOptions"),
            ("motion.property(0, {__probe = 1})", "motion.PropertyOptions"),
        ]
        var checked = 0
        for (call, className) in cases {
            let function = String(call.prefix { $0 != "(" })
            let message = try luaList("""
                if \(function) == nil then return {} end
                local ok, err = pcall(function() return \(call) end)
                return {tostring(err)}
                """)
            if message.isEmpty {
                #expect(Self.pending.contains(function), "\(function) is not bound")
                continue
            }
            checked += 1
            guard let known = captures(#"known: ([^)]*)\)"#, in: message[0])?[0] else {
                Issue.record("\(call): no list of known options in \(message[0])")
                continue
            }
            let accepted = Set(known.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            let annotated = definitions.fields(of: className, inherited: true)
            #expect(accepted.subtracting(annotated).sorted() == [], "\(className): accepted but not annotated")
            #expect(annotated.subtracting(accepted).subtracting(Self.pendingOptions).sorted() == [],
                    "\(className): annotated but not accepted")
        }
        #expect(checked >= 9)
    }

    @Test func theEmbeddedTextIsTheRepositoryFile() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/MotionPluginHost/definitions/motion.lua")
        #expect(try String(contentsOf: file, encoding: .utf8) == LuaDefinitions.text)
        #expect(LuaDefinitions.text.hasPrefix("---@meta motion"))
    }

    @Test func theDefinitionFileIsValidLua54() throws {
        // Loaded as a script it only defines empty functions (and replaces `motion`).
        let folder = makeTemporaryFolder("definitions")
        let script = writeFile("local defined = (function()\n" + LuaDefinitions.text
                               + "\nend)()\nassert(type(defined.tap) == 'function' and defined.mouse.move)\n",
                               "defs.lua", in: folder)
        let runtime = try LuaRuntime(scriptPath: script, output: ListOutput())
        defer { runtime.close() }
        try runtime.load()
    }

    @Test func theRepositoryLuarcPointsAtTheDefinitions() throws {
        let data = try Data(contentsOf: repositoryRoot.appendingPathComponent(".luarc.json"))
        let settings = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(settings["runtime.version"] as? String == "Lua 5.4")
        let library = try #require(settings["workspace.library"] as? [String])
        #expect(library == ["Sources/MotionPluginHost/definitions"])
        #expect(FileManager.default.fileExists(atPath: repositoryRoot.appendingPathComponent(library[0] + "/motion.lua").path))
    }

    /// Every name bound in a fresh runtime: `motion.X` (one level into sub-tables) and
    /// `Class:method` for each metatable's methods.
    private func runtimeNames() throws -> Set<String> {
        Set(try luaList("""
            local names = {}
            for k, v in pairs(motion) do
              names[#names + 1] = "motion." .. k
              if type(v) == "table" then
                for k2 in pairs(v) do names[#names + 1] = "motion." .. k .. "." .. k2 end
              end
            end
            local registry = debug.getregistry()
            for _, class in ipairs({"Stream", "Property", "Subscription", "Recognizer", "Element", "Gesture"}) do
              local index = registry["motion." .. class].__index
              if type(index) == "function" then
                local _, methods = debug.getupvalue(index, 3)
                index = methods
              end
              for k in pairs(index) do names[#names + 1] = class .. ":" .. k end
            end
            return names
            """))
    }

    /// Runs `body` (a Lua chunk returning a list of strings) in a fresh runtime.
    private func luaList(_ body: String) throws -> [String] {
        let folder = makeTemporaryFolder("definitions")
        let script = writeFile("""
            local list = (function()
            \(body)
            end)()
            motion.emit("list", list)
            """, "probe.lua", in: folder)
        let output = ListOutput()
        let runtime = try LuaRuntime(scriptPath: script, output: output)
        defer { runtime.close() }
        try runtime.load()
        guard case .array(let items)? = output.values.first else { return [] }
        return items.compactMap { if case .string(let s) = $0 { s } else { nil } }
    }
}

private final class ListOutput: MotionOutput {
    var values: [MotionValue] = []
    func emit(t: Double, name: String, value: MotionValue) { values.append(value) }
    func emit(t: Double, name: String, state: MotionState) {}
    func log(_ line: String) {}
}

/// The names a LuaLS definition file declares, read the way it is written: `---@class` blocks
/// with `---@field` lines, `local X = {}` naming a class's method table, `function motion.f(`,
/// `function X:m(` and `motion.t = {}`.
struct Definitions {
    private(set) var classFields: [String: [String]] = [:]
    /// `---@field name? type`: the annotated type of each class's fields ("?" appended when optional).
    private(set) var fieldTypes: [String: [String: String]] = [:]
    /// `---@alias name type`.
    private(set) var aliases: [String: String] = [:]
    private(set) var parents: [String: String] = [:]
    private(set) var names: Set<String> = []

    init(_ text: String) {
        var currentClass: String?
        var tables: [String: String] = [:]  // local name → class
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if let m = captures(#"^---@class\s+([\w.]+)(?:\s*:\s*([\w.]+))?"#, in: line), let name = m[0] {
                currentClass = name
                classFields[name, default: []] += []
                if let parent = m[1] { parents[name] = parent }
            } else if let m = captures(#"^---@field\s+(\w+)\??\s"#, in: line), let field = m[0], let currentClass {
                classFields[currentClass, default: []].append(field)
                if let t = captures(#"^---@field\s+\w+(\??)\s+(\S+)"#, in: line), let type = t[1] {
                    fieldTypes[currentClass, default: [:]][field] = type + (t[0] ?? "")
                }
            } else if let m = captures(#"^---@alias\s+([\w.]+)\s+(\S+)"#, in: line), let name = m[0], let type = m[1] {
                aliases[name] = type
            } else if let m = captures(#"^local\s+(\w+)\s*=\s*\{\}"#, in: line), let table = m[0], let currentClass {
                tables[table] = currentClass
            } else if let m = captures(#"^function\s+(motion(?:\.\w+)+)\s*\("#, in: line), let name = m[0] {
                names.insert(name)
            } else if let m = captures(#"^function\s+(\w+):(\w+)\s*\("#, in: line), let table = m[0],
                      let method = m[1], let owner = tables[table] {
                names.insert(Self.shortName(owner) + ":" + method)
            } else if let m = captures(#"^(motion\.\w+)\s*=\s*\{\}"#, in: line), let name = m[0] {
                names.insert(name)
            }
            if !line.hasPrefix("---") { currentClass = nil }
        }
        for field in classFields["motion"] ?? [] { names.insert("motion." + field) }
        // A subclass's metatable carries its parent's methods too (properties are streams).
        for (child, parent) in parents where tables.values.contains(child) {
            let inherited = names.filter { $0.hasPrefix(Self.shortName(parent) + ":") }
            for name in inherited { names.insert(Self.shortName(child) + name.drop { $0 != ":" }) }
        }
    }

    /// A field's annotated type, looked up in the class and its parents.
    func fieldType(of className: String, _ field: String) -> String {
        if let type = fieldTypes[className]?[field] { return type }
        return parents[className].map { fieldType(of: $0, field) } ?? "(none)"
    }

    /// Whether a value described as `actual` (`integer`, `float`, `string:TEXT`, `boolean`,
    /// `point`, `element`, `table`, `nil`, …) is of the annotated `type`.
    func accepts(_ type: String, _ actual: String) -> Bool {
        var type = type
        if type.hasSuffix("?") {
            if actual == "nil" { return true }
            type.removeLast()
        }
        return type.split(separator: "|").contains { alternative in
            let a = String(alternative)
            if let alias = aliases[a] { return accepts(alias, actual) }
            switch a {
            case "number": return actual == "integer" || actual == "float"
            case "integer": return actual == "integer"
            case "string": return actual.hasPrefix("string:")
            case "boolean": return actual == "boolean"
            case "motion.Point": return actual == "point"
            case "motion.Element": return actual == "element"
            default:
                if a.hasPrefix("\""), a.hasSuffix("\"") { return actual == "string:" + a.dropFirst().dropLast() }
                if a.hasSuffix("[]") { return actual == "table" }
                if classFields[a] != nil { return actual == "table" || actual == "userdata" }
                return false
            }
        }
    }

    func fields(of className: String, inherited: Bool = false) -> Set<String> {
        var result = Set(classFields[className] ?? [])
        if inherited, let parent = parents[className] { result.formUnion(fields(of: parent, inherited: true)) }
        return result
    }

    private static func shortName(_ className: String) -> String {
        String(className.split(separator: ".").last ?? Substring(className))
    }
}

/// The capture groups of the first match of `pattern` in `text` (nil for a group that did not
/// take part), or nil without a match.
func captures(_ pattern: String, in text: String) -> [String?]? {
    guard let match = text.firstMatch(of: try! Regex(pattern)) else { return nil }
    return (1..<match.output.count).map { match.output[$0].substring.map(String.init) }
}

/// The first capture group of every match of `pattern` in `text`.
func allCaptures(_ pattern: String, in text: String) -> [String] {
    text.matches(of: try! Regex(pattern)).compactMap { $0.output[1].substring.map(String.init) }
}
