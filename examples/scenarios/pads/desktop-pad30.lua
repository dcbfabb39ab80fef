-- examples/desktop.lua, unchanged and with no option, over a synthetic touchpad of 100 x 67 mm at
-- 30 units/mm (scripts/make-pad-recordings.py): the same actions as on the other pad.
local here = arg[0]:match("^(.*/)") or "./"
dofile(here .. "../../desktop.lua")
