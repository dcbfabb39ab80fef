-- examples/alt-tab.lua over a recorded session: alt-tab.expected.jsonl pins the actions it causes.
-- (The first entry of package.path is this script's folder.)
local here = package.path:match("^(.-)%?%.lua") or "./"
dofile(here .. "../alt-tab.lua")
