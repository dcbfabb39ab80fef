-- examples/desktop.lua over a recorded session: desktop.expected.jsonl pins the actions it causes.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "../desktop.lua")
