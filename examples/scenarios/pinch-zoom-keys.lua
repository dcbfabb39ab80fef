-- examples/pinch-zoom-keys.lua over a recorded session: pinch-zoom-keys.expected.jsonl pins the actions it causes.
-- (The first entry of package.path is this script's folder.)
local here = package.path:match("^(.-)%?%.lua") or "./"
dofile(here .. "../pinch-zoom-keys.lua")
