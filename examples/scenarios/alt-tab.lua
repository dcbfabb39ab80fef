-- examples/alt-tab.lua over a recorded session: alt-tab.expected.jsonl pins the actions it causes.
local here = arg[0]:match("^(.*/)") or "./"
dofile(here .. "../alt-tab.lua")
