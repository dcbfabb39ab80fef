import CLua
import MotionGestures

/// Where in the script a recognizer was made: the source file and line of each Lua function
/// on the stack at that moment, innermost first (`local swipe3 = motion.swipe{…}` is line 1's,
/// `left = makeSwipe("left")` a caller's). Recorded only when `LuaRuntime.recordsCreationSites`
/// is on (`plot`), so runs pay nothing for it; a picture names a recognizer after the variable
/// it was assigned to (see RecognizerNames in MotionPlot).
public struct CreationSite: Equatable, Sendable {
    public var file: String
    public var line: Int
}

extension LuaRuntime {
    /// How many calling functions a creation site keeps: enough for a helper that makes the
    /// recognizer and the line that assigns its result.
    static let creationSiteDepth = 4

    /// Notes where `recognizer` is being made, if asked to. lua_getstack and lua_getinfo with
    /// "Sl" neither allocate nor raise.
    func noteCreationSite(of recognizer: GestureRecognizer, _ L: OpaquePointer) {
        guard recordsCreationSites else { return }
        var sites: [CreationSite] = []
        var level: Int32 = 0
        var ar = lua_Debug()
        while sites.count < Self.creationSiteDepth, lua_getstack(L, level, &ar) != 0 {
            level += 1
            guard lua_getinfo(L, "Sl", &ar) != 0, ar.currentline > 0, let source = ar.source,
                  source.pointee == UInt8(ascii: "@") else { continue }
            sites.append(CreationSite(file: String(cString: source + 1), line: Int(ar.currentline)))
        }
        creationSites[ObjectIdentifier(recognizer)] = sites
    }
}
