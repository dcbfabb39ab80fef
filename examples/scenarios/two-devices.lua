-- A touchscreen and a touchpad in one recording (`record --device A --device B`, or
-- `ctl record` when both had input): each pointer names its device, as it did live, so a
-- script that treats them differently behaves the same under test. The touchpad's finger has
-- the touchscreen's tracking id while that one is down: it gets a fresh id.
motion.pointers():subscribe(function(p)
  if p.phase ~= "move" then motion.emit(p.device.kind, p.phase .. " " .. p.id) end
end)
