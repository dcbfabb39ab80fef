---@meta motion
-- LuaLS (lua-language-server) definitions for motionscript's `motion` module: completion, hover
-- documentation and type checks in editors. `motionscript init` writes this file beside a
-- starter script with a `.luarc.json` that points LuaLS at it.

---A point, or a vector, in some element's coordinate space (y down).
---@class motion.Point
---@field x number
---@field y number

---A recognizer state: `possible`, `began`, `changed`, `ended`, `cancelled`, `failed`; discrete
---gestures (tap) use `recognized` instead of `ended`.
---@alias motion.RecognitionState "possible"|"began"|"changed"|"ended"|"cancelled"|"failed"|"recognized"

---A stream's activity state: `active` while a gesture or animation runs, `atRest` otherwise.
---@alias motion.MotionState "active"|"atRest"

---What a stream emits: a number, boolean, string, point, gesture value or Lua table.
---@alias motion.Value number|boolean|string|motion.Point|motion.Gesture|table

---An easing curve: a named one or a cubic Bézier {x1, y1, x2, y2} (x1 and x2 in 0…1).
---@alias motion.TimingFunction "linear"|"easeIn"|"easeOut"|"easeInOut"|number[]

---The `motion` module (also `require "motion"`).
---@class motion
---@field screen motion.Element The whole input surface (its width and height come from the input).
motion = {}

-- Elements ------------------------------------------------------------------------------------

---A region of the screen with its own coordinate space: a screen point p maps to
---R(-rotation) · (p − {x, y}) / scale.
---@class motion.Element
---@field x number Origin on the screen, x.
---@field y number Origin on the screen, y.
---@field width number Width in the element's own units.
---@field height number Height in the element's own units.
---@field rotation number Radians (y down: clockwise is positive).
---@field scale number Screen units per element unit.

---@class motion.ElementOptions
---@field x? number Origin on the screen, x (default 0).
---@field y? number Origin on the screen, y (default 0).
---@field width number Required, >= 0.
---@field height number Required, >= 0.
---@field rotation? number Radians (default 0).
---@field scale? number > 0 (default 1).

---A region of the screen with its own coordinate space.
---@param options motion.ElementOptions
---@return motion.Element
function motion.element(options) end

-- Recognizers ---------------------------------------------------------------------------------

---A gesture recognizer. It watches the pointers that go down inside its element.
---@class motion.Recognizer
---@field state motion.RecognitionState The current state.
---@field kind "translation"|"rotation"|"scale"|"tap"|"swipe"|"hold"
---@field pointers integer How many pointers it tracks.
---@field element motion.Element Where its pointers must go down.
---@field enabled boolean Writable: false cancels an active gesture and takes no new pointers.
local Recognizer = {}

---This recognizer waits until `other` fails (a single tap waiting for a double tap, a swipe waiting
---for a hold): its start is held back until then, and it fails if `other` begins or is recognized.
---@param other motion.Recognizer
function Recognizer:requireToFail(other) end

---Calls `fn(g)` each time the recognizer reaches `state`; returns the subscription. A state the
---recognizer never reaches is an error: swipes and taps reach "recognized" or "failed", the others
---"began", "changed", "ended", "cancelled" or "failed".
---@param state motion.RecognitionState
---@param fn fun(g: motion.Gesture)
---@return motion.Subscription
function Recognizer:on(state, fn) end

---Options every recognizer takes.
---@class motion.RecognizerOptions
---@field element? motion.Element Where pointers must go down (default motion.screen).
---@field enabled? boolean Default true.
---@field requireToFail? motion.Recognizer|motion.Recognizer[] Wait for these to fail first.
---@field fingers? integer Exactly this many pointers (without it: any number; 2 or more for swipe and hold).
---@field devices? string|string[] Only pointers from these input devices (selectors as for --device).
---@field apps? string|string[] Only while these applications have the focus (app_id or X11 class, any case; "!name" excludes: exclusions alone also admit an unknown focus), decided when the gesture begins.
---@field consume? boolean Under --proxy, a touch this recognizes never reaches the desktop (default false; docs/desktop.md).

---@class motion.TranslationOptions: motion.RecognizerOptions
---@field threshold? number Units the centroid must move (strictly more) to begin (default 5; millimetres on a pad that reports its resolution).
---@field minPointers? integer Pointers needed before movement counts (default 1).
---@field maxPointers? integer Pointers tracked at most (default unlimited).

---@class motion.RotationOptions: motion.RecognizerOptions
---@field threshold? number Radians to begin (default π/36).

---@class motion.ScaleOptions: motion.RecognizerOptions
---@field threshold? number On |scale − 1| to begin (default 0.05).

---@class motion.TapOptions: motion.RecognizerOptions
---@field taps? integer Taps that make a recognition (default 1).
---@field maxDuration? number Seconds each tap may last (default 0.3).
---@field maxMovement? number Units a pointer may move (default 3).
---@field interval? number Seconds within which the next tap must start (default 0.3).

---@class motion.SwipeOptions: motion.RecognizerOptions
---@field direction? motion.SwipeDirection Only swipes this way (a diagonal implies diagonals = true).
---@field diagonals? boolean Eight directions instead of four (default false).
---@field minDistance? number Units the pointers must travel (default 20, inclusive).
---@field minVelocity? number Mean speed, units per second (default 0, inclusive).
---@field from? "left"|"right"|"top"|"bottom"|motion.Element Start within `edge` units of this edge of the element ("right"/"bottom" need an element with a size), or inside this element.
---@field edge? number Depth of an edge zone, units (default 10).

---@alias motion.SwipeDirection "left"|"right"|"up"|"down"|"upLeft"|"upRight"|"downLeft"|"downRight"

---@class motion.HoldOptions: motion.RecognizerOptions
---@field duration? number Seconds the pointers must stay down (default 0.5).
---@field maxMovement? number Units a pointer may move before the hold begins (default 3).

---Drags: translation of the pointers' centroid.
---@param options? motion.TranslationOptions
---@return motion.Recognizer
function motion.translation(options) end

---Alias of motion.translation.
---@param options? motion.TranslationOptions
---@return motion.Recognizer
function motion.pan(options) end

---Two-pointer rotation, radians from the reference vector (y down: clockwise is positive).
---@param options? motion.RotationOptions
---@return motion.Recognizer
function motion.rotation(options) end

---Two-pointer scale: length ratio to the reference vector.
---@param options? motion.ScaleOptions
---@return motion.Recognizer
function motion.scale(options) end

---Taps: all pointers lift within maxDuration and never move more than maxMovement.
---@param options? motion.TapOptions
---@return motion.Recognizer
function motion.tap(options) end

---Swipes: a quick stroke in one direction.
---@param options? motion.SwipeOptions
---@return motion.Recognizer
function motion.swipe(options) end

---Holds: pointers that stay down, still, for a while.
---@param options? motion.HoldOptions
---@return motion.Recognizer
function motion.hold(options) end

-- Gesture values ------------------------------------------------------------------------------

---A snapshot of a recognizer, as gesture streams emit it.
---@class motion.Gesture
---@field state motion.RecognitionState
---@field pointers integer How many pointers the recognizer tracks.
---@field kind "translation"|"rotation"|"scale"|"tap"|"swipe"|"hold"
---@field t number Input time of the frame that produced it, seconds.
---@field taps integer Taps counted (tap gestures).
---@field app? motion.App The focused application when the gesture began (nil: no window focused, or the focus unknown).
local Gesture = {}

---A swipe's gesture value (kind "swipe"): decided once, at the first lift.
---@class motion.SwipeGesture: motion.Gesture
---@field direction? motion.SwipeDirection Which way it went (nil until decided).
---@field distance number How far it went since all its fingers were down, units.
---@field velocity number Its mean speed, units per second; `g:velocity(E)` still gives the mean velocity as a point.
---@field speed number Its mean speed, units per second (the same number as `velocity`).

---Centroid of the pointers, in `element` (default the screen).
---@param element? motion.Element
---@return motion.Point
function Gesture:location(element) end

---Translation of the pointers' centroid since they went down, in `element` (every kind: drags,
---taps, swipes, holds, pinches and rotations; re-based when pointers come or go, so it never jumps).
---@param element? motion.Element
---@return motion.Point
function Gesture:translation(element) end

---Radians from the reference vector (rotation gestures).
---@return number
function Gesture:rotation() end

---Length ratio to the reference vector (scale gestures).
---@return number
function Gesture:scale() end

---Velocity: a point per second in `element` (translation, tap, hold; a swipe's mean velocity) or a
---number per second (rotation, scale).
---@param element? motion.Element
---@return motion.Point|number
function Gesture:velocity(element) end

-- Sources -------------------------------------------------------------------------------------

---The stream of a recognizer's gesture values: one at subscription, then one per frame it handles.
---@param recognizer motion.Recognizer
---@return motion.Stream
function motion.gesture(recognizer) end

---Per recognition of a tap: state active, next(location in `element`), state atRest.
---@param tap motion.Recognizer
---@param element? motion.Element
---@return motion.Stream
function motion.tapSource(tap, element) end

---@class motion.PropertyOptions
---@field keep? string Under --watch, start from the value the previous version left under this name.

---A reactive property: read, write, and a stream of its values (current value at subscription).
---@param initial motion.Value
---@param options? motion.PropertyOptions
---@return motion.Property
function motion.property(initial, options) end

---A raw pointer change.
---@class motion.PointerEvent
---@field id integer
---@field phase "down"|"move"|"up"|"cancel"
---@field x number
---@field y number
---@field device? motion.PointerDevice The input device it came from (live input; nil for event files).

---The live input device a pointer came from.
---@class motion.PointerDevice
---@field name string The device's name, as the kernel reports it.
---@field kind "touchscreen"|"touchpad"|"mouse"|"other"

---Raw input: one motion.PointerEvent per pointer change, in input order.
---@return motion.Stream
function motion.pointers() end

---@class motion.SpringOptions
---@field to number|motion.Point Required: where the spring settles.
---@field from number|motion.Point Required: where it starts.
---@field velocity? number|motion.Point Initial velocity per second.
---@field stiffness? number Default 342.
---@field damping? number Default 30.
---@field mass? number Default 1.

---A spring on input time: 60 values per second until it settles.
---@param options motion.SpringOptions
---@return motion.Stream
function motion.spring(options) end

---@class motion.TweenOptions
---@field values number[]|motion.Point[] Required: the keyframes.
---@field duration number Required: seconds.
---@field offsets? number[] Keyframe times, 0…1 (default evenly spread).
---@field timingFunction? motion.TimingFunction Default "easeInOut".

---A tween on input time through `values`.
---@param options motion.TweenOptions
---@return motion.Stream
function motion.tween(options) end

---The current input time, seconds since the first event.
---@return number
function motion.time() end

---Writes one output line {"t":…, "name": name, "value": value}.
---@param name string
---@param value motion.Value
function motion.emit(name, value) end

-- Actions -------------------------------------------------------------------------------------

---Starts a command and returns at once: a shell line (sh -c), or an argv list run directly. Its output goes to stderr; performed live or with --act, otherwise only reported.
---@param command string|string[]
function motion.exec(command) end

---Presses a key chord such as "ctrl+alt+Right" in order, releases it in reverse (keys held with keyDown stay held).
---@param chord string
function motion.keys(chord) end

---Presses a key and keeps it down (released at the latest when the script ends).
---@param key string
function motion.keyDown(key) end

---Releases a key.
---@param key string
function motion.keyUp(key) end

---The virtual mouse.
---@class motion.Mouse
motion.mouse = {}

---Moves the pointer by (dx, dy).
---@param dx number
---@param dy number
function motion.mouse.move(dx, dy) end

---Scrolls by (dx, dy) wheel notches: dy > 0 scrolls down, dx > 0 right.
---@param dx number
---@param dy number
function motion.mouse.scroll(dx, dy) end

---Presses, releases or clicks a button.
---@param name "left"|"right"|"middle"|"side"|"extra"|"forward"|"back"
---@param action? "down"|"up"|"click" Default "click".
function motion.mouse.button(name, action) end

-- The focused application ---------------------------------------------------------------------

---The focused application, as the desktop (sway/i3, Hyprland, wlroots, X11), an app line of the events or --app tells it.
---@class motion.App
---@field id string The Wayland app_id, or the X11 class.
---@field class? string The X11 WM_CLASS class.
---@field instance? string The X11 WM_CLASS instance.
---@field title? string The window title.
---@field pid? integer The client's process id.

---The focused application.
---@class motion.AppModule
motion.app = {}

---The focused application now; nil when unknown or when no window has the focus.
---@return motion.App?
function motion.app.current() end

---A stream with one value per change of the focused application (nil: no window focused).
---@return motion.Stream
function motion.app.changes() end

-- Streams -------------------------------------------------------------------------------------

---A stream of values: every operator returns a new stream; nothing flows until a subscription.
---@class motion.Stream
local Stream = {}

---Calls `onNext` with each value and `onState` with each state; or writes each value into a property.
---@param onNext fun(value: any)|motion.Property
---@param onState? fun(state: motion.MotionState)
---@return motion.Subscription
function Stream:subscribe(onNext, onState) end

---Writes output lines under `name`: one per value, and one per change of state.
---@param name string
---@return motion.Subscription
function Stream:emit(name) end

---Emits f(value) for each value (nothing when f returns nil).
---@param f fun(value: any): any
---@return motion.Stream
function Stream:map(f) end

---Emits the values for which f returns true.
---@param f fun(value: any): boolean
---@return motion.Stream
function Stream:filter(f) end

---Drops a value equal to the one before it.
---@return motion.Stream
function Stream:dedupe() end

---Writes each value to stderr, after `label`, and passes it on.
---@param label? string
---@return motion.Stream
function Stream:log(label) end

---The x of each point.
---@return motion.Stream
function Stream:x() end

---The y of each point.
---@return motion.Stream
function Stream:y() end

---Gesture streams: `addedTo` plus the translation in `element` while the gesture is active
---(seed 001), `addedTo` read when it begins (a property, or any stream's latest value). With
---only an element (or nothing), each gesture's own translation.
---@param addedTo? motion.Property|motion.Stream|motion.Element
---@param element? motion.Element
---@return motion.Stream
function Stream:translation(addedTo, element) end

---Older name of translation(addedTo, element) (seed 000).
---@param from motion.Property|motion.Stream
---@param element? motion.Element
---@return motion.Stream
function Stream:translated(from, element) end

---Rotation gesture streams: `addedTo` plus the gesture's rotation while it is active.
---@param addedTo motion.Property|motion.Stream
---@return motion.Stream
function Stream:rotation(addedTo) end

---Scale gesture streams: `addedTo` times the gesture's scale while it is active.
---@param addedTo motion.Property|motion.Stream
---@return motion.Stream
function Stream:scale(addedTo) end

---Gesture values whose state is `state` (or one of a list).
---@param state motion.RecognitionState|motion.RecognitionState[]
---@return motion.Stream
function Stream:whenRecognitionState(state) end

---Gesture values whose state is one of those given.
---@param ... motion.RecognitionState|motion.RecognitionState[]
---@return motion.Stream
function Stream:whenRecognitionStateIsAnyOf(...) end

---The centroid of each gesture value, in `element`.
---@param element? motion.Element
---@return motion.Stream
function Stream:centroid(element) end

---The velocity of each gesture value (points per second in `element`, or numbers).
---@param element? motion.Element
---@return motion.Stream
function Stream:velocity(element) end

---|value − from| (numbers) or the Euclidean distance (points); `from` may be a property or stream (its latest value).
---@param from number|motion.Point|motion.Property|motion.Stream
---@return motion.Stream
function Stream:distance(from) end

---Ignores values until one equals `value`, then passes everything.
---@param value motion.Value
---@return motion.Stream
function Stream:ignoreUntil(value) end

---not value, for booleans.
---@return motion.Stream
function Stream:inverted() end

---max(value, min).
---@param min number
---@return motion.Stream
function Stream:lowerBound(min) end

---min(value, max).
---@param max number
---@return motion.Stream
function Stream:upperBound(max) end

---Values of this stream and of the others, as they arrive.
---@param ... motion.Stream|motion.Property
---@return motion.Stream
function Stream:merge(...) end

---value / by (numbers) or per axis (points).
---@param by number|motion.Point
---@return motion.Stream
function Stream:normalized(by) end

---value + by (numbers) or per axis (points).
---@param by number|motion.Point
---@return motion.Stream
function Stream:offset(by) end

---value × by, for numbers and points.
---@param by number
---@return motion.Stream
function Stream:scaled(by) end

---Each value with an entry in `map` emits the entry; others emit nothing.
---@param map table
---@return motion.Stream
function Stream:rewrite(map) end

---Every value becomes `value`.
---@param value motion.Value
---@return motion.Stream
function Stream:rewriteTo(value) end

---Maps a..b linearly onto c..d (not clamped; a == b gives c).
---@param a number
---@param b number
---@param c number
---@param d number
---@return motion.Stream
function Stream:rewriteRange(a, b, c, d) end

---Outside below..above, values are pulled back by a rubber band of `maxLength`.
---@param below number|motion.Point
---@param above number|motion.Point
---@param maxLength number
---@return motion.Stream
function Stream:rubberBanded(below, above, maxLength) end

---"onExit" when |value| leaves -size..size, "onReturn" when it comes back.
---@param size number
---@return motion.Stream
function Stream:slop(size) end

---Emits `value` first, remembered: subscribers share one connection; a new one gets the latest value.
---@param value motion.Value
---@return motion.Stream
function Stream:startWith(value) end

---"below", "above" or "within" (equal) relative to `threshold`.
---@param threshold number
---@return motion.Stream
function Stream:threshold(threshold) end

---"below", "within" (inclusive) or "above" relative to min..max.
---@param min number
---@param max number
---@return motion.Stream
function Stream:thresholdRange(min, max) end

---Passes values only while `open`'s latest value is true.
---@param open motion.Stream|motion.Property
---@return motion.Stream
function Stream:valve(open) end

---Points with x replaced by `x`.
---@param x number
---@return motion.Stream
function Stream:xLocked(x) end

---Points with y replaced by `y`.
---@param y number
---@return motion.Stream
function Stream:yLocked(y) end

---Each value `seconds` later, on input time.
---@param seconds number
---@return motion.Stream
function Stream:delay(seconds) end

---Each value as text ("20", "0.5", JSON for tables).
---@return motion.Stream
function Stream:toString() end

---A value, then none until `seconds` of input time passed since the one let through.
---@param seconds number
---@return motion.Stream
function Stream:throttle(seconds) end

---A value once `seconds` of input time passed without a newer one, stamped with that time.
---@param seconds number
---@return motion.Stream
function Stream:debounce(seconds) end

---A reactive property: a value to read and write, and a stream of its values.
---@class motion.Property: motion.Stream
local Property = {}

---The current value.
---@return any
function Property:read() end

---Stores `value` and sends it to every subscriber (even if unchanged).
---@param value motion.Value
function Property:write(value) end

---A live connection to a stream; it lives until unsubscribed or the script ends.
---@class motion.Subscription
local Subscription = {}

---Disconnects (the first call only).
function Subscription:unsubscribe() end

return motion
