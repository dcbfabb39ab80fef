-- Per-application gestures: one three-finger swipe, a different meaning in each application.
--
--   browsers (firefox, chromium)   swipe right: back (alt+Left), swipe left: forward (alt+Right)
--   terminals (kitty, foot, xterm) swipe left/right: next/previous tab (ctrl+PageDown/Up)
--   anything else                  swipe left/right: the next/previous workspace
--
-- `apps =` takes an application name or a list of them (compared case-insensitively with the
-- Wayland app_id or the X11 class); a leading "!" excludes. It is decided when the gesture's
-- first finger goes down and kept for the whole gesture: a swipe begun in the browser is the
-- browser's even if the focus moves while the fingers are down. The focused application comes
-- from sway/i3, Hyprland or X11 in live runs (see docs/desktop.md), from app lines in event
-- files, or from `--app NAME`:
--
--   motionscript run examples/per-app.lua --device touchpad
--   motionscript run examples/per-app.lua --events examples/scenarios/per-app.events.jsonl
--   motionscript run examples/per-app.lua --events examples/swipe-direction.events.jsonl --app firefox

local browsers = {"firefox", "chromium"}
local terminals = {"kitty", "foot", "xterm"}

-- Runs `action(g)` for each recognized swipe of `recognizer`.
local function onSwipe(recognizer, action)
  motion.gesture(recognizer):subscribe(function(g)
    if g.state == "recognized" then action(g) end
  end)
end

local browser = motion.swipe{fingers = 3, minDistance = 100, apps = browsers}
onSwipe(browser, function(g)
  if g.direction == "right" then motion.keys("alt+Left")
  elseif g.direction == "left" then motion.keys("alt+Right") end
end)

local terminal = motion.swipe{fingers = 3, minDistance = 100, apps = terminals}
onSwipe(terminal, function(g)
  if g.direction == "left" then motion.keys("ctrl+PageDown")
  elseif g.direction == "right" then motion.keys("ctrl+PageUp") end
end)

-- Everywhere else, no window focused included: the workspace switch of examples/desktop.lua.
local elsewhere = {}
for _, name in ipairs(browsers) do elsewhere[#elsewhere + 1] = "!" .. name end
for _, name in ipairs(terminals) do elsewhere[#elsewhere + 1] = "!" .. name end
local workspace = motion.swipe{fingers = 3, minDistance = 100, apps = elsewhere}
onSwipe(workspace, function(g)
  if g.direction == "left" then motion.keys("ctrl+alt+Right")
  elseif g.direction == "right" then motion.keys("ctrl+alt+Left") end
end)

-- Which application each gesture was decided for (g.app: the app when it began).
for _, recognizer in ipairs{browser, terminal, workspace} do
  onSwipe(recognizer, function(g) motion.emit("swipe", {app = g.app and g.app.id or "none", direction = g.direction}) end)
end
