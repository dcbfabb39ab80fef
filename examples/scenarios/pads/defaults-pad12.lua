-- default-thresholds.lua over the 12 units/mm pad: the same actions as on the other pad.
local here = arg[0]:match("^(.*/)") or "./"
dofile(here .. "default-thresholds.lua")
