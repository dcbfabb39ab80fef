import CLua
import CLuaShim
import MotionGestures

/// The `device` table of live pointer events (`{name=, kind=}`), made once per device and per
/// Lua state and kept in the registry: every event of that device gets the same table, set in
/// its pointer table by the C bridge (`ms_callpointerfrom`) without building a table or
/// interning strings per event, as pointers from files are passed. A script that writes into
/// `p.device` writes into that shared table (documented in docs/reference.md as read-only).
final class DeviceTables {
    /// By the device object's identity; the object is held so its identity is not reused.
    private var tables: [ObjectIdentifier: (device: PointerDevice, ref: Int32)] = [:]
    /// The last device asked for: consecutive events nearly always come from one device.
    private var last: (device: PointerDevice, ref: Int32)?
    /// The interned key "device".
    private var keyRef = LUA_NOREF

    /// A device that comes back is a new object: past this many, the oldest tables are
    /// forgotten (their references dropped), so a host running for months stays flat.
    static let limit = 64

    /// Room for a few devices made with the Lua state, at load: the first event would otherwise
    /// grow the dictionary, and instantiate its storage's type in the Swift runtime (some 24,000
    /// instructions, docs/performance.md "The first frames"), on the per-frame path.
    init() { tables.reserveCapacity(4) }

    /// The devices `tables` holds without growing (tests).
    var reservedDevices: Int { tables.capacity }

    /// The registry references of the key "device" and of `device`'s table in `L`; nil when
    /// the stack has no room to make them (the caller then builds the table the slow way).
    /// `refs(for:in:)` for the device of `e`, both LUA_NOREF for a pointer from an event file.
    /// The event is only borrowed: its device is compared in place, not copied out of it.
    func refs(of e: PointerEvent, in L: OpaquePointer) -> (key: Int32, table: Int32)? {
        guard let known = e.device else { return (LUA_NOREF, LUA_NOREF) }
        if let last, last.device === known { return (keyRef, last.ref) }
        return refs(for: known, in: L)
    }

    func refs(for device: PointerDevice, in L: OpaquePointer) -> (key: Int32, table: Int32)? {
        if let last, last.device === device { return (keyRef, last.ref) }
        if let entry = tables[ObjectIdentifier(device)] {
            last = entry
            return (keyRef, entry.ref)
        }
        guard lua_checkstack(L, 3) != 0 else { return nil }
        let lua = Lua(L)
        if keyRef == LUA_NOREF {
            lua.push("device")
            keyRef = luaL_ref(L, ms_registryindex())
        }
        if tables.count >= Self.limit {
            for entry in tables.values { luaL_unref(L, ms_registryindex(), entry.ref) }
            tables.removeAll()
        }
        lua.newTable(recordCount: 2)
        lua.push(device.name)
        lua.setField("name", in: -2)
        lua.push(device.kind)
        lua.setField("kind", in: -2)
        let ref = luaL_ref(L, ms_registryindex())
        let entry = (device: device, ref: ref)
        tables[ObjectIdentifier(device)] = entry
        last = entry
        return (keyRef, ref)
    }
}
