import Testing
@testable import MotionGestures

@Suite struct AppFilterTests {
    private let firefox = AppInfo(id: "firefox", className: "Firefox", instance: "Navigator")

    @Test func namesMatchTheIdClassOrInstanceWhateverTheCase() {
        #expect(AppFilter(["FIREFOX"])!.admits(firefox))
        #expect(AppFilter(["navigator"])!.admits(firefox))
        #expect(!AppFilter(["chromium"])!.admits(firefox))
        #expect(AppFilter(["chromium", "Firefox"])!.admits(firefox))
    }

    @Test func aLeadingBangExcludesAndAdmitsEverythingElse() {
        let notKitty = AppFilter(["!kitty"])!
        #expect(notKitty.admits(firefox))
        #expect(!notKitty.admits(AppInfo(id: "Kitty")))
        // No window focused: only a filter of exclusions admits it.
        #expect(notKitty.admits(nil))
        #expect(!AppFilter(["firefox"])!.admits(nil))
        #expect(!AppFilter(["firefox", "!firefox"])!.admits(firefox))
    }

    @Test func emptyNamesAreRefused() {
        #expect(AppFilter([""]) == nil)
        #expect(AppFilter(["!"]) == nil)
    }
}

@Suite struct AppFocusTests {
    @Test func changesAreHeardOnceAndRecentAppsResolveBySerial() {
        let focus = AppFocus()
        var heard: [String?] = []
        focus.addListener { heard.append($0?.id) }
        focus.set(AppInfo(id: "a"))
        focus.set(AppInfo(id: "a"))  // the same app: no change
        focus.set(nil)
        focus.set(AppInfo(id: "b"))
        #expect(heard == ["a", nil, "b"])
        #expect(focus.serial == 3)
        #expect(focus.app(serial: 1)?.id == "a")
        #expect(focus.app(serial: 2) == nil)
        #expect(focus.app(serial: 3)?.id == "b")
        for i in 0..<64 { focus.set(AppInfo(id: "\(i)")) }
        #expect(focus.app(serial: 3) == nil)  // forgotten: 64 changes later
        #expect(focus.app(serial: 67)?.id == "63")
        #expect(focus.app(serial: 4)?.id == "0")
    }

    @Test func aFixedAppIgnoresChanges() {
        let focus = AppFocus()
        focus.fix(AppInfo(id: "kitty"))
        focus.set(AppInfo(id: "firefox"))
        #expect(focus.current?.id == "kitty")
    }

    @Test func anUnknownFocusAdmitsOnlyExclusionsAndWarnsOnce() {
        let focus = AppFocus()
        var warnings = 0
        focus.onUndecidable = { warnings += 1 }
        #expect(focus.admits(AppFilter(["!kitty"])!))
        #expect(focus.admits(AppFilter(["!kitty", "!foot"])!))
        #expect(!focus.admits(AppFilter(["firefox"])!))
        #expect(!focus.admits(AppFilter(["firefox", "!kitty"])!))
        #expect(warnings == 1)
        // Once known, the same filters decide against the app.
        focus.set(AppInfo(id: "kitty"))
        #expect(!focus.admits(AppFilter(["!kitty"])!))
        #expect(warnings == 1)
    }
}

@Suite struct RecognizerAppsTests {
    /// A one-finger swipe of 200 to the right from t0, with `between` run after its first move.
    private func swipe(_ dispatcher: PointerDispatcher, at t0: Double, between: () -> Void = {}) {
        dispatcher.dispatch(frame(t0, (1, .down, 0, 0)))
        dispatcher.dispatch(frame(t0 + 0.1, (1, .move, 100, 0)))
        between()
        dispatcher.dispatch(frame(t0 + 0.2, (1, .up, 200, 0)))
    }

    private func recorded(_ recognizer: GestureRecognizer, _ dispatcher: PointerDispatcher) -> () -> [String] {
        var seen: [String] = []
        recognizer.addListener { value in
            seen.append("\(value.state.rawValue) \(dispatcher.focus.app(serial: Int(value.appSerial))?.id ?? "-")")
        }
        return { seen }
    }

    @Test func theAppIsDecidedWhenTheFirstPointerGoesDownAndKeptForTheGesture() throws {
        let dispatcher = PointerDispatcher()
        let swipe = try SwipeGestureRecognizer(fingers: 1)
        swipe.apps = AppFilter(["firefox"])
        dispatcher.add(swipe)
        let seen = recorded(swipe, dispatcher)
        dispatcher.dispatch(Frame(t: 0, focus: FocusChange(app: AppInfo(id: "firefox"))))
        // Begun in firefox; the focus moves to kitty under the swipe: still firefox's.
        self.swipe(dispatcher, at: 1) { dispatcher.dispatch(Frame(t: 1.15, focus: FocusChange(app: AppInfo(id: "kitty")))) }
        // Begun in kitty: not recognized, and no value at all (it never began).
        self.swipe(dispatcher, at: 2)
        // Begun in kitty, focus to firefox mid-swipe: still not this recognizer's.
        self.swipe(dispatcher, at: 3) { dispatcher.dispatch(Frame(t: 3.15, focus: FocusChange(app: AppInfo(id: "firefox")))) }
        self.swipe(dispatcher, at: 4)
        #expect(seen() == ["recognized firefox", "recognized firefox"])
    }

    @Test func laterPointersOfATurnedAwayTouchStayTurnedAway() throws {
        let dispatcher = PointerDispatcher()
        let swipe = try SwipeGestureRecognizer(fingers: 2)
        swipe.apps = AppFilter(["firefox"])
        dispatcher.add(swipe)
        let seen = recorded(swipe, dispatcher)
        dispatcher.dispatch(Frame(t: 0, focus: FocusChange(app: AppInfo(id: "kitty"))))
        dispatcher.dispatch(frame(1, (1, .down, 0, 0)))
        dispatcher.dispatch(Frame(t: 1.01, focus: FocusChange(app: AppInfo(id: "firefox"))))
        dispatcher.dispatch(frame(1.02, (2, .down, 10, 0)))
        dispatcher.dispatch(frame(1.1, (1, .move, 200, 0), (2, .move, 210, 0)))
        dispatcher.dispatch(frame(1.2, (1, .up, 200, 0), (2, .up, 210, 0)))
        #expect(seen() == [])
        // Once they all lifted, the next touch is decided afresh (firefox now).
        dispatcher.dispatch(frame(2, (1, .down, 0, 0), (2, .down, 10, 0)))
        dispatcher.dispatch(frame(2.1, (1, .move, 200, 0), (2, .move, 210, 0)))
        dispatcher.dispatch(frame(2.2, (1, .up, 200, 0), (2, .up, 210, 0)))
        #expect(seen() == ["recognized firefox"])
    }

    @Test func withTheFocusUnknownOnlyExclusionsBeginAndOthersWithoutAppsToo() throws {
        let dispatcher = PointerDispatcher()
        let including = try SwipeGestureRecognizer(fingers: 1)
        including.apps = AppFilter(["firefox", "!kitty"])
        let excluding = try SwipeGestureRecognizer(fingers: 1)
        excluding.apps = AppFilter(["!kitty"])
        let plain = try SwipeGestureRecognizer(fingers: 1)
        dispatcher.add(including)
        dispatcher.add(excluding)
        dispatcher.add(plain)
        var warnings = 0
        dispatcher.focus.onUndecidable = { warnings += 1 }
        let includingSeen = recorded(including, dispatcher)
        let excludingSeen = recorded(excluding, dispatcher)
        let plainSeen = recorded(plain, dispatcher)
        swipe(dispatcher, at: 0)
        swipe(dispatcher, at: 1)
        #expect(includingSeen() == [])
        // g.app of a gesture begun under an unknown focus: none.
        #expect(excludingSeen() == ["recognized -", "recognized -"])
        #expect(plainSeen() == ["recognized -", "recognized -"])
        #expect(warnings == 1)
    }

    @Test func aTapWaitingForItsSecondTapKeepsTheAppOfTheFirst() throws {
        let dispatcher = PointerDispatcher()
        let tap = try TapGestureRecognizer(taps: 2)
        tap.apps = AppFilter(["firefox"])
        dispatcher.add(tap)
        let seen = recorded(tap, dispatcher)
        dispatcher.dispatch(Frame(t: 0, focus: FocusChange(app: AppInfo(id: "firefox"))))
        dispatcher.dispatch(frame(1, (1, .down, 0, 0)))
        dispatcher.dispatch(frame(1.05, (1, .up, 0, 0)))
        dispatcher.dispatch(Frame(t: 1.1, focus: FocusChange(app: AppInfo(id: "kitty"))))
        dispatcher.dispatch(frame(1.15, (1, .down, 0, 0)))
        dispatcher.dispatch(frame(1.2, (1, .up, 0, 0)))
        #expect(seen() == ["recognized firefox"])
    }
}

@Suite struct GestureValueLayoutTests {
    /// The focus serial sits in the padding after `kind` and `state`: a gesture value (copied
    /// per event, stored whole in Lua userdata) is no larger than it was without it.
    @Test func theAppSerialAddsNoBytes() {
        #expect(MemoryLayout<GestureValue>.size == 120)  // as before it
        #expect(MemoryLayout<GestureValue>.offset(of: \GestureValue.appSerial) == 4)
    }
}
