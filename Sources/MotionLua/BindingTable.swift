import CLua
import CLuaShim
import MotionStreams
#if canImport(Glibc)
import Glibc
#endif

/// A Swift function callable from Lua. It never raises: it returns the number of results
/// it pushed, or throws, and the dispatcher turns the throw into a Lua error raised by the C
/// trampoline after every Swift frame has returned.
public typealias LuaBinding = (LuaCall) throws -> Int32

/// Every binding, registered once per process; a Lua closure refers to one by index.
///
/// Thread safety (`motionscript test --jobs` runs one Lua state per thread): the method tables
/// are static lets, filled lazily by whichever thread first touches them, so two threads may
/// register at once. `register` therefore appends under a lock into fixed storage that never
/// moves, and `binding(at:)` reads without one: a slot is written before its index is
/// published through the static let's once-token, and is never written again.
enum BindingTable {
    typealias Entry = (name: String, body: LuaBinding)

    static let capacity = 4096
    private nonisolated(unsafe) static let storage = UnsafeMutablePointer<Entry>.allocate(capacity: capacity)
    private nonisolated(unsafe) static var count = 0
    private static let lock = BindingLock()

    static func register(_ name: String, _ body: @escaping LuaBinding) -> Int {
        lock.withLock {
            precondition(count < capacity, "BindingTable: more than \(capacity) bindings")
            (storage + count).initialize(to: (name, body))
            count += 1
            return count - 1
        }
    }

    static func binding(at index: Int) -> Entry { storage[index] }

    /// Registers every binding now (the first LuaRuntime does this), so worker threads
    /// mostly find the tables ready.
    static func registerAll() { _ = allRegistered }

    private static let allRegistered: Int = {
        var total = MotionModule.functions.count + StreamMethods.all.count + PropertyMethods.all.count
        total += SubscriptionMethods.all.count + RecognizerMethods.all.count + GestureMethods.all.count
        total += RecognizerMethods.index + RecognizerMethods.newIndex + ElementMethods.index
        total += GestureMethods.index + GestureMethods.toString
        return total
    }()

    /// Pushes a Lua function that calls binding `index`. With `withUpvalue`, the value on top
    /// of the stack becomes upvalue 3 (e.g. a methods table for an `__index` function).
    static func push(_ index: Int, on lua: Lua, withUpvalue: Bool = false) {
        lua_pushinteger(lua.L, lua_Integer(index))
        if withUpvalue { lua_rotate(lua.L, -2, 1) }
        ms_pushswiftclosure(lua.L, bindingEntry, withUpvalue ? 2 : 1)
    }

    /// Pushes a table of the given named bindings.
    static func pushTable(_ methods: [(String, Int)], on lua: Lua) {
        lua.newTable(recordCount: Int32(methods.count))
        for (name, index) in methods {
            push(index, on: lua)
            lua.setField(name, in: -2)
        }
    }
}

/// The one C-callable entry of all bindings: upvalue 2 is the binding's index.
private let bindingEntry: ms_SwiftFunction = { state in
    guard let L = state else { return 0 }
    let index = Int(lua_tointegerx(L, ms_upvalueindex(2), nil))
    let runtime = LuaRuntime.owner(of: L)
    let (name, body) = BindingTable.binding(at: index)
    let lua = Lua(L)
    let saved = runtime.activeState
    runtime.activeState = L
    defer { runtime.activeState = saved }
    do {
        let results = try body(LuaCall(lua: lua, runtime: runtime, name: name))
        // A callback run by this binding raised: carry its error into the calling script,
        // which now owns it (a `pcall` there may handle it).
        if let error = runtime.takePendingError() {
            lua.push(error.message)
            return MS_RAISE
        }
        return results
    } catch let error as OptionError {
        lua.push(lua.whereString(level: 1) + "\(name): \(error)")
        return MS_RAISE
    } catch let error as LuaBindingError {
        lua.push(lua.whereString(level: 1) + error.message)
        return MS_RAISE
    } catch {
        lua.push(lua.whereString(level: 1) + "\(error)")
        return MS_RAISE
    }
}

/// A pthread mutex (no Foundation in this module).
final class BindingLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    init() { pthread_mutex_init(mutex, nil) }
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
