-- examples/pinch-zoom-keys.lua over a recorded session: pinch-zoom-keys.expected.jsonl pins the actions it causes.
local here = arg[0]:match("^(.*/)") or "./"
dofile(here .. "../pinch-zoom-keys.lua")
