-- examples/alt-tab.lua over a recorded session: alt-tab.expected.jsonl pins the actions it causes.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "../alt-tab.lua")
