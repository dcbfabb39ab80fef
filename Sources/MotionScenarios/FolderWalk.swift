#if canImport(Glibc)
import Glibc
#endif

/// What a scenario folder holds, read byte for byte: every `.lua` file found is run or
/// reported. A name that is not valid UTF-8, a folder that cannot be read, and an expected file
/// whose script is gone are reported, never skipped in silence. Hidden files and folders (`.git`,
/// `.build`) are skipped, and symbolic links to folders are not followed (no loops).
enum FolderWalk {
    enum Entry: Equatable {
        /// A `.lua` file, relative to the folder walked.
        case script(String)
        /// A `NAME.script` sidecar (the scenario's script is elsewhere), relative to the folder.
        case sidecar(String)
        /// Something that should have been a scenario and cannot be: its name in reports, its
        /// path relative to the folder, and why.
        case problem(name: String, path: String, reason: String)
    }

    static func entries(under folder: String) -> [Entry] {
        var entries: [Entry] = []
        walk(root: Array(folder.utf8), relative: [], depth: 0, into: &entries)
        return entries
    }

    private static let lua = Array(".lua".utf8)
    private static let expected = Array(".expected.jsonl".utf8)
    private static let sidecar = Array(ScenarioDiscovery.sidecarSuffix.utf8)

    private static func walk(root: [UInt8], relative: [UInt8], depth: Int, into entries: inout [Entry]) {
        let path = relative.isEmpty ? root : root + [0x2F] + relative
        guard depth < 64, let directory = (path + [0]).withUnsafeBufferPointer({ $0.withMemoryRebound(to: CChar.self) { opendir($0.baseAddress!) } }) else {
            let reason = depth < 64 ? String(cString: strerror(errno)) : "nested too deeply"
            entries.append(.problem(name: display(relative), path: display(relative), reason: "cannot read the folder \(display(relative)): \(reason)"))
            return
        }
        var children: [(name: [UInt8], type: UInt8)] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard name.first != 0x2E else { continue }  // ".", ".." and hidden
            children.append((name, entry.pointee.d_type))
        }
        closedir(directory)
        let names = Set(children.map(\.name))
        for (name, type) in children.sorted(by: { $0.name.lexicographicallyPrecedes($1.name) }) {
            let child = relative.isEmpty ? name : relative + [0x2F] + name
            var kind = type
            if type == UInt8(DT_UNKNOWN) {
                var info = stat()
                let full = root + [0x2F] + child + [0]
                if full.withUnsafeBufferPointer({ $0.withMemoryRebound(to: CChar.self) { lstat($0.baseAddress!, &info) } }) == 0 {
                    kind = UInt8(truncatingIfNeeded: (info.st_mode & UInt32(S_IFMT)) >> 12)  // DT_* is S_IF* >> 12
                }
            }
            let isLuaFile = name.count > lua.count && name.suffix(lua.count).elementsEqual(lua)
            // A NAME.lua that is not a file but has a scenario's files beside it would vanish from
            // the batch (and a FIFO would block its worker): it is reported instead.
            if isLuaFile, kind != UInt8(DT_REG), kind != UInt8(DT_LNK),
               kind != UInt8(DT_DIR) || hasScenarioFiles(beside: name.dropLast(lua.count), in: names) {
                let what = kind == UInt8(DT_DIR) ? "a folder" : kind == UInt8(DT_FIFO) ? "a FIFO"
                    : kind == UInt8(DT_SOCK) ? "a socket" : "a device or special file"
                entries.append(.problem(name: display(child.dropLast(lua.count)), path: display(child),
                                        reason: "\(display(name)) is \(what), not a script file"))
            }
            if kind == UInt8(DT_DIR) {
                walk(root: root, relative: child, depth: depth + 1, into: &entries)
            } else if isLuaFile, kind == UInt8(DT_REG) || kind == UInt8(DT_LNK) {
                if let text = String(validating: child, as: UTF8.self) {
                    entries.append(.script(text))
                } else {
                    entries.append(.problem(name: display(child.dropLast(lua.count)), path: display(child),
                                            reason: "the file name is not valid UTF-8 (\(display(name))); rename it to run it"))
                }
            } else if name.count > sidecar.count, name.suffix(sidecar.count).elementsEqual(sidecar),
                      kind != UInt8(DT_DIR), let text = String(validating: child, as: UTF8.self) {
                entries.append(.sidecar(text))
            } else if name.count > expected.count, name.suffix(expected.count).elementsEqual(expected),
                      !names.contains(name.dropLast(expected.count) + lua), !names.contains(name.dropLast(expected.count) + sidecar) {
                let base = display(child.dropLast(expected.count))
                entries.append(.problem(name: base, path: display(child),
                                        reason: "\(display(name)) has no script \(display(name.dropLast(expected.count) + lua)) beside it"))
            }
        }
    }

    /// True when an events or expected file of scenario `base` is among `names`.
    private static func hasScenarioFiles(beside base: ArraySlice<UInt8>, in names: Set<[UInt8]>) -> Bool {
        (ScenarioDiscovery.eventSuffixes + [ScenarioDiscovery.expectedSuffix]).contains { names.contains(Array(base) + Array($0.utf8)) }
    }

    /// The name for reports: printable ASCII and valid UTF-8 as they are, other bytes as `\xNN`.
    static func display<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let array = Array(bytes)
        if let text = String(validating: array, as: UTF8.self), !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return text
        }
        var out = ""
        for byte in array {
            if byte >= 0x20 && byte < 0x7F {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }
}
