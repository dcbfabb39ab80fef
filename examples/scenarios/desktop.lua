-- examples/desktop.lua over a recorded session: desktop.expected.jsonl pins the actions it causes.
-- (The first entry of package.path is this script's folder.)
local here = package.path:match("^(.-)%?%.lua") or "./"
dofile(here .. "../desktop.lua")
