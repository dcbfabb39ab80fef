import MotionGestures
import Testing
@testable import MotionDesktop

/// The wlroots provider's decisions over the foreign-toplevel events (the wire itself is run
/// against headless sway by scripts/test-desktop).
@Suite struct ForeignToplevelsTests {
    @Test func theActivatedWindowIsTheFocusOnceItsDoneArrives() {
        var list = ForeignToplevels()
        list.appId(1, "foot")
        list.title(1, "~")
        list.state(1, activated: true)
        #expect(list.focus == nil)  // not applied before its done
        list.done(1)
        #expect(list.focus == AppInfo(id: "foot", title: "~"))
        // A title change of the focused window is a change.
        list.title(1, "vim")
        list.done(1)
        #expect(list.focus == AppInfo(id: "foot", title: "vim"))
    }

    @Test func focusMovesToTheWindowActivatedLastAndToNoneWhenItCloses() {
        var list = ForeignToplevels()
        for (handle, id) in [(UInt(1), "one"), (2, "two")] {
            list.appId(handle, id)
            list.state(handle, activated: false)
            list.done(handle)
        }
        #expect(list.focus == nil)
        list.state(2, activated: true)
        list.done(2)
        #expect(list.focus?.id == "two")
        // Both activated for a moment (the new one's done first): the later one is focused.
        list.state(1, activated: true)
        list.done(1)
        #expect(list.focus?.id == "one")
        list.state(2, activated: false)
        list.done(2)
        #expect(list.focus?.id == "one")
        list.closed(1)
        #expect(list.focus == nil)
        #expect(list.count == 1)
    }

    @Test func aWindowWithoutAnAppIdIsNoApplication() {
        var list = ForeignToplevels()
        list.title(7, "untitled")
        list.state(7, activated: true)
        list.done(7)
        #expect(list.focusedHandle == 7)
        #expect(list.focus == nil)
    }
}
