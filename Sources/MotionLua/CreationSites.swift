import CLua
import MotionGestures

/// Where in the script a recognizer was made: the source file and line of each Lua function
/// on the stack at that moment, innermost first (`local swipe3 = motion.swipe{…}` is line 1's,
/// `left = makeSwipe("left")` a caller's). The whole stack is recorded only when
/// `LuaRuntime.recordsCreationSites` is on (`plot`): a picture names a recognizer after the
/// variable it was assigned to (see RecognizerNames in MotionPlot). The innermost line is
/// always kept on the recognizer, for monitors (`GestureRecognizer.creationSite`).
public typealias CreationSite = SourceLocation

extension LuaRuntime {
    /// How many calling functions a creation site keeps: enough for a helper that makes the
    /// recognizer and the line that assigns its result.
    static let creationSiteDepth = 4

    /// Notes where `recognizer` is being made: the innermost script line always, on the
    /// recognizer (`creationSite`, what a monitor names it by; recognizers are made at setup,
    /// not per event), and the calling lines too if asked to. lua_getstack and lua_getinfo with
    /// "Sl" neither allocate nor raise.
    func noteCreationSite(of recognizer: GestureRecognizer, _ L: OpaquePointer) {
        var sites: [CreationSite] = []
        var level: Int32 = 0
        var ar = lua_Debug()
        let depth = recordsCreationSites ? Self.creationSiteDepth : 1
        while sites.count < depth, lua_getstack(L, level, &ar) != 0 {
            level += 1
            guard lua_getinfo(L, "Sl", &ar) != 0, ar.currentline > 0, let source = ar.source,
                  source.pointee == UInt8(ascii: "@") else { continue }
            sites.append(CreationSite(file: String(cString: source + 1), line: Int(ar.currentline)))
        }
        recognizer.creationSite = sites.first
        if recordsCreationSites { creationSites[ObjectIdentifier(recognizer)] = sites }
    }
}
