import MotionGestures
import MotionJSON

/// The `app` field of a JSON Lines app line: `{"id":"firefox","class":…,"instance":…,
/// "title":…,"pid":…}` (only `id` required; a lone `class` stands for it), a name alone
/// (`"firefox"`), or null for no focused window. Other fields are ignored.
enum AppLineField {
    static func app(_ value: FlatJSON.Value) throws -> AppInfo? {
        switch value {
        case .null:
            return nil
        case .string(let name):
            guard name.bytes.count > 0 else { throw FlatJSON.Failure(message: "field \"app\" must not be an empty name") }
            return AppInfo(id: name.string)
        case .nested(let object):
            guard object.bytes.first == 123 else { throw bad }
            var id: String?, className: String?, instance: String?, title: String?
            var pid: Int?
            try FlatJSON.parse(object.bytes) { key, value in
                func text() throws -> String? {
                    switch value {
                    case .string(let s): return s.string
                    case .null: return nil
                    default: throw FlatJSON.Failure(message: "field \"app\": \"\(key.string)\" must be a string")
                    }
                }
                if key.equals("id") { id = try text() }
                else if key.equals("class") { className = try text() }
                else if key.equals("instance") { instance = try text() }
                else if key.equals("title") { title = try text() }
                else if key.equals("pid") {
                    switch value {
                    case .null: pid = nil
                    case .number(let n) where n == n.rounded() && abs(n) < 1e15: pid = Int(n)
                    default: throw FlatJSON.Failure(message: "field \"app\": \"pid\" must be an integer")
                    }
                }
            }
            guard let name = id ?? className, !name.isEmpty else {
                throw FlatJSON.Failure(message: "field \"app\" needs a non-empty \"id\" (or \"class\")")
            }
            return AppInfo(id: name, className: className, instance: instance, title: title, pid: pid)
        default:
            throw bad
        }
    }

    private static var bad: FlatJSON.Failure {
        FlatJSON.Failure(message: "field \"app\" must be an object {\"id\":…}, a name or null")
    }
}
