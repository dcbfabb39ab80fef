-- examples/desktop.lua over a recorded session: desktop.expected.jsonl pins the actions it causes.
local here = arg[0]:match("^(.*/)") or "./"
dofile(here .. "../desktop.lua")
